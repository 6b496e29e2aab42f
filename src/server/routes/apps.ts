/**
 * /v1/apps: the auth half of apps, registered for the server by an admin or by an account for
 * itself. These paths keep clear of /v1/accounts, which are Sluice's tenants; an app's client
 * secret is never in a response.
 */

import type { FastifyInstance } from "fastify";
import { type AppDefinition, checkSlug, parseAppInput } from "../../core/apps/app-definition.js";
import {
  getRegisteredApp,
  listApps,
  registerApp,
  resolveApp,
  unregisterApp,
} from "../../core/apps/app-registry.js";
import { oauthRedirectUri } from "../../core/apps/oauth-connections.js";
import { clientSecretOf } from "../../core/apps/oauth-settings.js";
import type { CoreContext } from "../../core/context.js";
import { requireAdmin } from "../plugins/auth.js";
import { dataOf, documentedAs, errorResponse, listOf, pathParams } from "../schemas.js";
import { appView } from "../views/apps.js";
import { appInput, appParamsDocument, appSchema } from "./app-schemas.js";
import { routeGroup } from "./route-group.js";

const slugParams = pathParams({ slug: { type: "string", maxLength: 200 } });

const oneApp = { 200: dataOf(appSchema) } as const;

/** Registers `/apps`; /v1/connected_accounts are in connected-accounts.ts. */
export function appRoutes(app: FastifyInstance, context: CoreContext): void {
  const route = routeGroup(app, "apps");
  const { db } = context.store;
  const view = (definition: AppDefinition) => {
    const shown = appView(definition);
    return shown.oauth
      ? { ...shown, oauth: { ...shown.oauth, redirect_uri: oauthRedirectUri(context.baseUrl) } }
      : shown;
  };

  route.post<{ Body: Record<string, unknown> & { scope?: "server" | "account" } }>("/apps", {
    operationId: "registerApp",
    summary: "Register an app (or replace its registration)",
    body: appInput,
    response: { ...oneApp, 403: errorResponse },
    config: documentedAs({ body: appParamsDocument }),
    handler: async (request) => {
      const scope = request.body.scope ?? "account";
      if (scope === "server") requireAdmin(request);
      const definition = parseAppInput(request.body, scope);
      const secret = definition.authType === "oauth" ? clientSecretOf(definition.slug, request.body) : null;
      const sealed = typeof secret === "string" ? context.secrets.encrypt(secret) : secret;
      return { data: view(await registerApp(db, request.account.id, definition, sealed)) };
    },
  });

  route.get("/apps", {
    operationId: "listApps",
    summary: "List the apps this account sees: the server's and its own",
    response: { 200: listOf(appSchema) },
    handler: async (request) => ({ data: (await listApps(db, request.account.id)).map(view) }),
  });

  route.get<{ Params: { slug: string } }>("/apps/:slug", {
    operationId: "getApp",
    summary: "Read an app: registered, or an open keys app when nobody registered the slug",
    params: slugParams,
    response: oneApp,
    handler: async (request) => ({
      data: view(await resolveApp(db, request.account.id, checkSlug(request.params.slug))),
    }),
  });

  route.delete<{ Params: { slug: string }; Querystring: { scope?: "server" | "account" } }>("/apps/:slug", {
    operationId: "deleteApp",
    summary: "Remove an app's registration (scope=server: the server's, admin only)",
    params: slugParams,
    querystring: {
      type: "object",
      properties: { scope: { type: "string", enum: ["server", "account"], default: "account" } },
    },
    response: {
      200: dataOf({
        type: "object",
        properties: { name_slug: { type: "string" }, deleted: { type: "boolean" } },
      }),
      403: errorResponse,
    },
    handler: async (request) => {
      const scope = request.query.scope ?? "account";
      if (scope === "server") requireAdmin(request);
      await getRegisteredApp(db, request.account.id, request.params.slug);
      await unregisterApp(db, request.account.id, request.params.slug, scope);
      return { data: { name_slug: request.params.slug, deleted: true } };
    },
  });
}

/**
 * /v1/apps (the auth half of apps: registered for the server by an admin, or by an account for
 * itself) and /v1/connected_accounts (`apn_…`, an account's credentials for one app). These paths
 * keep clear of /v1/accounts, which are Sluice's tenants. Credentials are never in a response.
 */
import type { FastifyInstance } from "fastify";
import { type AppDefinition, appView, checkSlug, parseAppInput } from "../../core/apps/app-definition.js";
import {
  getRegisteredApp,
  listApps,
  registerApp,
  resolveApp,
  unregisterApp,
} from "../../core/apps/app-registry.js";
import {
  type ConnectedAccountInput,
  type ConnectedAccountUpdate,
  connectedAccountView,
  createConnectedAccount,
  deleteConnectedAccount,
  getConnectedAccount,
  listConnectedAccounts,
  updateConnectedAccount,
} from "../../core/apps/connected-accounts.js";
import { oauthRedirectUri } from "../../core/apps/oauth-connections.js";
import { clientSecretOf } from "../../core/apps/oauth-settings.js";
import type { CoreContext } from "../../core/context.js";
import type { PageRequest } from "../../core/pagination.js";
import { requireAdmin } from "../plugins/auth.js";
import {
  commonErrors,
  deletedResponse,
  documentedAs,
  errorResponse,
  idParams,
  pageOf,
  pageQuery,
} from "../schemas.js";
import { appParamsDocument } from "./app-schemas.js";

const fieldSchema = {
  type: "object",
  properties: {
    name: { type: "string" },
    label: { type: "string" },
    description: { type: "string" },
    secret: { type: "boolean" },
    optional: { type: "boolean" },
  },
} as const;

const oauthSchema = {
  type: ["object", "null"],
  description: "the OAuth settings of an oauth app (never its client secret); null for other apps",
  properties: {
    authorize_url: { type: "string" },
    token_url: { type: "string" },
    scopes: { type: "array", items: { type: "string" } },
    scope_separator: { type: "string" },
    pkce: { type: "boolean" },
    authorize_params: { type: "object", additionalProperties: { type: "string" } },
    user_info_url: { type: ["string", "null"] },
    uid_field: { type: "string" },
    client_id: { type: "string" },
    token_auth_method: { type: "string", enum: ["client_secret_basic", "client_secret_post"] },
    has_client_secret: { type: "boolean" },
    redirect_uri: { type: "string", description: "the callback URL to register with the provider" },
  },
} as const;

const appSchema = {
  type: "object",
  properties: {
    name_slug: { type: "string" },
    name: { type: "string" },
    auth_type: { type: "string", enum: ["keys", "oauth", "none"] },
    fields: {
      type: ["array", "null"],
      items: fieldSchema,
      description:
        "the fields of a keys app (an oauth app's custom fields); null for an app nobody registered: its connected accounts take any fields",
    },
    oauth: oauthSchema,
    scope: { type: "string", enum: ["server", "account", "implicit"] },
  },
} as const;

const appInput = {
  type: "object",
  properties: {
    slug: { type: "string", description: "the app's name slug, the `app` of an app prop" },
    name: { type: "string" },
    auth_type: { type: "string", description: "keys, oauth or none" },
    fields: { type: "array", items: { type: "object", additionalProperties: true } },
    oauth: {
      type: "object",
      additionalProperties: true,
      description:
        "for auth_type oauth: {authorize_url, token_url, client_id, client_secret?, scopes?, scope_separator?, pkce?, authorize_params?, user_info_url?, uid_field?, token_auth_method?}; client_secret omitted keeps the registered one, null removes it",
    },
    scope: {
      type: "string",
      enum: ["server", "account"],
      default: "account",
      description: "server: for every account (admin only); account: for this account",
    },
  },
  required: ["slug", "auth_type"],
} as const;

const slugParams = {
  type: "object",
  properties: { slug: { type: "string", maxLength: 200 } },
  required: ["slug"],
} as const;

const connectedAccountSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "apn_…" },
    name: { type: "string" },
    app: { type: "string", description: "the app's name slug" },
    auth_type: { type: "string" },
    healthy: { type: "boolean" },
    dead: { type: "boolean" },
    error: { type: ["string", "null"] },
    expires_at: { type: ["string", "null"] },
    last_refreshed_at: { type: ["string", "null"] },
    created_at: { type: "string" },
    updated_at: { type: "string" },
  },
} as const;

const oneApp = { 200: { type: "object", properties: { data: appSchema } }, ...commonErrors } as const;
const oneAccount = {
  200: { type: "object", properties: { data: connectedAccountSchema } },
  ...commonErrors,
} as const;

export function appRoutes(app: FastifyInstance, context: CoreContext): void {
  const { db } = context.store;
  const view = (definition: AppDefinition) => {
    const shown = appView(definition);
    return shown.oauth
      ? { ...shown, oauth: { ...shown.oauth, redirect_uri: oauthRedirectUri(context.baseUrl) } }
      : shown;
  };

  app.post<{ Body: Record<string, unknown> & { scope?: "server" | "account" } }>(
    "/apps",
    {
      config: documentedAs({ body: appParamsDocument }),
      schema: {
        operationId: "registerApp",
        summary: "Register an app (or replace its registration)",
        tags: ["apps"],
        body: appInput,
        response: { ...oneApp, 403: errorResponse },
      },
    },
    async (request) => {
      const scope = request.body.scope ?? "account";
      if (scope === "server") requireAdmin(request);
      const definition = parseAppInput(request.body, scope);
      const secret = definition.authType === "oauth" ? clientSecretOf(definition.slug, request.body) : null;
      const sealed = typeof secret === "string" ? context.secrets.encrypt(secret) : secret;
      return { data: view(await registerApp(db, request.account.id, definition, sealed)) };
    },
  );

  app.get(
    "/apps",
    {
      schema: {
        operationId: "listApps",
        summary: "List the apps this account sees: the server's and its own",
        tags: ["apps"],
        response: {
          200: { type: "object", properties: { data: { type: "array", items: appSchema } } },
          ...commonErrors,
        },
      },
    },
    async (request) => ({ data: (await listApps(db, request.account.id)).map(view) }),
  );

  app.get<{ Params: { slug: string } }>(
    "/apps/:slug",
    {
      schema: {
        operationId: "getApp",
        summary: "Read an app: registered, or an open keys app when nobody registered the slug",
        tags: ["apps"],
        params: slugParams,
        response: oneApp,
      },
    },
    async (request) => ({
      data: view(await resolveApp(db, request.account.id, checkSlug(request.params.slug))),
    }),
  );

  app.delete<{ Params: { slug: string }; Querystring: { scope?: "server" | "account" } }>(
    "/apps/:slug",
    {
      schema: {
        operationId: "deleteApp",
        summary: "Remove an app's registration (scope=server: the server's, admin only)",
        tags: ["apps"],
        params: slugParams,
        querystring: {
          type: "object",
          properties: { scope: { type: "string", enum: ["server", "account"], default: "account" } },
        },
        response: {
          200: {
            type: "object",
            properties: {
              data: {
                type: "object",
                properties: { name_slug: { type: "string" }, deleted: { type: "boolean" } },
              },
            },
          },
          403: errorResponse,
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const scope = request.query.scope ?? "account";
      if (scope === "server") requireAdmin(request);
      await getRegisteredApp(db, request.account.id, request.params.slug);
      await unregisterApp(db, request.account.id, request.params.slug, scope);
      return { data: { name_slug: request.params.slug, deleted: true } };
    },
  );

  app.post<{ Body: ConnectedAccountInput }>(
    "/connected_accounts",
    {
      schema: {
        operationId: "createConnectedAccount",
        summary:
          "Connect an account of a keys app: its fields are sealed at rest, never returned (OAuth apps: POST /v1/connected_accounts/oauth)",
        tags: ["connected accounts"],
        body: {
          type: "object",
          properties: {
            app: { type: "string", description: "the app's name slug" },
            name: { type: "string" },
            fields: { type: "object", additionalProperties: true, description: "the app's $auth fields" },
          },
          required: ["app"],
        },
        response: oneAccount,
      },
    },
    async (request) => ({
      data: connectedAccountView(await createConnectedAccount(context, request.account.id, request.body)),
    }),
  );

  app.get<{ Querystring: PageRequest & { app?: string } }>(
    "/connected_accounts",
    {
      schema: {
        operationId: "listConnectedAccounts",
        summary: "List the account's connected accounts, newest first",
        tags: ["connected accounts"],
        querystring: {
          ...pageQuery,
          properties: { ...pageQuery.properties, app: { type: "string", maxLength: 200 } },
        },
        response: {
          200: pageOf(connectedAccountSchema),
          ...commonErrors,
        },
      },
    },
    async (request) => {
      const page = await listConnectedAccounts(context, request.account.id, request.query);
      return { page_info: page.pageInfo, data: page.items.map(connectedAccountView) };
    },
  );

  app.get<{ Params: { id: string } }>(
    "/connected_accounts/:id",
    {
      schema: {
        operationId: "getConnectedAccount",
        summary: "Read a connected account (never its credentials)",
        tags: ["connected accounts"],
        params: idParams,
        response: oneAccount,
      },
    },
    async (request) => ({
      data: connectedAccountView(await getConnectedAccount(context, request.account.id, request.params.id)),
    }),
  );

  app.patch<{ Params: { id: string }; Body: ConnectedAccountUpdate }>(
    "/connected_accounts/:id",
    {
      schema: {
        operationId: "updateConnectedAccount",
        summary:
          "Rename a connected account, or reconnect a keys account by replacing its fields (sealed at rest, never returned; it becomes healthy). OAuth accounts reconnect with POST /v1/connected_accounts/oauth and connected_account_id",
        tags: ["connected accounts"],
        params: idParams,
        body: {
          type: "object",
          properties: {
            name: { type: "string" },
            fields: {
              type: "object",
              additionalProperties: true,
              description:
                "the app's $auth fields, checked as on create; they replace the stored ones entirely",
            },
          },
        },
        response: oneAccount,
      },
    },
    async (request) => ({
      data: connectedAccountView(
        await updateConnectedAccount(context, request.account.id, request.params.id, request.body ?? {}),
      ),
    }),
  );

  app.delete<{ Params: { id: string }; Querystring: { force?: boolean } }>(
    "/connected_accounts/:id",
    {
      schema: {
        operationId: "deleteConnectedAccount",
        summary:
          "Delete a connected account; refused (409) while a source or workflow uses it, unless force=true",
        tags: ["connected accounts"],
        params: idParams,
        querystring: { type: "object", properties: { force: { type: "boolean", default: false } } },
        response: { 200: deletedResponse, 409: errorResponse, ...commonErrors },
      },
    },
    async (request) => ({
      data: {
        id: await deleteConnectedAccount(
          context,
          request.account.id,
          request.params.id,
          request.query.force === true,
        ),
        deleted: true,
      },
    }),
  );
}

/**
 * Connect tokens and apps: `POST /v1/connect/{project_id}/tokens` (server-side: a token for one end
 * user's browser, and the connect link URL), `GET /v1/connect/tokens/{ctok}/validate` (the connect
 * page's check of its token; the token in the path is the credential), and the project's apps,
 * `GET /v1/connect/apps` and `/v1/connect/apps/{app_id}`.
 */
import type { FastifyInstance } from "fastify";
import { connectAppView } from "../../../core/connect/accounts.js";
import { type AppListRequest, getConnectApp, listConnectApps } from "../../../core/connect/apps.js";
import {
  authenticateConnectToken,
  ConnectTokenError,
  type ConnectTokenInput,
  createConnectToken,
} from "../../../core/connect/connect-tokens.js";
import { getProject } from "../../../core/connect/projects.js";
import type { CoreContext } from "../../../core/context.js";
import { SluiceError } from "../../../core/errors.js";
import { requireServerSide, scopeOf } from "./connect-auth.js";
import {
  appSchema,
  connectErrors,
  connectPageQuery,
  externalUserId,
  pageOfItems,
  projectParams,
} from "./schemas.js";

/** Where the connect link page lives (Pipedream's path, so `frontendHost` may point at Sluice). */
export const CONNECT_PAGE_PATH = "/_static/connect.html";

export function tokenRoutes(app: FastifyInstance, context: CoreContext): void {
  const { db } = context.store;

  app.post<{ Params: { project_id: string }; Body: ConnectTokenInput }>(
    "/:project_id/tokens",
    {
      schema: {
        operationId: "createConnectToken",
        summary: "Create a short-lived connect token for one end user's browser, and its connect link URL",
        tags: ["connect"],
        params: projectParams,
        body: {
          type: "object",
          properties: {
            external_user_id: externalUserId,
            expires_in: {
              type: "integer",
              minimum: 1,
              maximum: 14400,
              description: "seconds; default 14400",
            },
            allowed_origins: { type: "array", items: { type: "string", maxLength: 500 }, maxItems: 50 },
            success_redirect_uri: { type: "string", maxLength: 2048 },
            error_redirect_uri: { type: "string", maxLength: 2048 },
            webhook_uri: { type: "string", maxLength: 2048 },
            scope: { type: "string", maxLength: 1000 },
            allow_progressive_scopes: { type: "boolean" },
          },
        },
        response: {
          200: {
            type: "object",
            properties: {
              token: { type: "string", description: "ctok_…" },
              expires_at: { type: "string", description: "ISO 8601" },
              connect_link_url: { type: "string" },
            },
          },
          ...connectErrors,
        },
      },
    },
    async (request) => {
      requireServerSide(request, "create connect tokens");
      const scope = await scopeOf(request, db);
      const issued = await createConnectToken(db, scope.project, scope.environment, request.body);
      const link = new URL(CONNECT_PAGE_PATH, `${context.baseUrl.replace(/\/+$/, "")}/`);
      link.searchParams.set("token", issued.token);
      link.searchParams.set("connectLink", "true");
      return {
        token: issued.token,
        expires_at: new Date(issued.expiresAt).toISOString(),
        connect_link_url: link.toString(),
      };
    },
  );

  app.get<{ Params: { ctok: string }; Querystring: { app_id?: string } }>(
    "/tokens/:ctok/validate",
    {
      config: { public: true },
      schema: {
        operationId: "validateConnectToken",
        summary:
          "Check a connect token (the connect page's first call); success false says why it cannot be used",
        tags: ["connect"],
        security: [],
        params: {
          type: "object",
          properties: { ctok: { type: "string", maxLength: 200 } },
          required: ["ctok"],
        },
        querystring: {
          type: "object",
          properties: {
            app_id: { type: "string", maxLength: 200 },
            oauth_app_id: { type: "string", maxLength: 200 },
            account_id: { type: "string", maxLength: 200 },
          },
        },
        response: {
          200: {
            type: "object",
            properties: {
              success: { type: "boolean" },
              error: { type: "string" },
              app: appSchema,
              project_id: { type: "string" },
              project_environment: { type: "string" },
              project_app_name: { type: ["string", "null"] },
              project_support_email: { type: ["string", "null"] },
              external_user_id: { type: "string" },
              expires_at: { type: "string" },
              success_redirect_uri: { type: ["string", "null"] },
              error_redirect_uri: { type: ["string", "null"] },
            },
          },
          ...connectErrors,
        },
      },
    },
    async (request) => {
      let grant: Awaited<ReturnType<typeof authenticateConnectToken>>;
      try {
        grant = await authenticateConnectToken(db, request.params.ctok);
      } catch (error) {
        if (error instanceof ConnectTokenError) return { success: false, error: error.message };
        throw error;
      }
      const project = await getProject(db, grant.ownerAccountId, grant.projectId);
      let app: ReturnType<typeof connectAppView> | undefined;
      if (request.query.app_id !== undefined && request.query.app_id !== "") {
        try {
          app = connectAppView(await getConnectApp(context, grant.ownerAccountId, request.query.app_id));
        } catch (error) {
          if (error instanceof SluiceError) return { success: false, error: error.message };
          throw error;
        }
      }
      return {
        success: true,
        ...(app === undefined ? {} : { app }),
        project_id: project.id,
        project_environment: grant.environment,
        project_app_name: project.appName ?? project.name,
        project_support_email: project.supportEmail,
        external_user_id: grant.endUser.externalUserId,
        expires_at: new Date(grant.expiresAt).toISOString(),
        success_redirect_uri: grant.successRedirectUri,
        error_redirect_uri: grant.errorRedirectUri,
      };
    },
  );

  app.get<{ Querystring: AppListRequest }>(
    "/apps",
    {
      schema: {
        operationId: "listConnectApps",
        summary: "List the apps of the caller's account: registered ones and those its components use",
        tags: ["connect"],
        querystring: {
          type: "object",
          properties: {
            ...connectPageQuery,
            q: { type: "string", maxLength: 200 },
            sort_key: { type: "string", enum: ["name", "name_slug", "featured_weight"] },
            sort_direction: { type: "string", enum: ["asc", "desc"] },
            category_ids: {},
            has_components: { type: "boolean" },
            has_actions: { type: "boolean" },
            has_triggers: { type: "boolean" },
          },
        },
        response: { 200: pageOfItems(appSchema), ...connectErrors },
      },
    },
    async (request) => {
      const page = await listConnectApps(context, request.connect.account.id, request.query);
      return { data: page.items.map(connectAppView), page_info: page.pageInfo };
    },
  );

  app.get<{ Params: { app_id: string } }>(
    "/apps/:app_id",
    {
      schema: {
        operationId: "getConnectApp",
        summary: "Read an app by name slug (an app nobody registered is an open keys app)",
        tags: ["connect"],
        params: {
          type: "object",
          properties: { app_id: { type: "string", maxLength: 200 } },
          required: ["app_id"],
        },
        response: { 200: { type: "object", properties: { data: appSchema } }, ...connectErrors },
      },
    },
    async (request) => ({
      data: connectAppView(await getConnectApp(context, request.connect.account.id, request.params.app_id)),
    }),
  );
}

/**
 * Connect tokens: `POST /v1/connect/{project_id}/tokens` (server-side: a token for one end user's
 * browser, and the connect link URL) and `GET /v1/connect/tokens/{ctok}/validate` (the connect
 * page's check of its token; the token in the path is the credential).
 */
import type { FastifyInstance } from "fastify";
import { getConnectApp } from "../../../core/connect/apps.js";
import {
  authenticateConnectToken,
  ConnectTokenError,
  type ConnectTokenInput,
  createConnectToken,
} from "../../../core/connect/connect-tokens.js";
import { getProject } from "../../../core/connect/projects.js";
import type { CoreContext } from "../../../core/context.js";
import { SluiceError } from "../../../core/errors.js";
import { pathParams } from "../../schemas.js";
import { connectAppView } from "../../views/connect.js";
import { routeGroup } from "../route-group.js";
import { requireServerSide, scopeOf } from "./connect-auth.js";
import { appSchema, connectSchema, externalUserId, projectParams } from "./schemas.js";

/** Where the connect link page lives (Pipedream's path, so `frontendHost` may point at Sluice). */
export const CONNECT_PAGE_PATH = "/_static/connect.html";

const tokenInput = {
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
} as const;

const issuedToken = {
  type: "object",
  properties: {
    token: { type: "string", description: "ctok_…" },
    expires_at: { type: "string", description: "ISO 8601" },
    connect_link_url: { type: "string" },
  },
} as const;

const tokenCheck = {
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
} as const;

/** The connect token routes: creating one (server-side) and the connect page's check of it. */
export function tokenRoutes(app: FastifyInstance, context: CoreContext): void {
  const route = routeGroup(app, connectSchema);
  const { db } = context.store;

  route.post<{ Params: { project_id: string }; Body: ConnectTokenInput }>("/:project_id/tokens", {
    operationId: "createConnectToken",
    summary: "Create a short-lived connect token for one end user's browser, and its connect link URL",
    params: projectParams,
    body: tokenInput,
    response: { 200: issuedToken },
    handler: async (request) => {
      requireServerSide(request, "create connect tokens");
      const scope = await scopeOf(request, db);
      const issued = await createConnectToken(context.store, scope.project, scope.environment, request.body);
      const link = new URL(CONNECT_PAGE_PATH, `${context.baseUrl.replace(/\/+$/, "")}/`);
      link.searchParams.set("token", issued.token);
      link.searchParams.set("connectLink", "true");
      return {
        token: issued.token,
        expires_at: new Date(issued.expiresAt).toISOString(),
        connect_link_url: link.toString(),
      };
    },
  });

  route.get<{ Params: { ctok: string }; Querystring: { app_id?: string } }>("/tokens/:ctok/validate", {
    operationId: "validateConnectToken",
    summary:
      "Check a connect token (the connect page's first call); success false says why it cannot be used",
    security: [],
    params: pathParams({ ctok: { type: "string", maxLength: 200 } }),
    querystring: {
      type: "object",
      properties: {
        app_id: { type: "string", maxLength: 200 },
        oauth_app_id: { type: "string", maxLength: 200 },
        account_id: { type: "string", maxLength: 200 },
      },
    },
    response: { 200: tokenCheck },
    config: { public: true },
    handler: async (request) => checkToken(context, request.params.ctok, request.query.app_id),
  });
}

/** The validate answer: the token's project and end user, or success false with why it cannot be used. */
async function checkToken(context: CoreContext, ctok: string, appId: string | undefined) {
  const { db } = context.store;
  let grant: Awaited<ReturnType<typeof authenticateConnectToken>>;
  try {
    grant = await authenticateConnectToken(db, ctok);
  } catch (error) {
    if (error instanceof ConnectTokenError) return { success: false, error: error.message };
    throw error;
  }
  const project = await getProject(db, grant.ownerAccountId, grant.projectId);
  let app: ReturnType<typeof connectAppView> | undefined;
  if (appId !== undefined && appId !== "") {
    try {
      app = connectAppView(await getConnectApp(context, grant.ownerAccountId, appId));
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
}

/**
 * Connecting an OAuth app over REST: start (the authorize URL to open), follow the attempt, and the
 * provider's callback (public: the browser arrives from the provider, and the single-use state is
 * what ties it to the account). The flow itself is core/apps/oauth-connections.ts.
 */

import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import {
  completeOAuthConnection,
  getOAuthConnection,
  OAUTH_CALLBACK_PATH,
  type OAuthCallbackQuery,
  type OAuthStartInput,
  startOAuthConnection,
} from "../../core/apps/oauth-connections.js";
import type { CoreContext } from "../../core/context.js";
import { callbackPage } from "../oauth-callback-page.js";
import { sendError } from "../plugins/errors.js";
import { dataOf, errorResponse, idParams } from "../schemas.js";
import { oauthConnectionView } from "../views/apps.js";
import { routeGroup } from "./route-group.js";

const connectionSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "oac_…" },
    app: { type: "string" },
    status: { type: "string", enum: ["pending", "connected", "failed", "expired"] },
    connected_account_id: {
      type: ["string", "null"],
      description: "the apn_ id, once connected (Pipedream's authProvisionId)",
    },
    error: { type: ["string", "null"] },
    expires_at: { type: "string", description: "when the authorize URL stops working" },
    created_at: { type: "string" },
  },
} as const;

/** The callback answers a browser (Accept: text/html) with a page, any other client with JSON. */
const callbackAnswer = (description: string, json: object) => ({
  description,
  content: { "text/html": { schema: { type: "string" } }, "application/json": { schema: json } },
});

const connectedAnswer = dataOf({
  type: "object",
  properties: {
    id: { type: "string" },
    app: { type: "string" },
    connected_account_id: { type: "string" },
  },
});

const startInput = {
  type: "object",
  properties: {
    app: { type: "string", description: "the OAuth app's name slug" },
    name: { type: "string", description: "a name for the connected account" },
    fields: {
      type: "object",
      additionalProperties: true,
      description: "the app's custom fields, beside its tokens",
    },
    connected_account_id: {
      type: "string",
      description: "reconnect this connected account (apn_…) instead of creating one",
    },
  },
  required: ["app"],
} as const;

const startedAnswer = dataOf({
  type: "object",
  properties: {
    ...connectionSchema.properties,
    authorize_url: {
      type: "string",
      description: "open it in a browser; it works once, until expires_at",
    },
    redirect_uri: {
      type: "string",
      description: "the callback URL the provider must have registered for the client",
    },
  },
});

export function oauthConnectionRoutes(app: FastifyInstance, context: CoreContext): void {
  const route = routeGroup(app, "connected accounts");
  route.post<{ Body: OAuthStartInput }>("/connected_accounts/oauth", {
    operationId: "startOAuthConnection",
    summary: "Start connecting an account of an OAuth app: returns the provider's authorize URL to open",
    body: startInput,
    response: { 200: startedAnswer },
    handler: async (request) => {
      const started = await startOAuthConnection(context, request.account.id, request.body);
      return {
        data: {
          ...oauthConnectionView(started.connection),
          authorize_url: started.authorizeUrl,
          redirect_uri: started.redirectUri,
        },
      };
    },
  });

  app.get<{ Querystring: OAuthCallbackQuery }>(
    OAUTH_CALLBACK_PATH.replace(/^\/v1/, ""),
    {
      config: { public: true },
      schema: {
        operationId: "completeOAuthConnection",
        summary:
          "The OAuth callback (redirect_uri): exchanges the code, stores the tokens sealed, and shows a page that posts {type, authProvisionId} to its opener",
        tags: ["connected accounts"],
        security: [],
        querystring: {
          type: "object",
          properties: {
            state: { type: "string" },
            code: { type: "string" },
            error: { type: "string" },
            error_description: { type: "string" },
          },
        },
        response: {
          200: callbackAnswer(
            "Connected: the page posts {type: 'success', authProvisionId} to its opener",
            connectedAnswer,
          ),
          400: callbackAnswer(
            "A bad, used or expired state, or the provider refused: the page posts {type: 'error', error: {code, message}}",
            errorResponse,
          ),
          502: callbackAnswer(
            "The provider's token or user-info URL failed; nothing was stored",
            errorResponse,
          ),
        },
      },
    },
    async (request, reply) => answerCallback(context, request, reply),
  );

  route.get<{ Params: { id: string } }>("/connected_accounts/oauth/:id", {
    operationId: "getOAuthConnection",
    summary: "Follow an OAuth connection: pending, connected (with its apn_ id), failed or expired",
    params: idParams,
    response: { 200: dataOf(connectionSchema), 404: errorResponse },
    handler: async (request) => ({
      data: oauthConnectionView(await getOAuthConnection(context, request.account.id, request.params.id)),
    }),
  });
}

/** The callback's answer: a page for the browser that opened it, JSON for any other caller. */
async function answerCallback(
  context: CoreContext,
  request: FastifyRequest<{ Querystring: OAuthCallbackQuery }>,
  reply: FastifyReply,
) {
  const outcome = await completeOAuthConnection(context, request.query);
  const page = callbackPage(outcome);
  if (!/\btext\/html\b/.test(request.headers.accept ?? "")) {
    if (!outcome.ok) return sendError(reply, page.status, outcome.code, outcome.message);
    return {
      data: {
        id: outcome.connection.id,
        app: outcome.app,
        connected_account_id: outcome.connectedAccountId,
      },
    };
  }
  return reply
    .status(page.status)
    .header("content-security-policy", page.contentSecurityPolicy)
    .header("cache-control", "no-store")
    .header("referrer-policy", "no-referrer")
    .type("text/html; charset=utf-8")
    .send(page.html);
}

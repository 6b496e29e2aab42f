/**
 * `POST …/accounts/oauth`: the connect link page's start of an OAuth app's authorization flow for
 * the connect token's end user (Sluice's route: Pipedream's page does this internally). It answers
 * the provider's authorize URL for the page to open in a popup; the provider sends the browser to
 * Sluice's OAuth callback, whose page posts `{type: "success", authProvisionId}` back to the link
 * page. The token is spent by the callback, when the account is connected.
 */
import type { FastifyInstance } from "fastify";
import {
  type ConnectOAuthInput,
  requestOrigin,
  startConnectOAuth,
} from "../../../core/connect/oauth-accounts.js";
import type { CoreContext } from "../../../core/context.js";
import { routeGroup } from "../route-group.js";
import { connectTokenGrantOf, scopeOf } from "./connect-auth.js";
import type { ConnectMount } from "./mount.js";
import { externalUserId } from "./schemas.js";

export function oauthAccountRoutes(
  app: FastifyInstance,
  context: CoreContext,
  { base, schema }: ConnectMount,
): void {
  const route = routeGroup(app, schema);
  const { db } = context.store;
  route.post<{ Body: ConnectOAuthInput & { connect_token?: unknown; external_user_id?: unknown } }>(
    `${base}/accounts/oauth`,
    {
      operationId: "startConnectOAuth",
      summary:
        "Start connecting an OAuth app for the end user of a connect token (what the connect link page does): returns the provider's authorize URL",
      body: {
        type: "object",
        properties: {
          app_slug: { type: "string", maxLength: 200 },
          cfmap_json: {
            type: "string",
            maxLength: 200_000,
            description: "JSON of the app's custom fields, beside its tokens",
          },
          connect_token: { type: "string", maxLength: 200 },
          external_user_id: externalUserId,
          name: { type: "string", maxLength: 200 },
          account_id: { type: "string", maxLength: 200, description: "apn_… to reconnect" },
        },
        required: ["app_slug"],
      },
      response: {
        200: {
          type: "object",
          properties: {
            authorize_url: {
              type: "string",
              description: "open it in a popup from the connect link page; it works once, until expires_at",
            },
            redirect_uri: {
              type: "string",
              description: "Sluice's callback: its page posts the result to the origin that started the flow",
            },
            expires_at: { type: "string", description: "ISO 8601; never after the connect token's" },
          },
        },
      },
      handler: async (request) => {
        const scope = await scopeOf(request, db);
        const grant = await connectTokenGrantOf(db, request.connect.grant, scope, request.body);
        // The page's origin passed the connect token's allowed origins (connect-auth.ts).
        const opener = requestOrigin(request.headers.origin);
        const started = await startConnectOAuth(context, scope.project, grant, request.body, opener);
        return {
          authorize_url: started.authorizeUrl,
          redirect_uri: started.redirectUri,
          expires_at: new Date(started.expiresAt).toISOString(),
        };
      },
    },
  );
}

/**
 * `POST /v1/oauth/token` (Pipedream's client-credentials grant; public, the client's secret is the
 * credential) and `/v1/oauth_clients`, where an account makes and revokes its OAuth clients with
 * its API key. A client's secret is in the create answer only.
 */

import type { FastifyInstance } from "fastify";
import {
  createOAuthClient,
  issueAccessToken,
  listOAuthClients,
  revokeOAuthClient,
  type TokenRequest,
} from "../../../core/connect/oauth-clients.js";
import type { Executor } from "../../../store/schema.js";
import { dataOf, deletedAnswer, deletedResponse, errorResponse, idParams, listOf } from "../../schemas.js";
import { oauthClientView } from "../../views/connect.js";
import { routeGroup } from "../route-group.js";

const clientSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "ocl_…, the client_id" },
    client_id: { type: "string" },
    name: { type: ["string", "null"] },
    created_at: { type: "string" },
    last_used_at: { type: ["string", "null"] },
  },
} as const;

export function oauthRoutes(app: FastifyInstance, db: Executor, accessTokenSeconds: number): void {
  const route = routeGroup(app, "connect");
  app.post<{ Body: TokenRequest }>(
    "/oauth/token",
    {
      config: { public: true },
      schema: {
        operationId: "createOAuthToken",
        summary: "Exchange an OAuth client's id and secret for an hour's access token (client credentials)",
        tags: ["connect"],
        security: [],
        body: {
          type: "object",
          properties: {
            grant_type: { type: "string", enum: ["client_credentials"] },
            client_id: { type: "string", maxLength: 200 },
            client_secret: { type: "string", maxLength: 200 },
            scope: { type: "string", maxLength: 1000 },
          },
          required: ["client_id", "client_secret"],
        },
        response: {
          200: {
            type: "object",
            properties: {
              access_token: { type: "string" },
              token_type: { type: "string", enum: ["Bearer"] },
              expires_in: { type: "integer", description: "seconds" },
              scope: { type: "string" },
            },
          },
          400: errorResponse,
          401: errorResponse,
          429: errorResponse,
        },
      },
    },
    async (request) => {
      const issued = await issueAccessToken(db, request.body, accessTokenSeconds);
      return {
        access_token: issued.accessToken,
        token_type: "Bearer",
        expires_in: issued.expiresIn,
        scope: issued.scope,
      };
    },
  );

  route.post<{ Body: { name?: unknown } }>("/oauth_clients", {
    operationId: "createOAuthClient",
    summary: "Create an OAuth client of this account; its client_secret is shown only in this answer",
    body: { type: "object", properties: { name: { type: "string", maxLength: 200 } } },
    response: {
      200: dataOf({
        type: "object",
        properties: { ...clientSchema.properties, client_secret: { type: "string" } },
      }),
    },
    handler: async (request) => {
      const { client, secret } = await createOAuthClient(db, request.account.id, request.body);
      return { data: { ...oauthClientView(client), client_secret: secret } };
    },
  });

  route.get("/oauth_clients", {
    operationId: "listOAuthClients",
    summary: "List the account's OAuth clients (never their secrets)",
    response: { 200: listOf(clientSchema) },
    handler: async (request) => ({
      data: (await listOAuthClients(db, request.account.id)).map(oauthClientView),
    }),
  });

  route.delete<{ Params: { id: string } }>("/oauth_clients/:id", {
    operationId: "revokeOAuthClient",
    summary: "Revoke an OAuth client: its secret and access tokens stop working at once",
    params: idParams,
    response: { 200: deletedResponse },
    handler: async (request) =>
      deletedAnswer(await revokeOAuthClient(db, request.account.id, request.params.id)),
  });
}

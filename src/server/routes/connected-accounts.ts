/**
 * /v1/connected_accounts (`apn_…`): an account's credentials for one app. Credentials are sealed
 * at rest and never in a response.
 */

import type { FastifyInstance } from "fastify";
import {
  type ConnectedAccountInput,
  type ConnectedAccountUpdate,
  createConnectedAccount,
  deleteConnectedAccount,
  getConnectedAccount,
  listConnectedAccounts,
  updateConnectedAccount,
} from "../../core/apps/connected-accounts.js";
import type { CoreContext } from "../../core/context.js";
import type { PageRequest } from "../../core/pagination.js";
import {
  dataOf,
  deletedAnswer,
  deletedResponse,
  errorResponse,
  idParams,
  pageAnswer,
  pageOf,
  pageQueryWith,
} from "../schemas.js";
import { connectedAccountView } from "../views/apps.js";
import { routeGroup, type TaggedRoutes } from "./route-group.js";

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

const oneAccount = { 200: dataOf(connectedAccountSchema) } as const;

/** Registers /v1/connected_accounts: connecting and reading accounts, then changing them. */
export function connectedAccountRoutes(app: FastifyInstance, context: CoreContext): void {
  const route = routeGroup(app, "connected accounts");
  accountConnectRoutes(route, context);
  accountChangeRoutes(route, context);
}

/** Connecting a keys app's account, listing the account's and reading one. */
function accountConnectRoutes(route: TaggedRoutes, context: CoreContext): void {
  route.post<{ Body: ConnectedAccountInput }>("/connected_accounts", {
    operationId: "createConnectedAccount",
    summary:
      "Connect an account of a keys app: its fields are sealed at rest, never returned (OAuth apps: POST /v1/connected_accounts/oauth)",
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
    handler: async (request) => ({
      data: connectedAccountView(await createConnectedAccount(context, request.account.id, request.body)),
    }),
  });

  route.get<{ Querystring: PageRequest & { app?: string } }>("/connected_accounts", {
    operationId: "listConnectedAccounts",
    summary: "List the account's connected accounts, newest first",
    querystring: pageQueryWith({ app: { type: "string", maxLength: 200 } }),
    response: { 200: pageOf(connectedAccountSchema) },
    handler: async (request) =>
      pageAnswer(
        await listConnectedAccounts(context, request.account.id, request.query),
        connectedAccountView,
      ),
  });

  route.get<{ Params: { id: string } }>("/connected_accounts/:id", {
    operationId: "getConnectedAccount",
    summary: "Read a connected account (never its credentials)",
    params: idParams,
    response: oneAccount,
    handler: async (request) => ({
      data: connectedAccountView(await getConnectedAccount(context, request.account.id, request.params.id)),
    }),
  });
}

/** Renaming or reconnecting an account, and deleting it. */
function accountChangeRoutes(route: TaggedRoutes, context: CoreContext): void {
  route.patch<{ Params: { id: string }; Body: ConnectedAccountUpdate }>("/connected_accounts/:id", {
    operationId: "updateConnectedAccount",
    summary:
      "Rename a connected account, or reconnect a keys account by replacing its fields (sealed at rest, never returned; it becomes healthy). OAuth accounts reconnect with POST /v1/connected_accounts/oauth and connected_account_id",
    params: idParams,
    body: {
      type: "object",
      properties: {
        name: { type: "string" },
        fields: {
          type: "object",
          additionalProperties: true,
          description: "the app's $auth fields, checked as on create; they replace the stored ones entirely",
        },
      },
    },
    response: oneAccount,
    handler: async (request) => ({
      data: connectedAccountView(
        await updateConnectedAccount(context, request.account.id, request.params.id, request.body ?? {}),
      ),
    }),
  });

  route.delete<{ Params: { id: string }; Querystring: { force?: boolean } }>("/connected_accounts/:id", {
    operationId: "deleteConnectedAccount",
    summary:
      "Delete a connected account; refused (409) while a source or workflow uses it, unless force=true",
    params: idParams,
    querystring: { type: "object", properties: { force: { type: "boolean", default: false } } },
    response: { 200: deletedResponse, 409: errorResponse },
    handler: async (request) =>
      deletedAnswer(
        await deleteConnectedAccount(
          context,
          request.account.id,
          request.params.id,
          request.query.force === true,
        ),
      ),
  });
}

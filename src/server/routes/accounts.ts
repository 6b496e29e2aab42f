/** /v1/users/me, /v1/accounts (admin) and /v1/api_keys: who the caller is and the keys it holds. */
import type { FastifyInstance } from "fastify";
import {
  type Account,
  type ApiKey,
  createAccount,
  createApiKey,
  listApiKeys,
  revokeApiKey,
} from "../../core/accounts/accounts.js";
import type { Store } from "../../store/store.js";
import { requireAdmin } from "../plugins/auth.js";
import {
  dataOf,
  deletedAnswer,
  deletedResponse,
  epochSeconds,
  errorResponse,
  idParams,
  listOf,
} from "../schemas.js";
import { routeGroup } from "./route-group.js";

export const accountSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "u_…" },
    username: { type: "string" },
    name: { type: "string" },
    is_admin: { type: "boolean" },
    created_at: { type: "integer", description: "epoch seconds" },
  },
} as const;

const apiKeyProperties = {
  id: { type: "string", description: "key_…" },
  name: { type: ["string", "null"] },
  prefix: { type: "string", description: "the key's first characters" },
  created_at: { type: "integer" },
  last_used_at: { type: ["integer", "null"] },
} as const;

export function accountView(account: Account) {
  return {
    id: account.id,
    username: account.name,
    name: account.name,
    is_admin: account.isAdmin,
    created_at: epochSeconds(account.createdAt),
  };
}

function apiKeyView(key: ApiKey) {
  return {
    id: key.id,
    name: key.name,
    prefix: key.prefix,
    created_at: epochSeconds(key.createdAt),
    last_used_at: key.lastUsedAt === null ? null : epochSeconds(key.lastUsedAt),
  };
}

export function accountRoutes(app: FastifyInstance, store: Pick<Store, "db" | "transaction" | "dbIn">): void {
  const { db } = store;
  const route = routeGroup(app, "accounts");
  route.get("/users/me", {
    operationId: "getCurrentUser",
    summary: "The account of the API key",
    response: { 200: dataOf(accountSchema) },
    handler: async (request) => ({ data: accountView(request.account) }),
  });

  route.post<{ Body: { name?: unknown } }>("/accounts", {
    operationId: "createAccount",
    summary: "Create an account (admin keys only); returns its first API key, once",
    body: { type: "object", properties: { name: { type: "string" } } },
    response: {
      200: dataOf({
        type: "object",
        properties: { id: { type: "string" }, name: { type: "string" }, api_key: { type: "string" } },
      }),
      403: errorResponse,
    },
    handler: async (request) => {
      requireAdmin(request);
      const { account, apiKey } = await createAccount(store, { name: request.body.name });
      return { data: { id: account.id, name: account.name, api_key: apiKey } };
    },
  });

  route.post<{ Body: { name?: unknown } }>("/api_keys", {
    operationId: "createApiKey",
    summary: "Create another API key for the caller's account; the key is returned once",
    body: { type: "object", properties: { name: { type: "string" } } },
    response: {
      200: dataOf({ type: "object", properties: { ...apiKeyProperties, api_key: { type: "string" } } }),
    },
    handler: async (request) => {
      const { key, apiKey } = await createApiKey(db, request.account.id, request.body);
      return { data: { ...apiKeyView(key), api_key: apiKey } };
    },
  });

  route.get("/api_keys", {
    operationId: "listApiKeys",
    summary: "List the account's active API keys (never the keys themselves)",
    response: {
      200: listOf({ type: "object", properties: apiKeyProperties }),
    },
    handler: async (request) => ({ data: (await listApiKeys(db, request.account.id)).map(apiKeyView) }),
  });

  route.delete<{ Params: { id: string } }>("/api_keys/:id", {
    operationId: "revokeApiKey",
    summary: "Revoke an API key; from then on it is refused with 401",
    params: idParams,
    response: { 200: deletedResponse, 409: errorResponse },
    handler: async (request) => {
      await revokeApiKey(store, request.account.id, request.params.id);
      return deletedAnswer(request.params.id);
    },
  });
}

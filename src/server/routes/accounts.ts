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
  operationsOf,
} from "../schemas.js";

const operation = operationsOf("accounts");

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
  app.get(
    "/users/me",
    {
      schema: operation({
        operationId: "getCurrentUser",
        summary: "The account of the API key",
        response: { 200: dataOf(accountSchema) },
      }),
    },
    async (request) => ({ data: accountView(request.account) }),
  );

  app.post<{ Body: { name?: unknown } }>(
    "/accounts",
    {
      schema: operation({
        operationId: "createAccount",
        summary: "Create an account (admin keys only); returns its first API key, once",
        body: { type: "object", properties: { name: { type: "string" } } },
        response: {
          200: {
            type: "object",
            properties: {
              data: {
                type: "object",
                properties: { id: { type: "string" }, name: { type: "string" }, api_key: { type: "string" } },
              },
            },
          },
          403: errorResponse,
        },
      }),
    },
    async (request) => {
      requireAdmin(request);
      const { account, apiKey } = await createAccount(store, { name: request.body.name });
      return { data: { id: account.id, name: account.name, api_key: apiKey } };
    },
  );

  app.post<{ Body: { name?: unknown } }>(
    "/api_keys",
    {
      schema: operation({
        operationId: "createApiKey",
        summary: "Create another API key for the caller's account; the key is returned once",
        body: { type: "object", properties: { name: { type: "string" } } },
        response: {
          200: {
            type: "object",
            properties: {
              data: { type: "object", properties: { ...apiKeyProperties, api_key: { type: "string" } } },
            },
          },
        },
      }),
    },
    async (request) => {
      const { key, apiKey } = await createApiKey(db, request.account.id, request.body);
      return { data: { ...apiKeyView(key), api_key: apiKey } };
    },
  );

  app.get(
    "/api_keys",
    {
      schema: operation({
        operationId: "listApiKeys",
        summary: "List the account's active API keys (never the keys themselves)",
        response: {
          200: {
            type: "object",
            properties: { data: { type: "array", items: { type: "object", properties: apiKeyProperties } } },
          },
        },
      }),
    },
    async (request) => ({ data: (await listApiKeys(db, request.account.id)).map(apiKeyView) }),
  );

  app.delete<{ Params: { id: string } }>(
    "/api_keys/:id",
    {
      schema: operation({
        operationId: "revokeApiKey",
        summary: "Revoke an API key; from then on it is refused with 401",
        params: idParams,
        response: { 200: deletedResponse, 409: errorResponse },
      }),
    },
    async (request) => {
      await revokeApiKey(store, request.account.id, request.params.id);
      return deletedAnswer(request.params.id);
    },
  );
}

/** /v1/webhooks: create, list, read and delete the account's webhooks. */
import type { FastifyInstance } from "fastify";
import {
  createWebhook,
  deleteWebhook,
  getWebhook,
  listWebhooks,
  rotateSigningSecret,
  updateWebhook,
  type Webhook,
} from "../../core/delivery/webhooks.js";
import type { PageRequest } from "../../core/pagination.js";
import type { SecretBox } from "../../core/secret-box.js";
import type { Store } from "../../store/store.js";
import {
  dataOf,
  deletedAnswer,
  deletedResponse,
  epochSeconds,
  idParams,
  pageAnswer,
  pageOf,
  pageQuery,
} from "../schemas.js";
import { routeGroup, type TaggedRoutes } from "./route-group.js";

const webhookProperties = {
  id: { type: "string", description: "wh_…" },
  url: { type: "string" },
  name: { type: "string" },
  description: { type: "string" },
  active: { type: "boolean" },
  rate_limit: { type: ["integer", "null"], description: "deliveries per second at most" },
  disabled_reason: { type: ["string", "null"], description: "why Sluice disabled it" },
  created_at: { type: "integer", description: "epoch seconds" },
  updated_at: { type: "integer", description: "epoch seconds" },
} as const;

const webhookSchema = { type: "object", properties: webhookProperties } as const;

const createdWebhookSchema = {
  type: "object",
  properties: {
    ...webhookProperties,
    signing_secret: { type: "string", description: "whsec_…; returned by this call only" },
  },
} as const;

interface WebhookParams {
  url?: unknown;
  name?: unknown;
  description?: unknown;
  rate_limit?: unknown;
  active?: unknown;
}

export function webhookView(webhook: Webhook) {
  return {
    id: webhook.id,
    url: webhook.url,
    name: webhook.name,
    description: webhook.description,
    active: webhook.active,
    rate_limit: webhook.rateLimit,
    disabled_reason: webhook.disabledReason,
    created_at: epochSeconds(webhook.createdAt),
    updated_at: epochSeconds(webhook.updatedAt),
  };
}

/** Registers /v1/webhooks: creating and reading, then changing and deleting. */
export function webhookRoutes(
  app: FastifyInstance,
  store: Pick<Store, "db" | "capabilities" | "transaction" | "dbIn">,
  secrets: SecretBox,
): void {
  const route = routeGroup(app, "webhooks");
  webhookReadRoutes(route, store, secrets);
  webhookChangeRoutes(route, store, secrets);
}

/** Creating a webhook, listing the account's and reading one. */
function webhookReadRoutes(
  route: TaggedRoutes,
  store: Pick<Store, "db" | "capabilities">,
  secrets: SecretBox,
): void {
  const { db } = store;
  route.post<{ Body: WebhookParams }>("/webhooks", {
    operationId: "createWebhook",
    summary: "Create a webhook",
    body: {
      type: "object",
      properties: {
        url: { type: "string", description: "http(s) URL, at most 2,048 characters" },
        name: { type: "string" },
        description: { type: "string" },
        rate_limit: { type: ["integer", "null"], description: "deliveries per second at most" },
      },
    },
    response: { 200: dataOf(createdWebhookSchema) },
    handler: async (request) => {
      const { webhook, signingSecret } = await createWebhook(db, secrets, request.account.id, request.body);
      return { data: { ...webhookView(webhook), signing_secret: signingSecret } };
    },
  });

  route.get<{ Querystring: PageRequest }>("/users/me/webhooks", {
    operationId: "listWebhooks",
    summary: "List the account's webhooks, newest first",
    querystring: pageQuery,
    response: { 200: pageOf(webhookSchema) },
    handler: async (request) =>
      pageAnswer(await listWebhooks(db, request.account.id, request.query), webhookView),
  });

  route.get<{ Params: { id: string } }>("/webhooks/:id", {
    operationId: "getWebhook",
    summary: "Read a webhook",
    params: idParams,
    response: { 200: dataOf(webhookSchema) },
    handler: async (request) => ({
      data: webhookView(await getWebhook(db, request.account.id, request.params.id)),
    }),
  });
}

/** Updating a webhook, rotating its signing secret and deleting it. */
function webhookChangeRoutes(
  route: TaggedRoutes,
  store: Pick<Store, "db" | "capabilities" | "transaction" | "dbIn">,
  secrets: SecretBox,
): void {
  const { db } = store;
  route.put<{ Params: { id: string }; Body: WebhookParams }>("/webhooks/:id", {
    operationId: "updateWebhook",
    summary: "Change a webhook: active (true re-enables it), name, description, url, rate_limit",
    params: idParams,
    body: {
      type: "object",
      properties: {
        url: { type: "string" },
        name: { type: "string" },
        description: { type: "string" },
        rate_limit: { type: ["integer", "null"] },
        active: { type: "boolean" },
      },
    },
    response: { 200: dataOf(webhookSchema) },
    handler: async (request) => ({
      data: webhookView(await updateWebhook(db, request.account.id, request.params.id, request.body)),
    }),
  });

  route.post<{ Params: { id: string } }>("/webhooks/:id/rotate_secret", {
    operationId: "rotateWebhookSecret",
    summary: "Give the webhook a new signing secret; for 24 h deliveries carry both signatures",
    params: idParams,
    body: { type: "object" },
    response: { 200: dataOf(createdWebhookSchema) },
    handler: async (request) => {
      const { webhook, signingSecret } = await rotateSigningSecret(
        db,
        secrets,
        request.account.id,
        request.params.id,
      );
      return { data: { ...webhookView(webhook), signing_secret: signingSecret } };
    },
  });

  route.delete<{ Params: { id: string } }>("/webhooks/:id", {
    operationId: "deleteWebhook",
    summary: "Delete a webhook",
    params: idParams,
    response: { 200: deletedResponse },
    handler: async (request) => {
      await deleteWebhook(store, request.account.id, request.params.id);
      return deletedAnswer(request.params.id);
    },
  });
}

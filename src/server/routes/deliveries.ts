/** Deliveries: a webhook's delivery log, one delivery with its attempts, resending. */

import type { FastifyInstance } from "fastify";
import {
  getDelivery,
  listDeliveries,
  recoverWebhook,
  retryDelivery,
} from "../../core/delivery/deliveries.js";
import { InvalidInputError } from "../../core/errors.js";
import type { PageRequest } from "../../core/pagination.js";
import type { Store } from "../../store/store.js";
import { dataOf, errorResponse, idParams, pageAnswer, pageOf, pageQuery } from "../schemas.js";
import { attemptView, deliveryView } from "../views/deliveries.js";
import { routeGroup } from "./route-group.js";

const nullableNumber = { type: ["number", "null"] } as const;
const nullableString = { type: ["string", "null"] } as const;

const deliverySchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    id: { type: "string", description: "dlv_…" },
    webhook_id: { type: "string" },
    emitter_id: { type: "string" },
    event_id: { type: "string" },
    channel: nullableString,
    status: { type: "string", enum: ["pending", "delivered", "failed"] },
    attempts: { type: "number" },
    last_status_code: nullableNumber,
    last_latency_ms: nullableNumber,
    last_error: nullableString,
    next_attempt_at: { ...nullableNumber, description: "epoch seconds of the next automatic attempt" },
    created_at: { type: "number", description: "epoch seconds" },
    updated_at: { type: "number", description: "epoch seconds" },
  },
} as const;

const attemptSchema = {
  type: "object",
  properties: {
    attempt: { type: "number" },
    at: { type: "number", description: "epoch seconds" },
    status_code: { ...nullableNumber, description: "null when no HTTP answer came" },
    latency_ms: nullableNumber,
    error: nullableString,
    response_body: { ...nullableString, description: "the start of the receiver's answer (at most 1 KB)" },
  },
} as const;

const deliveryWithAttempts = {
  ...deliverySchema,
  properties: { ...deliverySchema.properties, attempt_log: { type: "array", items: attemptSchema } },
} as const;

export function deliveryRoutes(app: FastifyInstance, store: Store): void {
  const route = routeGroup(app, "deliveries");
  route.get<{ Params: { id: string }; Querystring: PageRequest & { status?: string } }>(
    "/webhooks/:id/deliveries",
    {
      operationId: "listWebhookDeliveries",
      summary:
        "A webhook's deliveries, newest first: status, attempts, last status code, latency, error, next attempt",
      params: idParams,
      querystring: {
        type: "object",
        properties: {
          ...pageQuery.properties,
          status: { type: "string", enum: ["pending", "delivered", "failed"] },
        },
      },
      response: { 200: pageOf(deliverySchema) },
      handler: async (request) =>
        pageAnswer(
          await listDeliveries(store.db, request.account.id, request.params.id, request.query),
          deliveryView,
        ),
    },
  );

  route.get<{ Params: { id: string } }>("/deliveries/:id", {
    operationId: "getDelivery",
    summary: "One delivery with its attempts",
    params: idParams,
    response: { 200: dataOf(deliveryWithAttempts) },
    handler: async (request) => {
      const { delivery, attempts } = await getDelivery(store.db, request.account.id, request.params.id);
      return { data: { ...deliveryView(delivery), attempt_log: attempts.map(attemptView) } };
    },
  });

  route.post<{ Params: { id: string } }>("/deliveries/:id/retry", {
    operationId: "retryDelivery",
    summary: "Send a delivered or failed delivery again now",
    params: idParams,
    body: { type: "object" },
    response: { 200: dataOf(deliverySchema), 409: errorResponse },
    handler: async (request) => ({
      data: deliveryView(await retryDelivery(store, request.account.id, request.params.id)),
    }),
  });

  route.post<{ Params: { id: string }; Body: { since?: string } }>("/webhooks/:id/recover", {
    operationId: "recoverWebhookDeliveries",
    summary: "Resend every failed delivery of the webhook created since a time (epoch seconds or ISO 8601)",
    params: idParams,
    body: {
      type: "object",
      properties: { since: { type: "string", description: "epoch seconds or ISO 8601" } },
    },
    response: {
      200: dataOf({ type: "object", properties: { resent: { type: "integer" } } }),
    },
    handler: async (request) => {
      const since = parseSince(request.body.since);
      return { data: { resent: await recoverWebhook(store, request.account.id, request.params.id, since) } };
    },
  });
}

/** `since` as epoch ms: epoch seconds, or an ISO 8601 date or time (UTC unless it has an offset). */
function parseSince(value: string | undefined): number {
  const hint = "epoch seconds or an ISO 8601 time, such as 2026-11-21T00:00:00Z";
  if (value === undefined || value.trim() === "") throw new InvalidInputError(`since is required: ${hint}`);
  const text = value.trim();
  if (/^\d{1,11}$/.test(text)) return Number(text) * 1000;
  if (/^\d{12,}$/.test(text))
    throw new InvalidInputError(`since '${text}' looks like milliseconds; send ${hint}`);
  const iso =
    /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(Z|[+-]\d{2}:\d{2})?)?$/.exec(text);
  if (!iso) throw new InvalidInputError(`since '${text}' is not ${hint}`);
  const [, year, month, day] = iso;
  const date = new Date(Date.UTC(Number(year), Number(month) - 1, Number(day)));
  if (date.getUTCMonth() !== Number(month) - 1 || date.getUTCDate() !== Number(day)) {
    throw new InvalidInputError(`since '${text}' is not a real date`);
  }
  const parsed = Date.parse(iso[4] !== undefined && iso[7] === undefined ? `${text}Z` : text);
  if (Number.isNaN(parsed)) throw new InvalidInputError(`since '${text}' is not ${hint}`);
  return parsed;
}

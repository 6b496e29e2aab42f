/** /v1/subscriptions: join an emitter to a webhook, undo it, list them. */

import type { FastifyInstance } from "fastify";
import {
  listSubscriptions,
  type SubscriptionInput,
  subscribe,
  unsubscribe,
} from "../../core/fan-out/subscriptions.js";
import type { PageRequest } from "../../core/pagination.js";
import type { Executor } from "../../store/schema.js";
import { dataOf, pageAnswer, pageOf, pageQuery } from "../schemas.js";
import { subscriptionView } from "../views/subscriptions.js";
import { routeGroup } from "./route-group.js";

const subscriptionSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "sub_…" },
    emitter_id: { type: "string" },
    listener_id: { type: "string" },
    event_name: { type: ["string", "null"], description: "the channel; null for every channel" },
    created_at: { type: "integer" },
  },
} as const;

const subscriptionInput = {
  type: "object",
  properties: {
    emitter_id: { type: "string", description: "the source (dc_…)" },
    listener_id: { type: "string", description: "the webhook (wh_…)" },
    event_name: {
      type: "string",
      description: "only this channel ($default: the default channel); all when absent",
    },
  },
} as const;

export function subscriptionRoutes(app: FastifyInstance, db: Executor): void {
  const route = routeGroup(app, "subscriptions");
  const one = { 200: dataOf(subscriptionSchema) };

  route.post<{ Body: SubscriptionInput }>("/subscriptions", {
    operationId: "createSubscription",
    summary: "Subscribe a webhook to an emitter's events",
    body: subscriptionInput,
    response: one,
    handler: async (request) => ({
      data: subscriptionView(await subscribe(db, request.account.id, request.body)),
    }),
  });

  route.delete<{ Body: SubscriptionInput }>("/subscriptions", {
    operationId: "deleteSubscription",
    summary: "Remove a subscription",
    body: subscriptionInput,
    response: one,
    handler: async (request) => ({
      data: subscriptionView(await unsubscribe(db, request.account.id, request.body)),
    }),
  });

  route.get<{ Querystring: PageRequest }>("/users/me/subscriptions", {
    operationId: "listSubscriptions",
    summary: "List the account's subscriptions",
    querystring: pageQuery,
    response: { 200: pageOf(subscriptionSchema) },
    handler: async (request) =>
      pageAnswer(await listSubscriptions(db, request.account.id, request.query), subscriptionView),
  });
}

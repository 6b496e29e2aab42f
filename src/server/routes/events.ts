/** /v1/sources/{id}/event_summaries, /events and /logs: what a source emitted and logged. */
import type { FastifyInstance } from "fastify";
import type { CoreContext } from "../../core/context.js";
import { deleteEvents, type EventQuery, listEventSummaries, listLogs } from "../../core/events/events.js";
import { getSource } from "../../core/sources/sources.js";
import { dataOf, idParams, pageOf, pageQuery } from "../schemas.js";
import { routeGroup } from "./route-group.js";

const nullableString = { type: ["string", "null"] } as const;

/** An event as lists and the SSE streams show it (Pipedream's event summary). */
const eventSummarySchema = {
  type: "object",
  additionalProperties: true,
  required: ["id", "indexed_at_ms", "metadata"],
  properties: {
    id: { type: "string", description: "<ms>-<seq>" },
    indexed_at_ms: { type: "integer" },
    event: { description: "the event; left out when larger than 1 KB, unless expand=event" },
    event_truncated: { type: "boolean", description: "true when event was left out for its size" },
    metadata: {
      type: "object",
      additionalProperties: true,
      properties: {
        emit_id: { type: "string", description: "the event's id" },
        emitter_id: { type: "string", description: "the source (dc_…) or workflow (p_…)" },
        name: { type: "string", description: "the channel it was emitted on; empty for the default" },
        id: { ...nullableString, description: "the id the component gave it (dedupe)" },
        summary: nullableString,
      },
    },
  },
} as const;

/** One log line of a source: console output, errors, lifecycle. */
const logEntrySchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    id: { type: "string", description: "<ms>-<seq>" },
    ts: { type: "number", description: "epoch milliseconds" },
    level: { type: "string" },
    message: { type: "string" },
    invocation_id: { type: "string" },
  },
} as const;

/** The query of an emitter's event summaries (a source's or a workflow's). */
export const eventSummariesQuery = {
  type: "object",
  properties: {
    ...pageQuery.properties,
    expand: { type: "string", enum: ["event"], description: "event: include every event in full" },
    event_name: { type: "string", maxLength: 200, description: "only events emitted on this channel" },
  },
} as const;

export const eventSummariesResponse = { 200: pageOf(eventSummarySchema) } as const;

export function eventRoutes(app: FastifyInstance, context: CoreContext): void {
  const route = routeGroup(app, "events");
  const db = context.store.db;

  route.get<{ Params: { id: string }; Querystring: EventQuery }>("/sources/:id/event_summaries", {
    operationId: "listSourceEvents",
    summary: "A source's events, newest first",
    params: idParams,
    querystring: eventSummariesQuery,
    response: eventSummariesResponse,
    handler: async (request) => {
      const source = await getSource(context, request.account.id, request.params.id);
      const page = await listEventSummaries(db, source.id, request.query);
      return { page_info: page.pageInfo, data: page.items };
    },
  });

  route.delete<{ Params: { id: string }; Body: { start_id?: string; end_id?: string } }>(
    "/sources/:id/events",
    {
      operationId: "deleteSourceEvents",
      summary: "Delete a source's events from start_id to end_id (both included; all without them)",
      params: idParams,
      body: { type: "object", properties: { start_id: { type: "string" }, end_id: { type: "string" } } },
      response: {
        200: dataOf({ type: "object", properties: { deleted: { type: "integer" } } }),
      },
      handler: async (request) => {
        const source = await getSource(context, request.account.id, request.params.id);
        return { data: { deleted: await deleteEvents(context.store, source.id, request.body) } };
      },
    },
  );

  route.get<{ Params: { id: string }; Querystring: { limit?: number; after?: string; before?: string } }>(
    "/sources/:id/logs",
    {
      operationId: "listSourceLogs",
      summary: "A source's log lines (console output, errors, lifecycle), newest first",
      params: idParams,
      querystring: pageQuery,
      response: {
        200: pageOf(logEntrySchema),
      },
      handler: async (request) => {
        const source = await getSource(context, request.account.id, request.params.id);
        const page = await listLogs(db, source.id, request.query);
        return { page_info: page.pageInfo, data: page.items };
      },
    },
  );
}

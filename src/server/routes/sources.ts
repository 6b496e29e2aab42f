/** /v1/sources: deploy, update, delete, list and read sources; run one now. */

import type { FastifyInstance } from "fastify";
import type { CoreContext } from "../../core/context.js";
import type { PageRequest } from "../../core/pagination.js";
import {
  deleteSource,
  deploySource,
  getSource,
  listSources,
  runSourceNow,
  type SourceInput,
  updateSource,
} from "../../core/sources/sources.js";
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
import { sourceView } from "../views/sources.js";
import { routeGroup, type TaggedRoutes } from "./route-group.js";
import { sourceRunSchema } from "./run-schemas.js";

const sourceSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    id: { type: "string", description: "dc_…" },
    owner_id: { type: "string" },
    component_id: { type: "string" },
    component_key: { type: ["string", "null"] },
    configured_props: { type: "object", additionalProperties: true },
    active: { type: "boolean" },
    created_at: { type: "number", description: "epoch seconds" },
    updated_at: { type: "number", description: "epoch seconds" },
    name: { type: "string" },
    name_slug: { type: "string" },
    endpoint_url: { type: ["string", "null"] },
    timeout_seconds: { type: "number" },
    max_events: { type: "number" },
    component_version: { type: ["string", "null"], description: "the component's version, if it has one" },
    last_event_at: {
      type: ["integer", "null"],
      description: "epoch seconds of the newest event; null before one",
    },
  },
} as const;

const sourceInput = {
  type: "object",
  properties: {
    component_id: { type: "string" },
    component_code: { type: "string" },
    component_url: { type: "string" },
    key: { type: "string" },
    filename: { type: "string" },
    name: { type: "string" },
    configured_props: { type: "object", additionalProperties: true },
    timeout_seconds: { type: "integer" },
    max_events: { type: "integer" },
    dynamic_props_id: { type: "string", description: "dyp_… from POST /v1/components/props" },
  },
} as const;

const one = { 200: dataOf(sourceSchema) } as const;

/** Registers /v1/sources: deploying and managing sources, then reading and running them. */
export function sourceRoutes(app: FastifyInstance, context: CoreContext): void {
  const route = routeGroup(app, "sources");
  sourceChangeRoutes(route, context);
  sourceReadRoutes(route, context);
}

/** Deploying, updating and deleting a source. */
function sourceChangeRoutes(route: TaggedRoutes, context: CoreContext): void {
  route.post<{ Body: SourceInput }>("/sources", {
    operationId: "deploySource",
    summary: "Deploy a source",
    body: sourceInput,
    response: one,
    handler: async (request) => ({
      data: sourceView(context, await deploySource(context, request.account.id, request.body)),
    }),
  });

  route.put<{ Params: { id: string }; Body: SourceInput }>("/sources/:id", {
    operationId: "updateSource",
    summary: "Update a source: code, props, name, active; the id is kept",
    params: idParams,
    body: { ...sourceInput, properties: { ...sourceInput.properties, active: { type: "boolean" } } },
    response: one,
    handler: async (request) => ({
      data: sourceView(
        context,
        await updateSource(context, request.account.id, request.params.id, request.body),
      ),
    }),
  });

  route.delete<{ Params: { id: string } }>("/sources/:id", {
    operationId: "deleteSource",
    summary: "Delete a source",
    params: idParams,
    response: { 200: deletedResponse, 409: errorResponse },
    handler: async (request) =>
      deletedAnswer(await deleteSource(context, request.account.id, request.params.id)),
  });
}

/** Reading a source, listing the account's, and running one now. */
function sourceReadRoutes(route: TaggedRoutes, context: CoreContext): void {
  route.get<{ Params: { id: string } }>("/sources/:id", {
    operationId: "getSource",
    summary: "Read a source (by dc_ id or name)",
    params: idParams,
    response: one,
    handler: async (request) => ({
      data: sourceView(context, await getSource(context, request.account.id, request.params.id)),
    }),
  });

  route.get<{ Querystring: PageRequest & { q?: string } }>("/users/me/sources", {
    operationId: "listSources",
    summary: "List the account's sources, newest first",
    querystring: pageQueryWith({
      q: {
        type: "string",
        maxLength: 200,
        description:
          "keep the sources whose name, dc_ id, component key or endpoint id holds these words (any case)",
      },
    }),
    response: { 200: pageOf(sourceSchema) },
    handler: async (request) =>
      pageAnswer(await listSources(context, request.account.id, request.query), (source) =>
        sourceView(context, source),
      ),
  });

  route.post<{ Params: { id: string } }>("/sources/:id/run", {
    operationId: "runSource",
    summary: "Run a source now",
    params: idParams,
    body: { type: "object" },
    response: { 200: dataOf(sourceRunSchema), 409: errorResponse },
    handler: async (request) => {
      const report = await runSourceNow(context, request.account.id, request.params.id);
      return {
        data: {
          invocation_id: report.invocationId,
          ok: report.result.ok,
          failure: report.result.failure ?? null,
          duration_ms: report.result.durationMs,
          events: report.events.map((event) => event.id),
          logs: report.result.logs,
        },
      };
    },
  });
}

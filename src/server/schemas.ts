/**
 * JSON schemas shared by routes: they validate requests, shape responses (a field not in the
 * response schema is never sent, so secrets cannot leak by accident) and feed the OpenAPI document.
 */
import type { FastifySchema } from "fastify";
import { MAX_PAGE_SIZE, type Page } from "../core/pagination.js";

export const errorResponse = {
  type: "object",
  properties: {
    error: {
      type: "object",
      properties: { code: { type: "string" }, message: { type: "string" } },
      required: ["code", "message"],
    },
  },
} as const;

export const pageQuery = {
  type: "object",
  properties: {
    limit: { type: "integer", minimum: 1, maximum: MAX_PAGE_SIZE, default: 10 },
    after: { type: "string", maxLength: 200, description: "Cursor: return items after this id (older)" },
    before: { type: "string", maxLength: 200, description: "Cursor: return items before this id (newer)" },
  },
} as const;

export const pageInfo = {
  type: "object",
  properties: {
    total_count: { type: "integer" },
    count: { type: "integer" },
    start_cursor: { type: ["string", "null"] },
    end_cursor: { type: ["string", "null"] },
  },
} as const;

/** A page's query: the page's parameters and the list's own filters (`extra`). */
export function pageQueryWith<Extra extends object>(extra: Extra) {
  return { ...pageQuery, properties: { ...pageQuery.properties, ...extra } } as const;
}

/** A one-item response: `{ data: item }`. */
export function dataOf<Item extends object>(item: Item) {
  return { type: "object", properties: { data: item } } as const;
}

/** An unpaged list response: `{ data: [item…] }`. */
export function listOf<Item extends object>(item: Item) {
  return { type: "object", properties: { data: { type: "array", items: item } } } as const;
}

/** A list response: `{ page_info, data: [item…] }`. */
export function pageOf<Item extends object>(item: Item) {
  return {
    type: "object",
    properties: { page_info: pageInfo, data: { type: "array", items: item } },
  } as const;
}

/** The path parameters of a route: each of `properties` is required. */
export function pathParams<Properties extends Record<string, object>>(properties: Properties) {
  const required = Object.keys(properties);
  return { type: "object", properties, ...(required.length > 0 ? { required } : {}) } as const;
}

export const idParams = pathParams({ id: { type: "string", maxLength: 200 } });

export const deletedResponse = {
  type: "object",
  properties: {
    data: { type: "object", properties: { id: { type: "string" }, deleted: { type: "boolean" } } },
  },
} as const;

/** The answer of a delete (`deletedResponse`). */
export function deletedAnswer(id: string) {
  return { data: { id, deleted: true } };
}

/**
 * Route config: the OpenAPI document describes the route with these parts of its schema instead.
 * For a body core checks itself, with messages that say what to fix (the route's own body schema
 * stays loose, so Ajv neither answers first nor coerces), and for an answer the serializer must
 * pass through as it is while the document names its shapes (a workflow's trigger, one of five
 * kinds: an `anyOf` in the serializer would answer 500 for a value no branch matches).
 */
export function documentedAs(parts: { body?: object; response?: Record<string, object> }) {
  return {
    swaggerTransform: ({ schema, url }: { schema: FastifySchema; url: string }) => ({
      schema: {
        ...schema,
        ...(parts.body === undefined ? {} : { body: parts.body }),
        ...(parts.response === undefined
          ? {}
          : { response: { ...(schema.response as object | undefined), ...parts.response } }),
      },
      url,
    }),
  };
}

/** Responses every authenticated route may give besides its own. */
export const commonErrors = {
  400: errorResponse,
  401: errorResponse,
  404: errorResponse,
  429: errorResponse,
} as const;

/** A route's own schema parts. */
export interface OperationParts {
  readonly operationId: string;
  readonly summary: string;
  readonly description?: string;
  readonly security?: FastifySchema["security"];
  readonly params?: object;
  readonly querystring?: object;
  readonly body?: object;
  /** The route's own answers; the errors of its group are added. */
  readonly response: Record<number, object>;
}

/**
 * The schemas of a group of routes: each is tagged `tag` in the OpenAPI document and answers, besides
 * its own responses, the `errors` every route of the group may give.
 */
export function operationsOf(tag: string, errors: Record<number, object> = commonErrors) {
  return ({ response, ...parts }: OperationParts): FastifySchema => ({
    ...parts,
    tags: [tag],
    response: { ...response, ...errors },
  });
}

/** A page of `Page` as a list answer, each item shown by `view`. */
export function pageAnswer<Item, Shown>(page: Page<Item>, view: (item: Item) => Shown) {
  return { page_info: page.pageInfo, data: page.items.map(view) };
}

/** Epoch seconds, as Pipedream's API reports times. */
export function epochSeconds(ms: number): number {
  return Math.floor(ms / 1000);
}

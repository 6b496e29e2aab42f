/**
 * The generic names over the generated OpenAPI types (./openapi.ts): an operation's answer, body,
 * query, and the page shape. A leaf that types.ts and workflow-types.ts both build on.
 */
import type { operations } from "./openapi.js";

type OperationId = keyof operations;
/** The JSON body of an operation's 200 answer. */
export type ResponseOf<Id extends OperationId> = operations[Id]["responses"] extends {
  200: { content: { "application/json": infer Body } };
}
  ? Body
  : never;
/** `data` of an operation's 200 answer. */
export type DataOf<Id extends OperationId> = ResponseOf<Id> extends { data: infer Data } ? Data : never;
/** One item of a list operation's `data`. */
export type ItemOf<Id extends OperationId> = DataOf<Id> extends (infer Item)[] ? Item : never;
/** The JSON body an operation takes. */
export type BodyOf<Id extends OperationId> =
  NonNullable<operations[Id]["requestBody"]> extends {
    content: { "application/json": infer Body };
  }
    ? Body
    : never;
/** The query string an operation takes. */
export type QueryOf<Id extends OperationId> = NonNullable<operations[Id]["parameters"]["query"]>;

export type PageInfo = ResponseOf<"listWebhooks">["page_info"];

export interface PageOf<T> {
  page_info: PageInfo;
  data: T[];
}

export type PageParams = QueryOf<"listWebhooks">;

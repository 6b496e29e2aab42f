/**
 * Generates src/client/openapi.ts, the client's wire types, from the served OpenAPI document with
 * openapi-typescript. A response schema lists what Sluice sends; the serializer sends every field
 * the route's view sets, and views set absent values to null, so a response's properties are
 * generated as present (`field: T | null`, not `field?: T`), unless the object's schema lists
 * `required` itself: then only those are present and the others optional (`event?: unknown`), for
 * the few fields a view leaves out at times. Request properties stay optional unless the schema
 * requires them.
 */
import openapiTS, { astToString } from "openapi-typescript";

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

const header = `/**
 * The REST API's wire types, generated from the OpenAPI document (GET /v1/openapi.json) by
 * openapi-typescript. Do not edit: run \`npm run generate:client-types\` after changing a route's
 * schema; test/rest/openapi-document.test.ts fails while this file is stale.
 */
`;

/**
 * Marks every property of every object inside `schema` as required (response schemas only), but
 * for objects that say which are required.
 */
function requireAll(schema: Json): Json {
  if (Array.isArray(schema)) return schema.map(requireAll);
  if (schema === null || typeof schema !== "object") return schema;
  const copy: { [key: string]: Json } = {};
  for (const [key, value] of Object.entries(schema)) {
    copy[key] =
      key === "properties" || key === "patternProperties" ? mapValues(value, requireAll) : requireAll(value);
  }
  const properties = schema.properties;
  const declaresRequired = Array.isArray(schema.required);
  if (
    !declaresRequired &&
    properties !== null &&
    typeof properties === "object" &&
    !Array.isArray(properties)
  ) {
    copy.required = Object.keys(properties);
  }
  return copy;
}

function mapValues(value: Json | undefined, map: (item: Json) => Json): Json {
  if (value === null || value === undefined || typeof value !== "object" || Array.isArray(value))
    return value ?? null;
  return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, map(item)]));
}

/** The document with every response's properties required. */
function withResponsesRequired(document: { [key: string]: Json }): { [key: string]: Json } {
  const paths = document.paths as { [path: string]: { [method: string]: { [key: string]: Json } } };
  const outPaths: { [path: string]: Json } = {};
  for (const [path, operations] of Object.entries(paths)) {
    const outOperations: { [method: string]: Json } = {};
    for (const [method, operation] of Object.entries(operations)) {
      outOperations[method] = { ...operation, responses: requireAll(operation.responses ?? {}) };
    }
    outPaths[path] = outOperations;
  }
  return { ...document, paths: outPaths };
}

/** The text of src/client/openapi.ts for this OpenAPI document (its JSON text). */
export async function clientTypesSource(documentText: string): Promise<string> {
  const document = withResponsesRequired(JSON.parse(documentText) as { [key: string]: Json });
  // The server URL is the serving instance's; leave it out so the file does not depend on it.
  const portable = { ...document, servers: [] };
  const nodes = await openapiTS(portable as unknown as Parameters<typeof openapiTS>[0], {
    alphabetize: true,
    silent: true,
  });
  return header + astToString(nodes);
}

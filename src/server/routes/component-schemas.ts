/**
 * Response schemas of saved and published components and their props, named field by field so
 * the client's types (src/client/openapi.ts) are generated from them. Each keeps
 * `additionalProperties: true`, as before: a field a view adds is still sent.
 */

/**
 * The answer of a run of a component's configuration code in the sandbox (a prop's options, the
 * reloaded props): `answer`'s fields, then the run's errors and observations.
 */
export function sandboxAnswer(answer: Record<string, object>) {
  return {
    200: {
      type: "object",
      properties: {
        ...answer,
        errors: { type: "array", items: { type: "string" } },
        observations: { type: "array", items: { type: "object", additionalProperties: true } },
      },
    },
  } as const;
}

/** The answer of reloading a component's props: the dynamic props, each a `prop`, and their dyp_ id. */
export function reloadedPropsAnswer(prop: object) {
  return sandboxAnswer({
    dynamicProps: {
      type: ["object", "null"],
      properties: {
        id: { type: "string", description: "dyp_…" },
        configurableProps: { type: "array", items: prop },
      },
    },
  });
}

/** One configurable prop as a component describes it (core checks these fields' types on save). */
export const configurablePropSchema = {
  type: "object",
  additionalProperties: true,
  required: ["name", "type"],
  properties: {
    name: { type: "string" },
    type: { type: "string", description: "string, integer, boolean, app, string[], $.interface.http, …" },
    label: { type: "string" },
    description: { type: "string" },
    optional: { type: "boolean" },
    default: { description: "the value used when none is configured" },
    secret: { type: "boolean" },
    min: { type: "number" },
    max: { type: "number" },
    options: {
      type: "array",
      items: {},
      description: "static options as given (values or {label, value}); absent when dynamic",
    },
    remoteOptions: { type: "boolean", description: "options come from POST /v1/components/configure" },
    useQuery: { type: "boolean" },
    reloadProps: { type: "boolean" },
    withLabel: { type: "boolean" },
    app: { type: "string", description: "an app prop's app name slug" },
  },
} as const;

const nullableString = { type: ["string", "null"] } as const;

/** A saved component's fields but its code (lists leave the code out). */
const summaryProperties = {
  id: { type: "string", description: "sc_…" },
  code_hash: { type: "string" },
  name: { type: "string" },
  key: nullableString,
  version: nullableString,
  type: { type: "string", enum: ["source", "action"] },
  description: nullableString,
  configurable_props: { type: "array", items: configurablePropSchema },
  has_additional_props: {
    type: "boolean",
    description:
      "the component has additionalProps: POST /v1/components/props answers its full props for a configuration",
  },
  dedupe: { ...nullableString, description: "a source's dedupe: unique, greatest or last" },
  lock: {
    type: "object",
    additionalProperties: { type: "string" },
    description: "the npm packages the code imports, each at the version it was bundled with",
  },
  created_at: { type: "integer", description: "epoch seconds" },
} as const;

/** has_additional_props is left out of components saved before it was described. */
const summaryRequired = [
  "id",
  "code_hash",
  "name",
  "key",
  "version",
  "type",
  "description",
  "configurable_props",
  "dedupe",
  "lock",
  "created_at",
];

export const componentSummarySchema = {
  type: "object",
  additionalProperties: true,
  required: summaryRequired,
  properties: summaryProperties,
} as const;

export const componentSchema = {
  type: "object",
  additionalProperties: true,
  required: [...summaryRequired, "code"],
  properties: { ...summaryProperties, code: { type: "string", description: "the component's source code" } },
} as const;

/** A component published under its key and version, without its code. */
export const publishedSchema = {
  type: "object",
  additionalProperties: true,
  required: [...summaryRequired, "published_at"],
  properties: {
    ...summaryProperties,
    id: { type: "string", description: "sc_… of the published code" },
    key: { type: "string" },
    version: { type: "string" },
    published_at: { type: "integer", description: "epoch seconds" },
  },
} as const;

/** `GET /v1/published/{key}`: the version the key resolves to, its code and every version. */
export const publishedDetailSchema = {
  ...publishedSchema,
  required: [...publishedSchema.required, "code", "versions"],
  properties: {
    ...publishedSchema.properties,
    code: { type: "string" },
    versions: {
      type: "array",
      items: {
        type: "object",
        properties: {
          version: { type: "string" },
          component_id: { type: "string", description: "sc_…" },
          published_at: { type: "integer", description: "epoch seconds" },
        },
      },
    },
  },
} as const;

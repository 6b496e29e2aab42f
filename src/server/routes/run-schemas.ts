/**
 * Response schemas of what a run gives back — a source run now, an action run, and the parts a
 * workflow run shares with them (log lines, sends) — named field by field so the client's types
 * are generated from them. Each object keeps `additionalProperties: true`, as before.
 */

const nullableString = { type: ["string", "null"] } as const;

/** One console line of a run. */
export const logLineSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    ts: { type: "number", description: "epoch milliseconds" },
    level: { type: "string", description: "log, info, warn, error or debug" },
    message: { type: "string" },
  },
} as const;

/** Why a run failed; null when it did not. */
export const failureSchema = {
  type: ["object", "null"],
  additionalProperties: true,
  required: ["reason", "message"],
  properties: {
    reason: { type: "string", description: "error, timeout, crash, out_of_memory, exit or load_error" },
    message: { type: "string" },
    stack: { type: "string" },
  },
} as const;

/** `$.flow.exit(reason?)` was called: a workflow ends after this step. */
export const flowExitSchema = {
  type: ["object", "null"],
  additionalProperties: true,
  properties: { reason: nullableString },
} as const;

/** One `$.send.*` call of an action and what became of it. */
export const sendReportSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    kind: { type: "string", enum: ["http", "email", "emit", "sse", "s3"] },
    input: {
      type: "object",
      additionalProperties: true,
      description: "what the action asked to send, credentials masked",
    },
    outcome: {
      type: "object",
      additionalProperties: true,
      required: ["ok"],
      properties: {
        ok: { type: "boolean" },
        status: { type: "number", description: "the HTTP status of an http send" },
        error: { type: "string" },
        message_id: { type: "string", description: "the SMTP server's id of an email" },
        recorded: {
          type: "boolean",
          description: "emit and sse: kept in the result (a workflow routes them)",
        },
        skipped: { type: "boolean", description: "not attempted: the run failed" },
      },
    },
  },
} as const;

/** The HTTP answer an action gave with `$.respond()`. */
const respondSchema = {
  type: ["object", "null"],
  additionalProperties: true,
  required: ["status", "headers", "body", "immediate"],
  properties: {
    status: { type: "number" },
    headers: { type: "object", additionalProperties: { type: "string" } },
    body: { description: "JSON when the action answered an object; text; or base64 (body_encoding)" },
    body_encoding: { type: "string", enum: ["base64"] },
    immediate: { type: "boolean" },
  },
} as const;

/** `POST /v1/actions/run`. */
export const actionRunSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    component_id: { type: "string", description: "sc_…" },
    component_key: nullableString,
    component_version: nullableString,
    ok: { type: "boolean" },
    return_value: { description: "what run() returned (JSON); null for nothing" },
    exports: { type: "object", additionalProperties: true },
    summary: nullableString,
    logs: { type: "array", items: logLineSchema },
    flow_exit: flowExitSchema,
    respond: respondSchema,
    sends: { type: "array", items: sendReportSchema },
    duration_ms: { type: "integer" },
    failure: failureSchema,
  },
} as const;

/** `POST /v1/sources/{id}/run`. */
export const sourceRunSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    invocation_id: { type: "string" },
    ok: { type: "boolean" },
    failure: failureSchema,
    duration_ms: { type: "number" },
    events: { type: "array", items: { type: "string" }, description: "the ids of the events it emitted" },
    logs: { type: "array", items: logLineSchema },
  },
} as const;

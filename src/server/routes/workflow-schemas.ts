/**
 * Response schemas of workflows and their runs, named field by field so the client's types are
 * generated from them (`Workflow`, `WorkflowRun`, …). Each object keeps
 * `additionalProperties: true`, as before: a field a view adds is still sent. A trigger's five
 * kinds and the workflow document (the body) are described for the OpenAPI document only
 * (`documentedAs`): the trigger is sent as the view makes it, and core checks the document.
 */
import { dataOf, pageOf } from "../schemas.js";
import { flowExitSchema, logLineSchema, sendReportSchema } from "./run-schemas.js";

export const nullableString = { type: ["string", "null"] } as const;
export const nullableNumber = { type: ["number", "null"] } as const;

/** One kind of trigger: `type` names it, the other fields are that kind's. */
function triggerKind<Properties extends object>(
  kind: string,
  properties: Properties,
  required?: readonly string[],
) {
  return {
    type: "object",
    additionalProperties: true,
    ...(required === undefined ? {} : { required: ["type", ...required] }),
    properties: { type: { type: "string", enum: [kind] }, ...properties },
  } as const;
}

/**
 * What starts a run, as the OpenAPI document describes it: one of five kinds, `type` says which.
 * The serializer sends the view's trigger as it is (workflowSchema), so no value can fail to match.
 */
const triggerKinds = {
  anyOf: [
    triggerKind("http", { custom_response: { type: "boolean" } }),
    triggerKind(
      "timer",
      {
        interval_seconds: { type: "number" },
        cron: { type: "string" },
        timezone: { type: "string" },
        source_id: { ...nullableString, description: "the timer source (dc_…) that starts runs" },
      },
      ["source_id"],
    ),
    triggerKind("source", { source_id: { type: "string" }, event_name: nullableString }),
    triggerKind("uses", {
      source_id: { ...nullableString, description: "the source (dc_…) deployed for the workflow" },
      component_id: { type: "string" },
    }),
    triggerKind("none", {}),
  ],
} as const;

const workflowStepSchema = {
  type: "object",
  additionalProperties: true,
  required: ["name", "component_id", "component_key", "component_version", "props"],
  properties: {
    name: { type: "string" },
    component_id: { type: "string", description: "sc_…" },
    component_key: nullableString,
    component_version: nullableString,
    props: {
      type: "object",
      additionalProperties: true,
      description: "prop values as written (secrets masked); strings may hold {{ expressions }}",
    },
    timeout_seconds: { type: "number", description: "only when the step sets its own" },
  },
} as const;

export const workflowSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    id: { type: "string", description: "p_…" },
    owner_id: { type: "string" },
    name: { type: "string" },
    active: { type: "boolean" },
    trigger: {
      type: "object",
      additionalProperties: true,
      description: "what starts a run: type is http, timer, source, uses or none",
    },
    endpoint_url: { ...nullableString, description: "{base}/e/<id> for an HTTP-triggered workflow" },
    concurrency: { type: "number", description: "runs at the same time at most" },
    retries: { type: "number", description: "attempts after a failed one" },
    retry_timeouts: {
      type: "boolean",
      description: "whether a time-out or out-of-memory failure is retried too",
    },
    timeout_seconds: { type: "number", description: "per step" },
    steps: { type: "array", items: workflowStepSchema },
    created_at: { type: "number", description: "epoch seconds" },
    updated_at: { type: "number", description: "epoch seconds" },
  },
} as const;

/** A workflow as the OpenAPI document describes it: its trigger is one of five kinds. */
const documentedWorkflowSchema = {
  ...workflowSchema,
  properties: { ...workflowSchema.properties, trigger: triggerKinds },
} as const;

/** For documentedAs on the routes that answer one workflow, and on the list. */
export const documentedWorkflow = { 200: dataOf(documentedWorkflowSchema) };
export const documentedWorkflowPage = { 200: pageOf(documentedWorkflowSchema) };

const stepErrorSchema = {
  type: ["object", "null"],
  additionalProperties: true,
  properties: {
    reason: {
      type: "string",
      description: "error, timeout, crash, out_of_memory, exit, load_error, expression…",
    },
    message: { type: "string" },
    stack: nullableString,
  },
} as const;

/** A step that ran; the steps after a failed or exiting one do not run and are not listed. */
const runStepSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    name: { type: "string" },
    status: { type: "string", enum: ["success", "error", "exited"] },
    started_at_ms: { type: "number" },
    duration_ms: { type: "number" },
    return_value: { description: "what the step returned (JSON)" },
    exports: { type: "object", additionalProperties: true },
    summary: nullableString,
    logs: { type: "array", items: logLineSchema },
    error: stepErrorSchema,
    flow_exit: flowExitSchema,
  },
} as const;

export const workflowRunSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    id: { type: "string", description: "wr_…" },
    workflow_id: { type: "string" },
    status: {
      type: "string",
      enum: ["queued", "running", "paused", "suspended", "success", "error", "exited", "cancelled"],
      description: "paused or suspended: waiting after a step's $.flow.delay, rerun or suspend",
    },
    trigger: {
      type: "object",
      additionalProperties: true,
      properties: {
        event: { description: "the event that started the run" },
        context: { description: "how it was started" },
      },
    },
    steps: { type: "array", items: runStepSchema },
    sends: {
      type: "array",
      items: sendReportSchema,
      description: "what the run's $.send.* calls became, as for a single action run",
    },
    error: {
      ...stepErrorSchema,
      properties: { step: { type: "string" }, ...stepErrorSchema.properties },
    },
    exit: {
      type: ["object", "null"],
      additionalProperties: true,
      properties: { step: { type: "string" }, reason: nullableString },
    },
    attempts: { type: "number" },
    history: {
      type: "array",
      description:
        "what happened to the run, oldest first: its attempts, waits, resumes, reruns, retries, cancellation",
      items: {
        type: "object",
        additionalProperties: true,
        required: ["at_ms", "event"],
        properties: {
          at_ms: { type: "number" },
          event: {
            type: "string",
            enum: ["attempt", "paused", "suspended", "rerun", "resumed", "retry", "cancelled"],
          },
          step: { type: "string" },
          cause: { type: "string", description: "what resumed or cancelled it, which attempt began" },
          until_ms: { type: "number", description: "when a wait or retry ends" },
        },
      },
    },
    wait: {
      type: ["object", "null"],
      additionalProperties: true,
      description: "set while the run is paused or suspended, or queued for a failed step's retry",
      properties: {
        kind: { type: "string", enum: ["delay", "suspend", "rerun", "retry"] },
        step: { type: "string" },
        until_ms: {
          type: "number",
          description: "when it goes on by itself, or (suspend) is cancelled unless resumed first",
        },
      },
    },
    replay_of: { ...nullableString, description: "the run this one replays" },
    created_at_ms: { type: "number" },
    started_at_ms: nullableNumber,
    finished_at_ms: nullableNumber,
    duration_ms: nullableNumber,
  },
} as const;

/** A component for a step or a `uses` trigger: exactly one of code, key, component_id or uses. */
const componentRefProperties = {
  code: { type: "string", description: "the component's source code" },
  filename: {
    type: "string",
    description: "the file code came from, for the server's messages (.ts for TypeScript to compile)",
  },
  key: { type: "string", description: "a published key: key (the latest version) or key@version" },
  component_id: { type: "string", description: "a saved component (sc_…)" },
  uses: { type: "string", description: "a published key or an sc_ id (not a file path)" },
  props: {
    type: "object",
    additionalProperties: true,
    description: "prop values; strings may hold {{ expression }}s evaluated against steps",
  },
} as const;

const workflowStepParams = {
  type: "object",
  required: ["name"],
  properties: {
    name: { type: "string", description: "an identifier; later steps read its results as steps.<name>" },
    ...componentRefProperties,
    timeout_seconds: { type: "integer", minimum: 1, maximum: 900 },
  },
} as const;

/** Leave the trigger out (or null) for a workflow that runs by hand only. */
const workflowTriggerParams = {
  anyOf: [
    {
      type: "object",
      required: ["http"],
      properties: {
        http: { type: "object", properties: { customResponse: { type: "boolean" } } },
      },
    },
    {
      type: "object",
      required: ["timer"],
      properties: {
        timer: {
          anyOf: [
            {
              type: "object",
              required: ["intervalSeconds"],
              properties: { intervalSeconds: { type: "integer", minimum: 1 } },
            },
            {
              type: "object",
              required: ["cron"],
              properties: { cron: { type: "string" }, timezone: { type: "string" } },
            },
          ],
        },
      },
    },
    {
      type: "object",
      required: ["source"],
      properties: {
        source: { type: "string", description: "a deployed source (dc_…)" },
        event_name: { type: "string", description: "only its events on this channel" },
      },
    },
    {
      type: "object",
      description: "a source component deployed for the workflow: one of uses, code, key or component_id",
      properties: componentRefProperties,
    },
  ],
} as const;

/**
 * The workflow document of `POST /v1/workflows` and `PUT /v1/workflows/{id}`, for the OpenAPI
 * document only: the routes take any object and core's parseDocument checks it with messages that
 * say what to fix (an unknown field, a step name, a trigger's shape).
 */
export const workflowParamsDocument = {
  type: "object",
  required: ["name", "steps"],
  properties: {
    name: { type: "string", maxLength: 200 },
    trigger: { type: ["object", "null"], ...workflowTriggerParams },
    concurrency: {
      type: "integer",
      minimum: 1,
      maximum: 100,
      description: "runs at the same time at most; default 1",
    },
    retries: {
      type: "integer",
      minimum: 0,
      maximum: 8,
      description: "attempts after a failed one; default 0",
    },
    retry_timeouts: {
      type: "boolean",
      description: "retry a step that timed out or ran out of memory too; default false",
    },
    timeout_seconds: { type: "integer", minimum: 1, maximum: 900, description: "per step; default 30" },
    active: { type: "boolean" },
    steps: { type: "array", minItems: 1, maxItems: 100, items: workflowStepParams },
  },
} as const;

/** `PUT /v1/workflows/{id}`: a whole document, or `{ active }` alone to pause or resume. */
export const workflowUpdateDocument = {
  anyOf: [
    workflowParamsDocument,
    { type: "object", required: ["active"], properties: { active: { type: "boolean" } } },
  ],
} as const;

/**
 * The workflow document, as a client sends it (the CLI reads it from YAML or JSON): `name`,
 * `trigger`, `concurrency`, `retries`, `timeout_seconds`, `active` and `steps`. `parseDocument`
 * checks every field and names the one that is wrong; it only looks at shapes, so resolving the
 * components and props a document names is left to the caller.
 */
import { InvalidInputError } from "../errors.js";

/** Which component a step (or a `uses` trigger) runs. */
export type ComponentRef =
  | { readonly code: string; readonly filename?: string }
  | { readonly key: string }
  | { readonly componentId: string };

export type TriggerSpec =
  | { readonly type: "none" }
  | { readonly type: "http"; readonly customResponse: boolean }
  | { readonly type: "timer"; readonly schedule: Record<string, unknown> }
  | { readonly type: "source"; readonly sourceId: string; readonly eventName: string | null }
  | { readonly type: "uses"; readonly component: ComponentRef; readonly props: Record<string, unknown> };

export interface StepSpec {
  readonly name: string;
  readonly component: ComponentRef;
  readonly props: Record<string, unknown>;
  readonly timeoutSeconds: number | null;
}

export interface WorkflowSpec {
  readonly name: string;
  readonly trigger: TriggerSpec;
  readonly concurrency: number;
  readonly retries: number;
  /** Whether a time-out or out-of-memory failure is retried too (Pipedream's auto-retry does not). */
  readonly retryTimeouts: boolean;
  readonly timeoutSeconds: number;
  readonly active: boolean | undefined;
  readonly steps: readonly StepSpec[];
}

export const MAX_STEPS = 100;
export const MAX_CONCURRENCY = 100;
export const MAX_RETRIES = 8;
export const DEFAULT_STEP_TIMEOUT_SECONDS = 30;
export const MAX_STEP_TIMEOUT_SECONDS = 900;
const STEP_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,63}$/;
const DOCUMENT_FIELDS = new Set([
  "name",
  "trigger",
  "concurrency",
  "retries",
  "retry_timeouts",
  "timeout_seconds",
  "active",
  "steps",
]);
const STEP_FIELDS = new Set([
  "name",
  "code",
  "filename",
  "key",
  "component_id",
  "uses",
  "props",
  "timeout_seconds",
]);

export function parseDocument(input: unknown): WorkflowSpec {
  const document = record(input, "the workflow", "a JSON object with name, trigger and steps");
  for (const field of Object.keys(document)) {
    if (!DOCUMENT_FIELDS.has(field)) {
      throw invalid(`unknown field '${field}': a workflow has ${[...DOCUMENT_FIELDS].join(", ")}`);
    }
  }
  const name = document.name;
  if (typeof name !== "string" || name.trim() === "" || name.length > 200) {
    throw invalid("name is required: a non-empty string of at most 200 characters");
  }
  if (!Array.isArray(document.steps) || document.steps.length === 0) {
    throw invalid("steps is required: a list of at least one step");
  }
  if (document.steps.length > MAX_STEPS) throw invalid(`a workflow has at most ${MAX_STEPS} steps`);
  const steps = document.steps.map((step, index) => parseStep(step, index));
  const seen = new Set<string>();
  for (const step of steps) {
    if (seen.has(step.name)) throw invalid(`two steps are named '${step.name}': step names must be unique`);
    seen.add(step.name);
  }
  if (document.active !== undefined && typeof document.active !== "boolean") {
    throw invalid("active must be true or false");
  }
  if (document.retry_timeouts !== undefined && typeof document.retry_timeouts !== "boolean") {
    throw invalid("retry_timeouts must be true or false");
  }
  return {
    name: name.trim(),
    trigger: parseTrigger(document.trigger),
    concurrency: integer(document.concurrency, "concurrency", 1, MAX_CONCURRENCY) ?? 1,
    retries: integer(document.retries, "retries", 0, MAX_RETRIES) ?? 0,
    retryTimeouts: document.retry_timeouts === true,
    timeoutSeconds:
      integer(document.timeout_seconds, "timeout_seconds", 1, MAX_STEP_TIMEOUT_SECONDS) ??
      DEFAULT_STEP_TIMEOUT_SECONDS,
    active: document.active as boolean | undefined,
    steps,
  };
}

function parseStep(input: unknown, index: number): StepSpec {
  const where = `steps[${index}]`;
  const step = record(input, where, "an object with name and one of code, key, component_id or uses");
  for (const field of Object.keys(step)) {
    if (!STEP_FIELDS.has(field)) {
      throw invalid(`${where}: unknown field '${field}': a step has ${[...STEP_FIELDS].join(", ")}`);
    }
  }
  if (typeof step.name !== "string" || !STEP_NAME.test(step.name)) {
    throw invalid(
      `${where}.name must be an identifier (letters, digits, _; at most 64), as later steps read it as steps.<name>; got ${JSON.stringify(step.name)}`,
    );
  }
  if (step.name === "trigger") throw invalid(`${where}.name: 'trigger' is the name of the triggering event`);
  return {
    name: step.name,
    component: componentRef(step, `step '${step.name}'`),
    props: props(step.props, `step '${step.name}'`),
    timeoutSeconds:
      integer(step.timeout_seconds, `step '${step.name}': timeout_seconds`, 1, MAX_STEP_TIMEOUT_SECONDS) ??
      null,
  };
}

function parseTrigger(input: unknown): TriggerSpec {
  if (input === undefined || input === null) return { type: "none" };
  const trigger = record(
    input,
    "trigger",
    "one of http, timer, source or uses (or leave it out for manual runs)",
  );
  const kinds = ["http", "timer", "source", "uses", "code", "key", "component_id"].filter(
    (kind) => trigger[kind] !== undefined,
  );
  if (kinds.length === 0) {
    if (Object.keys(trigger).length === 0) return { type: "none" };
    throw invalid("trigger must have one of http, timer, source or uses (or be left out for manual runs)");
  }
  if (trigger.http !== undefined) {
    only(trigger, ["http"], "trigger.http");
    const http =
      trigger.http === null || trigger.http === true
        ? {}
        : record(trigger.http, "trigger.http", "{ customResponse?: boolean }");
    for (const field of Object.keys(http)) {
      if (field !== "customResponse")
        throw invalid(`trigger.http: unknown field '${field}' (it takes customResponse)`);
    }
    if (http.customResponse !== undefined && typeof http.customResponse !== "boolean") {
      throw invalid("trigger.http.customResponse must be true or false");
    }
    return { type: "http", customResponse: http.customResponse === true };
  }
  if (trigger.timer !== undefined) {
    only(trigger, ["timer"], "trigger.timer");
    const schedule = record(
      trigger.timer,
      "trigger.timer",
      '{ intervalSeconds: N } or { cron: "…", timezone?: "…" }',
    );
    return { type: "timer", schedule };
  }
  if (trigger.source !== undefined) {
    only(trigger, ["source", "event_name"], "trigger.source");
    if (typeof trigger.source !== "string" || !trigger.source.startsWith("dc_")) {
      throw invalid(
        `trigger.source must be the id of a deployed source (dc_…), got ${JSON.stringify(trigger.source)}`,
      );
    }
    if (
      trigger.event_name !== undefined &&
      trigger.event_name !== null &&
      typeof trigger.event_name !== "string"
    ) {
      throw invalid("trigger.event_name must be a string: the channel whose events run the workflow");
    }
    const eventName = (trigger.event_name as string | null | undefined) ?? null;
    if (eventName !== null && eventName.length > 200)
      throw invalid("trigger.event_name is at most 200 characters");
    return { type: "source", sourceId: trigger.source, eventName: eventName === "" ? null : eventName };
  }
  only(trigger, ["uses", "code", "filename", "key", "component_id", "props"], "trigger.uses");
  return {
    type: "uses",
    component: componentRef(trigger, "trigger"),
    props: props(trigger.props, "trigger"),
  };
}

/** `code` (with `filename`), `key`, `component_id`, or `uses` (a key or an `sc_` id): exactly one. */
function componentRef(holder: Record<string, unknown>, where: string): ComponentRef {
  const given = ["code", "key", "component_id", "uses"].filter((field) => holder[field] !== undefined);
  if (given.length !== 1) {
    throw invalid(
      `${where} needs exactly one of code, key, component_id or uses${given.length > 1 ? `, got ${given.join(" and ")}` : ""}`,
    );
  }
  const field = given[0] as string;
  const value = holder[field];
  if (typeof value !== "string" || value.trim() === "")
    throw invalid(`${where}: ${field} must be a non-empty string`);
  if (field === "code") {
    const filename = holder.filename;
    if (filename !== undefined && typeof filename !== "string")
      throw invalid(`${where}: filename must be a string`);
    return filename === undefined ? { code: value } : { code: value, filename };
  }
  if (field === "component_id") return { componentId: value };
  if (field === "key") return { key: value };
  if (value.startsWith("sc_")) return { componentId: value };
  if (/^\.{0,2}\/|\.(m|c)?[jt]s$/.test(value)) {
    throw invalid(
      `${where}: uses '${value}' looks like a file path; the server cannot read your files: deploy with the CLI (sluice workflows deploy), which bundles them, or send the code as code`,
    );
  }
  return { key: value };
}

function props(value: unknown, where: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  return record(value, `${where}: props`, "an object of prop name → value");
}

function only(trigger: Record<string, unknown>, allowed: string[], where: string): void {
  for (const field of Object.keys(trigger)) {
    if (!allowed.includes(field))
      throw invalid(`${where}: '${field}' cannot be combined with it (one trigger per workflow)`);
  }
}

function record(value: unknown, where: string, what: string): Record<string, unknown> {
  if (typeof value !== "object" || value === null || Array.isArray(value))
    throw invalid(`${where} must be ${what}`);
  return value as Record<string, unknown>;
}

function integer(value: unknown, field: string, min: number, max: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < min || value > max) {
    throw invalid(`${field} must be an integer from ${min} to ${max}, got ${JSON.stringify(value)}`);
  }
  return value;
}

function invalid(message: string): InvalidInputError {
  return new InvalidInputError(message, "invalid_workflow");
}

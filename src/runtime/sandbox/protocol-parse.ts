/**
 * The one place the messages crossing the IPC channel are read. A runner runs untrusted code,
 * which can call `process.send` itself, so each of its messages is checked against its shape in
 * protocol.ts and copied field by field before the server looks at it; one that does not fit is
 * rejected whole, with the reason.
 */
import { isRecord, type UnknownRecord } from "../api/component-object.js";
import type { ComponentDefinition } from "../component-definition.js";
import type { LoadErrorCode, ParentMessage, RunnerMessage } from "./protocol.js";
import type { FlowWaitKind, LogLine, SendKind } from "./sandbox.js";
import type { SerializedError } from "./serialized-error.js";

export type ParsedRunnerMessage =
  | { readonly ok: true; readonly message: RunnerMessage }
  | {
      readonly ok: false;
      readonly error: string /** The message's kind, when it named a known one. */;
      readonly t?: RunnerMessage["t"];
    };

/** A field that does not fit its message's shape. */
class MalformedMessage extends Error {}

/** Sets of string literals, written as objects so that the compiler checks they list every one. */
const LOAD_ERROR_CODES: Record<LoadErrorCode, true> = { load_error: true, not_a_component: true };
const LOG_LEVELS: Record<LogLine["level"], true> = {
  log: true,
  info: true,
  warn: true,
  error: true,
  debug: true,
};
const SEND_KINDS: Record<SendKind, true> = { http: true, email: true, emit: true, sse: true, s3: true };
const FLOW_WAIT_KINDS: Record<FlowWaitKind, true> = { delay: true, suspend: true, rerun: true };
const ENCODINGS: Record<"utf8" | "base64", true> = { utf8: true, base64: true };
const PARENT_KINDS: Record<ParentMessage["t"], true> = {
  invoke: true,
  invoke_batch: true,
  describe: true,
  data_store_result: true,
  egress_answer: true,
  forget: true,
};

function isOneOf<T extends string>(value: unknown, allowed: Readonly<Record<T, unknown>>): value is T {
  return typeof value === "string" && Object.hasOwn(allowed, value);
}

/** The fields of one object of a message, read by their declared type; the first misfit throws. */
class Fields {
  constructor(
    private readonly record: UnknownRecord,
    private readonly path = "",
  ) {}

  string(key: string): string {
    const value = this.record[key];
    return typeof value === "string" ? value : this.misfit(key, "a string");
  }

  optionalString(key: string): string | undefined {
    return this.record[key] === undefined ? undefined : this.string(key);
  }

  integer(key: string): number {
    const value = this.record[key];
    return Number.isSafeInteger(value) && typeof value === "number" ? value : this.misfit(key, "an integer");
  }

  optionalInteger(key: string): number | undefined {
    return this.record[key] === undefined ? undefined : this.integer(key);
  }

  number(key: string): number {
    const value = this.record[key];
    return typeof value === "number" && Number.isFinite(value) ? value : this.misfit(key, "a number");
  }

  optionalNumber(key: string): number | undefined {
    return this.record[key] === undefined ? undefined : this.number(key);
  }

  optionalStringOrNumber(key: string): string | number | undefined {
    const value = this.record[key];
    if (value === undefined || typeof value === "string") return value;
    return this.number(key);
  }

  boolean(key: string): boolean {
    const value = this.record[key];
    return typeof value === "boolean" ? value : this.misfit(key, "a boolean");
  }

  optionalBoolean(key: string): boolean | undefined {
    return this.record[key] === undefined ? undefined : this.boolean(key);
  }

  oneOf<T extends string>(key: string, allowed: Record<T, true>): T {
    const value = this.record[key];
    return isOneOf(value, allowed) ? value : this.misfit(key, `one of ${Object.keys(allowed).join(", ")}`);
  }

  object(key: string): Fields {
    const value = this.record[key];
    return isRecord(value) ? new Fields(value, `${this.path}${key}.`) : this.misfit(key, "an object");
  }

  optionalObject(key: string): Fields | undefined {
    return this.record[key] === undefined ? undefined : this.object(key);
  }

  /** The object's own fields, each of which must be a string. */
  strings(): Record<string, string> {
    const strings: Record<string, string> = {};
    for (const key of Object.keys(this.record)) strings[key] = this.string(key);
    return strings;
  }

  /** An error as serialized by the sender (serialized-error.ts). */
  error(key: string): SerializedError {
    const error = this.object(key);
    const stack = error.optionalString("stack");
    return {
      name: error.string("name"),
      message: error.string("message"),
      ...(stack === undefined ? {} : { stack }),
    };
  }

  /** The record itself, for a field whose values the receiver checks (a data store call's arguments). */
  get raw(): UnknownRecord {
    return this.record;
  }

  private misfit(key: string, expected: string): never {
    throw new MalformedMessage(`${this.path}${key} must be ${expected}`);
  }
}

/** The same shallow check as ever: core reads the definition's props through their own checks. */
function definitionOf(fields: Fields): ComponentDefinition {
  const definition = fields.raw.definition;
  const valid =
    isRecord(definition) &&
    typeof definition.name === "string" &&
    Array.isArray(definition.props) &&
    Array.isArray(definition.hooks) &&
    Array.isArray(definition.methods);
  if (!valid) throw new MalformedMessage("definition must be a component definition");
  // Checked above as far as the server relies on it; describeComponent built it in the runner.
  return definition as unknown as ComponentDefinition;
}

type Parser<T extends RunnerMessage["t"]> = (fields: Fields) => Extract<RunnerMessage, { t: T }>;

const RUNNER_MESSAGES: { readonly [T in RunnerMessage["t"]]: Parser<T> } = {
  ready: () => ({ t: "ready" }),
  load_error: (f) => ({ t: "load_error", code: f.oneOf("code", LOAD_ERROR_CODES), error: f.error("error") }),
  emit: (f) => {
    const meta = f.object("meta");
    return {
      t: "emit",
      id: f.integer("id"),
      event: f.optionalString("event"),
      meta: {
        id: meta.optionalStringOrNumber("id"),
        name: meta.optionalString("name"),
        summary: meta.optionalString("summary"),
        ts: meta.optionalNumber("ts"),
      },
    };
  },
  log: (f) => {
    const line = f.object("line");
    return {
      t: "log",
      id: f.integer("id"),
      line: {
        ts: line.number("ts"),
        level: line.oneOf("level", LOG_LEVELS),
        message: line.string("message"),
      },
    };
  },
  set: (f) => ({ t: "set", id: f.integer("id"), key: f.string("key"), value: f.string("value") }),
  respond: (f) => ({
    t: "respond",
    id: f.integer("id"),
    status: f.integer("status"),
    headers: f.object("headers").strings(),
    body: f.string("body"),
    encoding: f.oneOf("encoding", ENCODINGS),
    isJson: f.boolean("isJson"),
    immediate: f.optionalBoolean("immediate"),
  }),
  export: (f) => ({
    t: "export",
    id: f.integer("id"),
    name: f.string("name"),
    value: f.optionalString("value"),
  }),
  flow_exit: (f) => ({ t: "flow_exit", id: f.integer("id"), reason: f.optionalString("reason") }),
  flow_wait: (f) => ({
    t: "flow_wait",
    id: f.integer("id"),
    kind: f.oneOf("kind", FLOW_WAIT_KINDS),
    ms: f.integer("ms"),
    context: f.optionalString("context"),
    maxRetries: f.optionalInteger("maxRetries"),
  }),
  send: (f) => ({
    t: "send",
    id: f.integer("id"),
    kind: f.oneOf("kind", SEND_KINDS),
    params: f.string("params"),
  }),
  done: (f) =>
    f.boolean("ok")
      ? { t: "done", id: f.integer("id"), ok: true, returnValue: f.optionalString("returnValue") }
      : {
          t: "done",
          id: f.integer("id"),
          ok: false,
          error: f.error("error"),
          retire: f.optionalBoolean("retire"),
        },
  exit: (f) => ({ t: "exit", id: f.optionalInteger("id"), code: f.integer("code") }),
  definition: (f) => ({ t: "definition", definition: definitionOf(f) }),
  describe_error: (f) => ({
    t: "describe_error",
    code: f.oneOf("code", LOAD_ERROR_CODES),
    error: f.error("error"),
  }),
  egress_open: (f) => ({
    t: "egress_open",
    rid: f.integer("rid"),
    host: f.string("host"),
    port: f.integer("port"),
  }),
  data_store: (f) => ({
    t: "data_store",
    id: f.integer("id"),
    call: f.integer("call"),
    storeId: f.string("storeId"),
    op: f.string("op"),
    args: f.object("args").raw,
  }),
};

/** A runner's message, checked; never throws. */
export function parseRunnerMessage(raw: unknown): ParsedRunnerMessage {
  if (!isRecord(raw)) return { ok: false, error: "a message must be an object" };
  const { t } = raw;
  if (!isOneOf(t, RUNNER_MESSAGES)) return { ok: false, error: `unknown message kind ${JSON.stringify(t)}` };
  try {
    return { ok: true, message: RUNNER_MESSAGES[t](new Fields(raw)) };
  } catch (error) {
    if (!(error instanceof MalformedMessage)) throw error;
    return { ok: false, t, error: `${t}: ${error.message}` };
  }
}

/**
 * The parent's message, as the runner receives it. The parent is the trusted side (the server's
 * own code), so only its kind is checked: a message of another kind is a bug, and throws.
 */
export function parseParentMessage(raw: unknown): ParentMessage {
  if (!isRecord(raw) || !isOneOf(raw.t, PARENT_KINDS)) {
    throw new TypeError("the runner got a message of no kind it knows");
  }
  return raw as ParentMessage;
}

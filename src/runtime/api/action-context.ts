/**
 * `$`, the argument an action's `run({ steps, $ })` gets, built inside the runner (SPEC.md,
 * "Action run argument"): `$.export`, `$.respond`, `$.flow.*`, `$.send.*` and `$.context`. Nothing here
 * performs I/O: each call is checked, encoded and handed to the invocation's effects at once, and
 * sends are only queued — core performs them after the run, through the SSRF guard.
 */
import type { FlowUrls, FlowWaitKind, SendKind } from "../sandbox/sandbox.js";
import { isRecord, type UnknownRecord } from "./component-object.js";
import { type EncodedHttpResponse, encodeHttpResponse } from "./http-interface.js";
import { toJson, toStrictJson } from "./json-value.js";

/** Where an action's `$` calls go (the runner sends each to the parent as it happens). */
export interface ActionEffects {
  /** `json` is undefined when the value is undefined. */
  export(name: string, json: string | undefined): void;
  respond(response: EncodedHttpResponse): void;
  flowExit(reason: string | undefined): void;
  /** `context` is the JSON of `$.flow.rerun`'s context (undefined for none). */
  flowWait(wait: { kind: FlowWaitKind; ms: number; context?: string; maxRetries?: number }): void;
  send(kind: SendKind, json: string): void;
}

/** At most this many `$.send.*` calls per run. */
export const MAX_SENDS_PER_RUN = 100;
/** The JSON of one send's params may be at most this large. */
export const MAX_SEND_BYTES = 1024 * 1024;

/** The longest `$.flow.delay`, suspend time-out or rerun wait: one year. */
export const MAX_FLOW_WAIT_MS = 365 * 24 * 60 * 60 * 1000;
/** `$.flow.suspend()`'s time-out when none is given, as Pipedream's: 24 hours. */
export const DEFAULT_SUSPEND_MS = 24 * 60 * 60 * 1000;
/** `$.flow.rerun`'s maxRetries when none is given, and the most it may be. */
const DEFAULT_RERUN_RETRIES = 10;
const MAX_RERUN_RETRIES = 10_000;

const HTTP_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

/**
 * A fresh `$` for one run; `context` is its `$.context` (the workflow run it is a step of), and
 * `flowUrls` what `$.flow.delay`, `suspend` and `rerun` return (absent outside a workflow run).
 */
export function createActionContext(
  effects: ActionEffects,
  context: unknown = {},
  flowUrls?: FlowUrls,
): UnknownRecord {
  const state = { responded: false, sends: 0, waited: undefined as string | undefined };
  /** Records the step's one wait, and answers its URLs. */
  const wait = (
    call: string,
    kind: FlowWaitKind,
    ms: unknown,
    extra: { context?: string; maxRetries?: number } = {},
  ): FlowUrls => {
    if (!flowUrls) {
      throw new Error(`${call} makes a workflow run wait: it works only in a step of a workflow`);
    }
    if (state.waited !== undefined) {
      throw new Error(`${call}: this step already called ${state.waited}; a step waits once`);
    }
    state.waited = call;
    effects.flowWait({ kind, ms: waitMs(call, ms), ...extra });
    return { ...flowUrls };
  };
  const queue = (kind: SendKind, params: UnknownRecord): Promise<void> => {
    if (state.sends >= MAX_SENDS_PER_RUN) {
      throw new RangeError(`$.send.${kind}: a run may queue at most ${MAX_SENDS_PER_RUN} sends`);
    }
    const json = toStrictJson(params, `$.send.${kind}`);
    if (Buffer.byteLength(json) > MAX_SEND_BYTES) {
      throw new RangeError(`$.send.${kind}: the data is larger than ${MAX_SEND_BYTES / 1024 / 1024} MB`);
    }
    state.sends++;
    effects.send(kind, json);
    return Promise.resolve();
  };
  return {
    context,
    export(name: unknown, value: unknown): void {
      if (typeof name !== "string" || name === "") {
        throw new TypeError("$.export(name, value): name must be a non-empty string");
      }
      if (name === "$return_value") {
        throw new TypeError("$.export: $return_value is what run returns; return the value instead");
      }
      if (name === "$summary") {
        effects.export(name, JSON.stringify(summaryText(value)));
        return;
      }
      effects.export(name, toJson(value, `$.export(${JSON.stringify(name)})`));
    },
    respond(response: unknown): Promise<void> {
      const encoded = encodeHttpResponse(response, "$.respond()");
      if (state.responded) {
        throw new Error("$.respond() was already called in this run: a request gets one response");
      }
      state.responded = true;
      effects.respond(encoded);
      return Promise.resolve();
    },
    flow: {
      exit(reason?: unknown): void {
        if (reason !== undefined && reason !== null && typeof reason !== "string") {
          throw new TypeError("$.flow.exit(reason): the reason must be a string");
        }
        effects.flowExit(typeof reason === "string" ? reason : undefined);
      },
      delay: (ms: unknown) => wait("$.flow.delay(ms)", "delay", ms),
      suspend: (timeoutMs: unknown) =>
        wait("$.flow.suspend(timeoutMs)", "suspend", timeoutMs ?? DEFAULT_SUSPEND_MS),
      rerun(delayMs: unknown, rerunContext?: unknown, maxRetries?: unknown) {
        const call = "$.flow.rerun(delayMs, context, maxRetries)";
        const retries = maxRetries ?? DEFAULT_RERUN_RETRIES;
        if (
          !Number.isInteger(retries) ||
          (retries as number) < 1 ||
          (retries as number) > MAX_RERUN_RETRIES
        ) {
          throw new RangeError(`${call}: maxRetries must be a whole number from 1 to ${MAX_RERUN_RETRIES}`);
        }
        const json = rerunContext === undefined ? undefined : toJson(rerunContext, `${call}: context`);
        return wait(call, "rerun", delayMs, {
          ...(json === undefined ? {} : { context: json }),
          maxRetries: retries as number,
        });
      },
    },
    send: {
      http: (params: unknown) => queue("http", httpParams(params)),
      email: (params: unknown) => queue("email", emailParams(params)),
      emit: (params: unknown) => queue("emit", emitParams(params)),
      sse: (params: unknown) => queue("sse", sseParams(params)),
      s3: (params: unknown) => queue("s3", isRecord(params) ? params : {}),
    },
  };
}

/** A wait in whole milliseconds, 1 ms to a year. */
function waitMs(call: string, ms: unknown): number {
  if (typeof ms !== "number" || !Number.isFinite(ms) || ms < 1 || ms > MAX_FLOW_WAIT_MS) {
    throw new RangeError(
      `${call}: the wait must be a number of milliseconds from 1 to ${MAX_FLOW_WAIT_MS} (one year); got ${String(ms)}`,
    );
  }
  return Math.ceil(ms);
}

function summaryText(value: unknown): string {
  if (typeof value === "string") return value;
  return toJson(value, '$.export("$summary")') ?? "";
}

function paramsObject(params: unknown, call: string, shape: string): UnknownRecord {
  if (!isRecord(params)) throw new TypeError(`${call} takes an object: ${shape}`);
  return params;
}

function httpParams(params: unknown): UnknownRecord {
  const call = "$.send.http";
  const given = paramsObject(params, call, "{ method, url, headers?, params?, auth?, data? }");
  const { method, url, headers, params: query, auth, data } = given;
  if (typeof method !== "string" || !HTTP_METHODS.has(method.toUpperCase())) {
    throw new TypeError(`${call}: method is required, one of ${[...HTTP_METHODS].join(", ")}`);
  }
  if (typeof url !== "string" || !/^https?:\/\//i.test(url) || !URL.canParse(url)) {
    throw new TypeError(`${call}: url is required, an absolute http(s) URL`);
  }
  const upper = method.toUpperCase();
  if ((upper === "GET" || upper === "HEAD") && data !== undefined && data !== null) {
    throw new TypeError(`${call}: a ${upper} request has no body; pass query parameters as params`);
  }
  for (const [field, value] of [
    ["headers", headers],
    ["params", query],
  ] as const) {
    if (value !== undefined && value !== null && !isRecord(value)) {
      throw new TypeError(`${call}: ${field} must be an object of name → value`);
    }
  }
  if (auth !== undefined && auth !== null) {
    if (!isRecord(auth) || typeof auth.username !== "string" || typeof auth.password !== "string") {
      throw new TypeError(`${call}: auth must be { username, password } (HTTP basic auth)`);
    }
  }
  return { ...given, method: upper };
}

function emailParams(params: unknown): UnknownRecord {
  const call = "$.send.email";
  const given = paramsObject(params, call, "{ subject, text?, html? }");
  if (typeof given.subject !== "string" || given.subject === "") {
    throw new TypeError(`${call}: subject is required, a non-empty string`);
  }
  for (const field of ["text", "html"] as const) {
    if (given[field] !== undefined && given[field] !== null && typeof given[field] !== "string") {
      throw new TypeError(`${call}: ${field} must be a string`);
    }
  }
  return given;
}

function emitParams(params: unknown): UnknownRecord {
  const given = paramsObject(params, "$.send.emit", "{ raw_event }");
  if (given.raw_event === undefined) throw new TypeError("$.send.emit: raw_event is required");
  return given;
}

function sseParams(params: unknown): UnknownRecord {
  const given = paramsObject(params, "$.send.sse", "{ channel, payload }");
  if (typeof given.channel !== "string" || given.channel === "") {
    throw new TypeError("$.send.sse: channel is required, a non-empty string");
  }
  return given;
}

/**
 * The parent's record of one invocation in flight: effects arrive from the runner as they happen
 * (an action's exports, flow exit and queued sends too) and are kept here (so an invocation whose
 * runner dies still returns what it did), the HTTP response is passed on at once, and the result
 * is assembled when the invocation ends. The messages were checked against their shapes
 * (protocol-parse.ts); the values inside, JSON made by untrusted code, are parsed here.
 */
import type { EmitMeta } from "../api/component-instance.js";
import { MAX_DB_KEY_BYTES } from "../api/key-value-store.js";
import type { FlowWaitMessage, RespondMessage } from "./protocol.js";
import type {
  EmittedEvent,
  FlowWait,
  HttpResponse,
  Invocation,
  InvocationResult,
  LogLine,
  QueuedSend,
  SendKind,
} from "./sandbox.js";

export type Failure = NonNullable<InvocationResult["failure"]>;

export type Outcome =
  | { readonly ok: true; readonly returnValue?: string }
  | { readonly ok: false; readonly failure: Failure };

export interface SandboxLogger {
  warn(obj: object, msg: string): void;
}

export class InvocationCollector {
  private readonly emits: { readonly json: string | undefined; readonly meta: EmittedEvent["meta"] }[] = [];
  private readonly logs: LogLine[] = [];
  private readonly writes = new Map<string, string>();
  private response: HttpResponse | undefined;
  /** An action's exports by name, as JSON (undefined for an exported undefined). */
  private readonly exports = new Map<string, string | undefined>();
  private flowExitReason: string | null | undefined;
  private flowWaitCall: FlowWaitMessage | undefined;
  private readonly sends: { readonly kind: SendKind; readonly json: string }[] = [];

  constructor(
    readonly id: number,
    private readonly onRespond: Invocation["onRespond"],
    private readonly logger: SandboxLogger | undefined,
    private readonly componentId: string,
  ) {}

  emit(event: string | undefined, meta: EmitMeta): void {
    this.emits.push({ json: event, meta: presentMeta(meta) });
  }

  log(line: LogLine): void {
    this.logs.push(line);
  }

  set(key: string, json: string): void {
    // The runner's db.set refuses longer keys; a runner that sends one anyway is not believed.
    if (Buffer.byteLength(key, "utf8") > MAX_DB_KEY_BYTES) return;
    this.writes.set(key, json);
  }

  /** Passes the component's response on, once. */
  respond(message: RespondMessage): void {
    if (this.response) return;
    const response: HttpResponse = {
      status: message.status,
      headers: message.headers,
      body: Buffer.from(message.body, message.encoding),
      isJson: message.isJson,
      ...(message.immediate === true ? { immediate: true } : {}),
    };
    this.response = response;
    try {
      this.onRespond?.(response);
    } catch (error) {
      this.logger?.warn({ componentId: this.componentId, err: error }, "sandbox: onRespond threw");
    }
  }

  export(name: string, json: string | undefined): void {
    if (name === "") return;
    // Re-exporting a name replaces its value, and moves it last.
    this.exports.delete(name);
    this.exports.set(name, json);
  }

  flowExit(reason: string | undefined): void {
    this.flowExitReason = reason ?? null;
  }

  flowWait(message: FlowWaitMessage): void {
    this.flowWaitCall = message;
  }

  send(kind: SendKind, json: string): void {
    this.sends.push({ kind, json });
  }

  result(outcome: Outcome, durationMs: number): InvocationResult {
    const emits: EmittedEvent[] = [];
    for (const { json, meta } of this.emits) {
      const event = this.parse(json);
      if (event.ok) emits.push({ event: event.value, meta });
    }
    const dbWrites: Record<string, unknown> = {};
    for (const [key, json] of this.writes) {
      const value = this.parse(json);
      if (value.ok) dbWrites[key] = value.value;
    }
    const returnValue = outcome.ok ? this.parse(outcome.returnValue) : undefined;
    return {
      ok: outcome.ok,
      ...(outcome.ok ? {} : { failure: outcome.failure }),
      emits,
      dbWrites,
      logs: this.logs,
      ...(returnValue?.ok && returnValue.value !== undefined ? { returnValue: returnValue.value } : {}),
      durationMs,
      ...this.actionFields(),
    };
  }

  /** What an action did with `$`; each field only when it did something of that kind. */
  private actionFields(): Partial<InvocationResult> {
    const fields: {
      exports?: Record<string, unknown>;
      summary?: string;
      flowExit?: { reason: string | null };
      flowWait?: FlowWait;
      response?: HttpResponse;
      sends?: QueuedSend[];
    } = {};
    for (const [name, json] of this.exports) {
      const value = this.parse(json);
      if (!value.ok || value.value === undefined) continue;
      if (name === "$summary") {
        if (typeof value.value === "string") fields.summary = value.value;
      } else {
        fields.exports ??= {};
        fields.exports[name] = value.value;
      }
    }
    if (this.flowExitReason !== undefined) fields.flowExit = { reason: this.flowExitReason };
    if (this.flowWaitCall) {
      const { kind, ms, context, maxRetries } = this.flowWaitCall;
      const given = this.parse(context);
      fields.flowWait = {
        kind,
        ms,
        ...(given.ok && given.value !== undefined ? { context: given.value } : {}),
        ...(maxRetries === undefined ? {} : { maxRetries }),
      };
    }
    if (this.response) fields.response = this.response;
    for (const { kind, json } of this.sends) {
      const params = this.parse(json);
      if (
        params.ok &&
        typeof params.value === "object" &&
        params.value !== null &&
        !Array.isArray(params.value)
      ) {
        fields.sends ??= [];
        fields.sends.push({ kind, params: params.value as Record<string, unknown> });
      }
    }
    return fields;
  }

  private parse(json: string | undefined): { ok: true; value: unknown } | { ok: false } {
    if (json === undefined) return { ok: true, value: undefined };
    try {
      return { ok: true, value: JSON.parse(json) };
    } catch {
      this.logger?.warn(
        { componentId: this.componentId },
        "sandbox: dropped a malformed value from a runner",
      );
      return { ok: false };
    }
  }
}

/** The meta's fields that were given: an emitted event's meta has no keys set to undefined. */
function presentMeta({ id, name, summary, ts }: EmitMeta): EmittedEvent["meta"] {
  return {
    ...(id === undefined ? {} : { id }),
    ...(name === undefined ? {} : { name }),
    ...(summary === undefined ? {} : { summary }),
    ...(ts === undefined ? {} : { ts }),
  };
}

/** The result of an invocation that failed before anything ran. */
export function failedResult(failure: Failure, durationMs = 0): InvocationResult {
  return { ok: false, failure, emits: [], dbWrites: {}, logs: [], durationMs };
}

/** An invocation that did nothing and may be sent again (InvocationResult's `notStarted`). */
export function notStartedResult(message: string): InvocationResult {
  return { ...failedResult({ reason: "crash", message }), notStarted: true };
}

/** "500 ms", "30 s", "1.5 s". */
export function formatDuration(ms: number): string {
  if (ms < 1000) return `${ms} ms`;
  return `${Number((ms / 1000).toFixed(1))} s`;
}

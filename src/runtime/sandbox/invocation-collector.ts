/**
 * The parent's record of one invocation in flight: effects arrive from the runner as they happen
 * (an action's exports, flow exit and queued sends too) and are kept here (so an invocation whose
 * runner dies still returns what it did), the HTTP response is passed on at once, and the result
 * is assembled when the invocation ends. Messages come from a process running untrusted code, so
 * each field is checked before use.
 */
import { MAX_DB_KEY_BYTES } from "../api/key-value-store.js";
import type {
  EmittedEvent,
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

const LOG_LEVELS = new Set<string>(["log", "info", "warn", "error", "debug"]);
const SEND_KINDS = new Set<string>(["http", "email", "emit", "sse", "s3"]);

export class InvocationCollector {
  private readonly emits: { readonly json: string | undefined; readonly meta: EmittedEvent["meta"] }[] = [];
  private readonly logs: LogLine[] = [];
  private readonly writes = new Map<string, string>();
  private response: HttpResponse | undefined;
  /** An action's exports by name, as JSON (undefined for an exported undefined). */
  private readonly exports = new Map<string, string | undefined>();
  private flowExitReason: string | null | undefined;
  private readonly sends: { readonly kind: SendKind; readonly json: string }[] = [];

  constructor(
    readonly id: number,
    private readonly onRespond: Invocation["onRespond"],
    private readonly logger: SandboxLogger | undefined,
    private readonly componentId: string,
  ) {}

  emit(event: unknown, meta: unknown): void {
    if (event !== undefined && typeof event !== "string") return;
    this.emits.push({ json: event, meta: checkedMeta(meta) });
  }

  log(line: unknown): void {
    if (typeof line !== "object" || line === null) return;
    const { ts, level, message } = line as Record<string, unknown>;
    if (typeof ts !== "number" || typeof level !== "string" || !LOG_LEVELS.has(level)) return;
    if (typeof message !== "string") return;
    this.logs.push({ ts, level: level as LogLine["level"], message });
  }

  set(key: unknown, json: unknown): void {
    // The runner's db.set refuses longer keys; a runner that sends one anyway is not believed.
    if (typeof key !== "string" || typeof json !== "string") return;
    if (Buffer.byteLength(key, "utf8") > MAX_DB_KEY_BYTES) return;
    this.writes.set(key, json);
  }

  /** Passes the component's response on, once. */
  respond(message: Record<string, unknown>): void {
    const { status, headers, body, encoding, isJson } = message;
    if (this.response || typeof status !== "number" || typeof body !== "string") return;
    if (typeof headers !== "object" || headers === null) return;
    const response: HttpResponse = {
      status,
      headers: Object.fromEntries(
        Object.entries(headers).filter((entry): entry is [string, string] => typeof entry[1] === "string"),
      ),
      body: Buffer.from(body, encoding === "base64" ? "base64" : "utf8"),
      isJson: isJson === true,
      ...(message.immediate === true ? { immediate: true } : {}),
    };
    this.response = response;
    try {
      this.onRespond?.(response);
    } catch (error) {
      this.logger?.warn({ componentId: this.componentId, err: error }, "sandbox: onRespond threw");
    }
  }

  export(name: unknown, json: unknown): void {
    if (typeof name !== "string" || name === "") return;
    if (json !== undefined && typeof json !== "string") return;
    // Re-exporting a name replaces its value, and moves it last.
    this.exports.delete(name);
    this.exports.set(name, json);
  }

  flowExit(reason: unknown): void {
    this.flowExitReason = typeof reason === "string" ? reason : null;
  }

  send(kind: unknown, json: unknown): void {
    if (typeof kind !== "string" || !SEND_KINDS.has(kind) || typeof json !== "string") return;
    this.sends.push({ kind: kind as SendKind, json });
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

function checkedMeta(meta: unknown): EmittedEvent["meta"] {
  if (typeof meta !== "object" || meta === null) return {};
  const { id, name, summary, ts } = meta as Record<string, unknown>;
  return {
    ...(typeof id === "string" || typeof id === "number" ? { id } : {}),
    ...(typeof name === "string" ? { name } : {}),
    ...(typeof summary === "string" ? { summary } : {}),
    ...(typeof ts === "number" ? { ts } : {}),
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

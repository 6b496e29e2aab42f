/**
 * `$.interface.http` inside the runner: `this.<prop>.endpoint` and `this.<prop>.respond(...)`.
 * respond validates its argument, encodes the body (text, JSON or bytes) and hands it over at
 * once, so the caller gets its response before `run` settles. One response per invocation. An
 * action's `$.respond` (action-context.ts) encodes its argument the same way.
 */
import { isRecord } from "./component-object.js";

/** What respond hands over: the body as UTF-8 text or base64 bytes. */
export interface EncodedHttpResponse {
  readonly status: number;
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly encoding: "utf8" | "base64";
  readonly isJson: boolean;
  /** `$.respond({ immediate: true })` (actions). */
  readonly immediate?: boolean;
}

export interface HttpInterface {
  readonly endpoint: string;
  respond(response: unknown): Promise<void>;
}

export function createHttpInterface(
  endpoint: string,
  state: { responded: boolean },
  send: (response: EncodedHttpResponse) => void,
): HttpInterface {
  return {
    endpoint,
    respond(response: unknown): Promise<void> {
      const encoded = encodeHttpResponse(response, "respond()");
      if (state.responded) {
        throw new Error("respond() was already called in this invocation: a request gets one response");
      }
      state.responded = true;
      send(encoded);
      return Promise.resolve();
    },
  };
}

/**
 * Checks and encodes the argument of respond() (`call` names the function in errors). An action's
 * `$.respond` also takes `immediate`.
 */
export function encodeHttpResponse(response: unknown, call: string): EncodedHttpResponse {
  if (!isRecord(response)) {
    throw new TypeError(`${call} takes an object: { status, headers?, body? }`);
  }
  const { status, immediate } = response;
  if (typeof status !== "number" || !Number.isInteger(status) || status < 100 || status > 599) {
    throw new RangeError(`${call}: status must be an integer from 100 to 599, got ${describeValue(status)}`);
  }
  if (immediate !== undefined && typeof immediate !== "boolean") {
    throw new TypeError(`${call}: immediate must be true or false`);
  }
  return {
    status,
    headers: encodeHeaders(response.headers, call),
    ...encodeBody(response.body, call),
    ...(immediate === true ? { immediate } : {}),
  };
}

function encodeHeaders(headers: unknown, call: string): Record<string, string> {
  if (headers === undefined || headers === null) return {};
  if (!isRecord(headers)) throw new TypeError(`${call}: headers must be an object of header name → value`);
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || value === null) continue;
    if (typeof value === "string") out[name] = value;
    else if (typeof value === "number" || typeof value === "boolean") out[name] = String(value);
    else if (Array.isArray(value)) out[name] = value.map(String).join(", ");
    else throw new TypeError(`${call}: header "${name}" must be a string, got ${typeof value}`);
  }
  return out;
}

function encodeBody(body: unknown, call: string): Pick<EncodedHttpResponse, "body" | "encoding" | "isJson"> {
  if (body === undefined || body === null) return { body: "", encoding: "utf8", isJson: false };
  if (typeof body === "string") return { body, encoding: "utf8", isJson: false };
  if (body instanceof Uint8Array) {
    const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
    return { body: bytes.toString("base64"), encoding: "base64", isJson: false };
  }
  if (body instanceof ArrayBuffer) {
    return { body: Buffer.from(body).toString("base64"), encoding: "base64", isJson: false };
  }
  let json: string | undefined;
  try {
    json = JSON.stringify(body);
  } catch (error) {
    const reason = error instanceof Error ? (error.message.split("\n")[0] ?? "") : String(error);
    throw new TypeError(`${call}: the body is not JSON-serializable (${reason})`);
  }
  if (json === undefined) {
    throw new TypeError(`${call}: body must be a string, an object or a Buffer, got ${typeof body}`);
  }
  return { body: json, encoding: "utf8", isJson: true };
}

function describeValue(value: unknown): string {
  return typeof value === "string" ? JSON.stringify(value) : String(value);
}

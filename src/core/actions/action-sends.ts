/**
 * Performs an action's queued `$.send.*` calls after its run, and reports each one's outcome.
 * `http` goes through the SSRF guard (checked after DNS, at connect time; redirects are not
 * followed, so a redirect cannot lead past the guard); `email` through the configured SMTP server;
 * `emit` and `sse` are only recorded (a workflow routes them); `s3` has no destination yet. The
 * params come from untrusted code, so each is checked again here; a bad one fails its own send.
 */
import { type Dispatcher, fetch } from "undici";
import type { QueuedSend, SendKind } from "../../runtime/sandbox/sandbox.js";
import type { Email, Mailer } from "../outbound/smtp-mailer.js";
import {
  type AddressPolicy,
  BlockedAddressError,
  checkUrlHost,
  createGuardedAgent,
} from "../outbound/ssrf-guard.js";

export type SendOutcome =
  /** `status`: the HTTP answer; `message_id`: the SMTP server's; `recorded`: kept in the result only. */
  | { readonly ok: true; readonly status?: number; readonly message_id?: string; readonly recorded?: true }
  /** `skipped`: not attempted (the run failed). */
  | { readonly ok: false; readonly error: string; readonly status?: number; readonly skipped?: true };

export interface SendReport {
  readonly kind: SendKind;
  /** What the action asked to send, with basic-auth passwords and credential headers masked. */
  readonly input: Record<string, unknown>;
  readonly outcome: SendOutcome;
}

export interface ActionSender {
  /** Performs the sends, a few at a time; the reports are in the order of the sends. Never rejects. */
  perform(sends: readonly QueuedSend[]): Promise<SendReport[]>;
  /** Reports the sends as not attempted, with the reason. */
  skip(sends: readonly QueuedSend[], reason: string): SendReport[];
  close(): Promise<void>;
}

export interface ActionSenderOptions {
  readonly policy: AddressPolicy;
  /** Undefined when SMTP is not configured: emails fail with a message saying so. */
  readonly mailer: Mailer | undefined;
}

export const SEND_HTTP_TIMEOUT_MS = 15_000;
const PARALLEL_SENDS = 8;
const MASK = "********";
/** Header values never echoed back in a report. */
const CREDENTIAL_HEADERS = new Set(["authorization", "proxy-authorization", "cookie", "x-api-key"]);
const HTTP_METHODS = new Set(["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"]);

export const SMTP_NOT_CONFIGURED = "SMTP is not configured: set SLUICE_SMTP_URL (and SLUICE_SMTP_FROM)";
export const S3_NOT_CONFIGURED =
  "$.send.s3 is not configured: Sluice has no S3 destination yet; use $.send.http or an S3 client package";

export function createActionSender(options: ActionSenderOptions): ActionSender {
  const dispatcher = createGuardedAgent(options.policy);
  const performOne = async (send: QueuedSend): Promise<SendOutcome> => {
    try {
      switch (send.kind) {
        case "http":
          return await sendHttp(send.params, dispatcher, options.policy);
        case "email":
          return await sendEmail(send.params, options.mailer);
        case "emit":
        case "sse":
          return { ok: true, recorded: true };
        case "s3":
          return { ok: false, error: S3_NOT_CONFIGURED };
      }
    } catch (error) {
      return { ok: false, error: error instanceof Error ? error.message : String(error) };
    }
    return { ok: false, error: `unknown send kind '${String(send.kind)}'` };
  };
  return {
    async perform(sends) {
      const outcomes: SendOutcome[] = new Array(sends.length);
      let next = 0;
      const worker = async () => {
        while (next < sends.length) {
          const index = next++;
          const send = sends[index];
          if (send) outcomes[index] = await performOne(send);
        }
      };
      await Promise.all(Array.from({ length: Math.min(PARALLEL_SENDS, sends.length) }, worker));
      return sends.map((send, index) => ({
        kind: send.kind,
        input: maskedInput(send),
        outcome: outcomes[index] ?? { ok: false, error: "not sent" },
      }));
    },
    skip(sends, reason) {
      return sends.map((send) => ({
        kind: send.kind,
        input: maskedInput(send),
        outcome: { ok: false, error: reason, skipped: true },
      }));
    },
    async close() {
      options.mailer?.close();
      await dispatcher.close();
    },
  };
}

async function sendHttp(
  params: Readonly<Record<string, unknown>>,
  dispatcher: Dispatcher,
  policy: AddressPolicy,
): Promise<SendOutcome> {
  const method = typeof params.method === "string" ? params.method.toUpperCase() : "";
  if (!HTTP_METHODS.has(method)) return { ok: false, error: `invalid method '${String(params.method)}'` };
  if (typeof params.url !== "string" || !URL.canParse(params.url)) {
    return { ok: false, error: "url must be an absolute http(s) URL" };
  }
  const url = new URL(params.url);
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    return { ok: false, error: "url must be an http or https URL" };
  }
  for (const [name, value] of Object.entries(record(params.params))) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null) url.searchParams.append(name, textOf(item));
    }
  }
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(record(params.headers))) {
    if (value !== undefined && value !== null) headers[name.toLowerCase()] = textOf(value);
  }
  const auth = record(params.auth);
  if (typeof auth.username === "string" && typeof auth.password === "string") {
    headers.authorization = `Basic ${Buffer.from(`${auth.username}:${auth.password}`).toString("base64")}`;
  }
  let body: string | undefined;
  if (params.data !== undefined && params.data !== null && method !== "GET" && method !== "HEAD") {
    if (typeof params.data === "string") body = params.data;
    else {
      body = JSON.stringify(params.data);
      headers["content-type"] ??= "application/json";
    }
  }
  headers["user-agent"] ??= "Sluice-Actions/1";
  try {
    checkUrlHost(policy, url);
    const response = await fetch(url, {
      method,
      headers,
      body,
      dispatcher,
      redirect: "manual",
      signal: AbortSignal.timeout(SEND_HTTP_TIMEOUT_MS),
    });
    await response.body?.cancel().catch(() => {});
    if (response.status >= 200 && response.status < 300) return { ok: true, status: response.status };
    const redirect = response.status >= 300 && response.status < 400 ? " (redirects are not followed)" : "";
    return { ok: false, status: response.status, error: `the server answered ${response.status}${redirect}` };
  } catch (error) {
    return { ok: false, error: httpErrorMessage(error) };
  }
}

async function sendEmail(
  params: Readonly<Record<string, unknown>>,
  mailer: Mailer | undefined,
): Promise<SendOutcome> {
  if (mailer === undefined) return { ok: false, error: SMTP_NOT_CONFIGURED };
  if (typeof params.subject !== "string" || params.subject === "") {
    return { ok: false, error: "subject is required, a non-empty string" };
  }
  const email: Email = {
    subject: params.subject,
    ...(typeof params.text === "string" ? { text: params.text } : {}),
    ...(typeof params.html === "string" ? { html: params.html } : {}),
  };
  const sent = await mailer.send(email);
  return { ok: true, message_id: sent.messageId };
}

function httpErrorMessage(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  if (error instanceof BlockedAddressError) return error.message;
  if (cause instanceof BlockedAddressError) return cause.message;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `no answer within ${SEND_HTTP_TIMEOUT_MS / 1000} s`;
  }
  if (cause instanceof Error) return cause.message;
  return error instanceof Error ? error.message : String(error);
}

function maskedInput(send: QueuedSend): Record<string, unknown> {
  const input: Record<string, unknown> = { ...send.params };
  if (send.kind === "http") {
    const auth = record(input.auth);
    if ("password" in auth) input.auth = { ...auth, password: MASK };
    const headers = record(input.headers);
    if (Object.keys(headers).some((name) => CREDENTIAL_HEADERS.has(name.toLowerCase()))) {
      input.headers = Object.fromEntries(
        Object.entries(headers).map(([name, value]) => [
          name,
          CREDENTIAL_HEADERS.has(name.toLowerCase()) ? MASK : value,
        ]),
      );
    }
  }
  return input;
}

function record(value: unknown): Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

function textOf(value: unknown): string {
  return typeof value === "string"
    ? value
    : typeof value === "object"
      ? JSON.stringify(value)
      : String(value);
}

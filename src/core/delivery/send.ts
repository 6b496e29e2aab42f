/**
 * One delivery attempt over HTTP: the event as JSON, signed per Standard Webhooks
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`), plus Sluice's own headers. Success is
 * a 2xx within 15 s; redirects are not followed; connections go only where the SSRF guard allows.
 */

import type { IncomingHttpHeaders } from "node:http";
import { Webhook } from "standardwebhooks";
import type { Dispatcher } from "undici";
import { type AddressPolicy, BlockedAddressError, checkUrlHost } from "../outbound/ssrf-guard.js";
import { storableText } from "../storable-text.js";

export const DELIVERY_TIMEOUT_MS = 15_000;
const KEPT_RESPONSE_BYTES = 1024;

export interface DeliveryRequest {
  readonly url: string;
  readonly messageId: string;
  readonly payload: string;
  /** Signers of the current signing secret and, during a rotation, of the previous one. */
  readonly signers: readonly Signer[];
  readonly emitterId: string;
  readonly channel: string | null;
  readonly attempt: number;
}

export interface DeliveryOutcome {
  readonly ok: boolean;
  readonly statusCode: number | null;
  readonly latencyMs: number;
  readonly error: string | null;
  readonly retryAfter: string | undefined;
  readonly responseBody: string | null;
}

/** Signs per Standard Webhooks with one secret. */
export type Signer = Pick<Webhook, "sign">;

/** Sealed secrets (core/secret-box.ts) kept opened as signers: a hot webhook's, for every delivery. */
const KEPT_SIGNERS = 1000;

/**
 * The signer of each sealed signing secret, opened once: opening (AES-GCM) and decoding a secret
 * cost as much as the signature itself. A rotated secret is another sealed text, so it gets a
 * signer of its own; the oldest are dropped past KEPT_SIGNERS.
 */
export function createSigners(open: (sealed: string) => string): (sealed: string) => Signer {
  const kept = new Map<string, Signer>();
  return (sealed) => {
    let signer = kept.get(sealed);
    if (!signer) {
      signer = new Webhook(open(sealed));
      if (kept.size >= KEPT_SIGNERS) kept.delete(kept.keys().next().value as string);
      kept.set(sealed, signer);
    }
    return signer;
  };
}

export async function sendDelivery(
  delivery: DeliveryRequest,
  dispatcher: Dispatcher,
  policy: AddressPolicy,
): Promise<DeliveryOutcome> {
  const started = performance.now();
  const timestamp = new Date();
  const signature = delivery.signers
    .map((signer) => signer.sign(delivery.messageId, timestamp, delivery.payload))
    .join(" ");
  const latency = () => Math.round(performance.now() - started);
  try {
    const url = new URL(delivery.url);
    checkUrlHost(policy, url);
    const response = await exchange(
      dispatcher,
      url,
      {
        "content-type": "application/json",
        "user-agent": "Sluice-Webhooks/1",
        "webhook-id": delivery.messageId,
        "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
        "webhook-signature": signature,
        "x-sluice-emitter-id": delivery.emitterId,
        "x-sluice-channel": delivery.channel ?? "",
        "x-sluice-attempt": String(delivery.attempt),
      },
      delivery.payload,
    );
    const ok = response.statusCode >= 200 && response.statusCode < 300;
    const retryAfter = response.headers["retry-after"];
    return {
      ok,
      statusCode: response.statusCode,
      latencyMs: latency(),
      error: ok
        ? null
        : `the endpoint answered ${response.statusCode}${response.statusCode >= 300 && response.statusCode < 400 ? " (redirects are not followed)" : ""}`,
      retryAfter: Array.isArray(retryAfter) ? retryAfter[0] : retryAfter,
      responseBody: response.body,
    };
  } catch (error) {
    return {
      ok: false,
      statusCode: null,
      latencyMs: latency(),
      error: describeFailure(error),
      retryAfter: undefined,
      responseBody: null,
    };
  }
}

interface Answer {
  readonly statusCode: number;
  readonly headers: IncomingHttpHeaders;
  /** The first KEPT_RESPONSE_BYTES of the answer's body as text, or null if it had none. */
  readonly body: string | null;
}

/**
 * The POST and its answer through undici's dispatch API, which spares `request()`'s body stream and
 * abort listener: the whole exchange within DELIVERY_TIMEOUT_MS, and the body read only as far as
 * KEPT_RESPONSE_BYTES (the connection is then dropped rather than read on).
 */
function exchange(
  dispatcher: Dispatcher,
  url: URL,
  headers: Record<string, string>,
  body: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    let controller: Dispatcher.DispatchController | undefined;
    let statusCode = 0;
    let answerHeaders: IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    let kept = 0;
    let settled = false;
    const settle = (outcome: { answer: Answer } | { error: unknown }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      if ("answer" in outcome) resolve(outcome.answer);
      else reject(outcome.error);
    };
    const answer = (): Answer => ({ statusCode, headers: answerHeaders, body: keptText(chunks, kept) });
    // Settles at the deadline whatever the exchange is doing (connecting included), and stops it.
    const timer = setTimeout(() => {
      const timedOut = new DOMException("The delivery timed out", "TimeoutError");
      settle({ error: timedOut });
      controller?.abort(timedOut);
    }, DELIVERY_TIMEOUT_MS);
    timer.unref();
    dispatcher.dispatch(
      {
        origin: url.origin,
        path: `${url.pathname}${url.search}`,
        method: "POST",
        headers,
        body,
        headersTimeout: DELIVERY_TIMEOUT_MS,
        bodyTimeout: DELIVERY_TIMEOUT_MS,
      },
      {
        onRequestStart(started) {
          controller = started;
          // The deadline passed before the request reached a connection.
          if (settled) started.abort(new DOMException("The delivery timed out", "TimeoutError"));
        },
        onResponseStart(_controller, status, responseHeaders) {
          statusCode = status;
          answerHeaders = responseHeaders;
        },
        onResponseData(started, chunk) {
          chunks.push(chunk);
          kept += chunk.length;
          // Enough of the body kept: the answer is complete as far as Sluice reads it.
          if (kept >= KEPT_RESPONSE_BYTES) {
            settle({ answer: answer() });
            started.abort(new Error("the answer's body was read as far as it is kept"));
          }
        },
        onResponseEnd() {
          settle({ answer: answer() });
        },
        onResponseError(_controller, error) {
          settle({ error });
        },
      },
    );
  });
}

/** The kept bytes as text for the attempt log, or null if the body was empty. */
function keptText(chunks: readonly Buffer[], length: number): string | null {
  if (length === 0) return null;
  const bytes = chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks, length);
  // Kept as text in the attempt log: a binary answer's NUL bytes must not fail that write.
  return storableText(bytes.subarray(0, KEPT_RESPONSE_BYTES).toString("utf8"));
}

function describeFailure(error: unknown): string {
  const cause = (error as { cause?: unknown }).cause;
  for (const candidate of [error, cause]) {
    if (candidate instanceof BlockedAddressError) return `refused: ${candidate.message}`;
  }
  const name = (error as Error).name;
  if (name === "TimeoutError" || name === "AbortError" || /timeout/i.test((error as Error).message)) {
    return `no answer within ${DELIVERY_TIMEOUT_MS / 1000} s`;
  }
  const code = (error as { code?: string }).code ?? (cause as { code?: string } | undefined)?.code;
  const message = (cause as Error | undefined)?.message ?? (error as Error).message;
  return code ? `${code}: ${message}` : message;
}

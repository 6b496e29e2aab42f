/**
 * One delivery attempt over HTTP: the event as JSON, signed per Standard Webhooks
 * (`webhook-id`, `webhook-timestamp`, `webhook-signature`), plus Sluice's own headers. Success is
 * a 2xx within 15 s; redirects are not followed; connections go only where the SSRF guard allows.
 */
import { Webhook } from "standardwebhooks";
import { type Dispatcher, request } from "undici";
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

/** Sealed secrets (store/secret-box.ts) kept opened as signers: a hot webhook's, for every delivery. */
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
  // The whole exchange, answer and body, within the timeout. Cleared when it ends: a signal of
  // AbortSignal.timeout() keeps its timer for the full 15 s after every delivery, then fires it.
  const deadline = new AbortController();
  const timer = setTimeout(
    () => deadline.abort(new DOMException("The delivery timed out", "TimeoutError")),
    DELIVERY_TIMEOUT_MS,
  );
  timer.unref();
  try {
    checkUrlHost(policy, new URL(delivery.url));
    const response = await request(delivery.url, {
      method: "POST",
      dispatcher,
      headers: {
        "content-type": "application/json",
        "user-agent": "Sluice-Webhooks/1",
        "webhook-id": delivery.messageId,
        "webhook-timestamp": String(Math.floor(timestamp.getTime() / 1000)),
        "webhook-signature": signature,
        "x-sluice-emitter-id": delivery.emitterId,
        "x-sluice-channel": delivery.channel ?? "",
        "x-sluice-attempt": String(delivery.attempt),
      },
      body: delivery.payload,
      headersTimeout: DELIVERY_TIMEOUT_MS,
      bodyTimeout: DELIVERY_TIMEOUT_MS,
      signal: deadline.signal,
    });
    const responseBody = await readSome(response.body);
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
      responseBody,
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
  } finally {
    clearTimeout(timer);
  }
}

async function readSome(body: Dispatcher.ResponseData["body"]): Promise<string | null> {
  let kept = Buffer.alloc(0);
  for await (const chunk of body) {
    kept = Buffer.concat([kept, chunk as Buffer]);
    if (kept.length >= KEPT_RESPONSE_BYTES) {
      body.destroy();
      break;
    }
  }
  // Kept as text in the attempt log: a binary answer's NUL bytes must not fail that write.
  return kept.length === 0 ? null : storableText(kept.subarray(0, KEPT_RESPONSE_BYTES).toString("utf8"));
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

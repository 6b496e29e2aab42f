/**
 * Helpers for the subscription and delivery suites: a source that emits on request through its
 * HTTP endpoint, the subscription / delivery / webhook routes the typed client does not wrap yet,
 * and checks of what a receiver got (every delivery verified with the `standardwebhooks` package).
 */
import { Webhook } from "standardwebhooks";
import type { SluiceClient } from "../../src/client/client.js";
import type { RecordedRequest } from "./recorder.js";
import { waitUntil } from "./wait.js";

// Kept here too: the delivery suites import it from this module.
export { waitUntil };

/**
 * A source that emits `count` events per request to its endpoint: `{tag, n, emitted_at}` with
 * n from `start`, on `channel` (the default channel when absent).
 */
export const EMITTER_SOURCE = `export default {
  name: "emitter",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    const { count = 1, channel, tag = "", start = 0 } = event.body ?? {};
    for (let n = 0; n < count; n++) {
      this.$emit({ tag, n: start + n, emitted_at: Date.now() }, channel ? { name: channel } : {});
    }
  },
};`;

export interface EmittedPayload {
  tag: string;
  n: number;
  emitted_at: number;
}

export interface EmitterSource {
  readonly id: string;
  readonly endpointUrl: string;
}

export async function deployEmitter(client: SluiceClient, name?: string): Promise<EmitterSource> {
  const source = await client.deploySource({ component_code: EMITTER_SOURCE, name });
  if (!source.endpoint_url) throw new Error(`source ${source.id} has no endpoint URL`);
  return { id: source.id, endpointUrl: source.endpoint_url };
}

/** Triggers the source once; resolves when Sluice has accepted (committed) its events. */
export async function emit(
  source: EmitterSource,
  options: { count?: number; channel?: string; tag?: string; start?: number } = {},
): Promise<void> {
  const response = await fetch(source.endpointUrl, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(options),
  });
  const text = await response.text();
  if (response.status !== 200) throw new Error(`the endpoint answered ${response.status}: ${text}`);
}

export interface SubscriptionView {
  id: string;
  emitter_id: string;
  listener_id: string;
  event_name: string | null;
  created_at: number;
}

export interface WebhookView {
  id: string;
  url: string;
  name: string;
  active: boolean;
  rate_limit: number | null;
  disabled_reason: string | null;
  signing_secret?: string;
}

export interface DeliveryView {
  id: string;
  webhook_id: string;
  emitter_id: string;
  event_id: string;
  channel: string | null;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface AttemptView {
  attempt: number;
  at: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_body: string | null;
}

/** The delivery routes over REST, through the typed client's generic calls. */
export class DeliveryApi {
  constructor(readonly client: SluiceClient) {}

  createWebhook(input: { url: string; name: string; rate_limit?: number | null }) {
    return this.client.data<WebhookView & { signing_secret: string }>("POST", "/v1/webhooks", {
      body: input,
    });
  }

  getWebhook(id: string) {
    return this.client.data<WebhookView>("GET", `/v1/webhooks/${id}`);
  }

  updateWebhook(id: string, input: Record<string, unknown>) {
    return this.client.data<WebhookView>("PUT", `/v1/webhooks/${id}`, { body: input });
  }

  rotateSecret(id: string) {
    return this.client.data<WebhookView & { signing_secret: string }>(
      "POST",
      `/v1/webhooks/${id}/rotate_secret`,
    );
  }

  subscribe(emitterId: string, listenerId: string, eventName?: string) {
    return this.client.data<SubscriptionView>("POST", "/v1/subscriptions", {
      body: { emitter_id: emitterId, listener_id: listenerId, event_name: eventName },
    });
  }

  unsubscribe(emitterId: string, listenerId: string, eventName?: string) {
    return this.client.data<SubscriptionView>("DELETE", "/v1/subscriptions", {
      body: { emitter_id: emitterId, listener_id: listenerId, event_name: eventName },
    });
  }

  async listSubscriptions(): Promise<SubscriptionView[]> {
    const page = await this.client.request<{ data: SubscriptionView[] }>(
      "GET",
      "/v1/users/me/subscriptions",
      {
        query: { limit: 100 },
      },
    );
    return page.data;
  }

  /** Every delivery of a webhook (all pages), optionally of one status. */
  async listDeliveries(webhookId: string, status?: DeliveryView["status"]): Promise<DeliveryView[]> {
    const all: DeliveryView[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await this.client.request<{
        data: DeliveryView[];
        page_info: { end_cursor: string | null; count: number };
      }>("GET", `/v1/webhooks/${webhookId}/deliveries`, { query: { limit: 100, status, after } });
      all.push(...page.data);
      if (page.data.length < 100 || !page.page_info.end_cursor) return all;
      after = page.page_info.end_cursor;
    }
  }

  getDelivery(id: string) {
    return this.client.data<DeliveryView & { attempt_log: AttemptView[] }>("GET", `/v1/deliveries/${id}`);
  }

  retry(id: string) {
    return this.client.data<DeliveryView>("POST", `/v1/deliveries/${id}/retry`);
  }

  recover(webhookId: string, since: number | string) {
    return this.client.data<{ resent: number }>("POST", `/v1/webhooks/${webhookId}/recover`, {
      query: { since },
    });
  }
}

/**
 * The webhook's deliveries once none is pending. A delivery commits with its event, so once the
 * events in question are stored this is the sign that the webhook's work on them is over: every
 * request it was going to make has been answered, and a count taken now is final.
 */
export function settledDeliveries(
  api: DeliveryApi,
  webhookId: string,
  timeoutMs = 15_000,
): Promise<DeliveryView[]> {
  return waitUntil(
    `the deliveries of webhook ${webhookId} to settle`,
    async () => {
      const all = await api.listDeliveries(webhookId);
      return all.every((delivery) => delivery.status !== "pending") ? all : undefined;
    },
    timeoutMs,
  );
}

/**
 * Verifies a received delivery with the `standardwebhooks` package under `secret` and returns its
 * payload; throws (failing the test) when the signature does not verify.
 */
export function verifyDelivery(request: RecordedRequest, secret: string): EmittedPayload {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(request.headers)) {
    if (typeof value === "string") headers[name] = value;
  }
  return new Webhook(secret).verify(request.body, headers) as EmittedPayload;
}

export function header(request: RecordedRequest, name: string): string {
  const value = request.headers[name];
  if (typeof value !== "string") throw new Error(`the delivery has no ${name} header`);
  return value;
}

/** Distinct `webhook-id`s among the requests. */
export function distinctMessageIds(requests: readonly RecordedRequest[]): Set<string> {
  return new Set(requests.map((request) => header(request, "webhook-id")));
}

/** The p-th percentile (0–100) of the values, nearest rank. */
export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] ?? Number.NaN;
}

/** Reads one sample (the sum over every label set matching `labels`) from a Prometheus text page. */
export function metricValue(page: string, name: string, labels: Record<string, string> = {}): number {
  let total = 0;
  let found = false;
  for (const line of page.split("\n")) {
    if (!line.startsWith(name)) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(\{[^}]*\})?\s+(\S+)$/.exec(line);
    if (!match || match[1] !== name) continue;
    const text = match[2] ?? "";
    if (!Object.entries(labels).every(([key, value]) => text.includes(`${key}="${value}"`))) continue;
    total += Number(match[3]);
    found = true;
  }
  if (!found) throw new Error(`no sample of ${name} ${JSON.stringify(labels)} in the metrics page`);
  return total;
}

/** The most arrivals (epoch ms) in any window of one second. */
export function busiestSecond(arrivals: readonly number[]): number {
  const sorted = [...arrivals].sort((a, b) => a - b);
  let most = 0;
  let start = 0;
  for (let end = 0; end < sorted.length; end++) {
    while ((sorted[end] as number) - (sorted[start] as number) >= 1000) start++;
    most = Math.max(most, end - start + 1);
  }
  return most;
}

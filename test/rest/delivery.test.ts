/**
 * The delivery contract over a real socket: events emitted by a source reach real local receivers,
 * signed per Standard Webhooks (every delivery verified with the `standardwebhooks` package),
 * retried on a short SLUICE_RETRY_SCHEDULE, logged, resent, recovered; 410 disables; secrets rotate;
 * /metrics counts it all; and the SSRF guard refuses loopback unless SLUICE_ALLOWED_CIDRS allows it.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import pg from "pg";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import {
  type AnswerFunction,
  heldAnswer,
  type RecordedRequest,
  type Recorder,
  startRecorder,
} from "../support/recorder.js";
import { rawRequest, startTestServer, type TestServer } from "../support/server.js";
import { deleteUnderWay, slowDeletesFrom } from "../support/slow-deletes.js";
import { holdsThroughout, letTimePass } from "../support/wait.js";
import {
  DeliveryApi,
  type DeliveryView,
  deployEmitter,
  EMITTER_SOURCE,
  type EmitterSource,
  emit,
  header,
  metricValue,
  percentile,
  verifyDelivery,
  waitUntil,
} from "../support/webhook-delivery.js";

/** Attempts the metrics page counts with `outcome`; 0 before the counter has a sample of it. */
function attemptsCounted(page: string, outcome: string): number {
  try {
    return metricValue(page, "sluice_delivery_attempts_total", { outcome });
  } catch {
    return 0;
  }
}

/** Four attempts: at once, then 0.2 s apart (±20 % jitter). */
const RETRY_SCHEDULE = "0,0.2,0.2,0.2";
const ATTEMPTS = 4;

interface Hook {
  readonly id: string;
  readonly path: string;
  secret: string;
  received(): RecordedRequest[];
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`webhook delivery on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let api: DeliveryApi;
    let recorder: Recorder;
    /** How the recorder answers each path; 200 when unlisted. */
    const answers = new Map<string, AnswerFunction>();
    /** The signing secrets of the webhook at each path (more than one after a rotation). */
    const secrets = new Map<string, string[]>();

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database, {
        env: {
          SLUICE_ALLOWED_CIDRS: "127.0.0.0/8",
          SLUICE_RETRY_SCHEDULE: RETRY_SCHEDULE,
          SLUICE_RATE_LIMIT: "100000",
        },
      });
      api = new DeliveryApi(sluice.client);
      recorder = await startRecorder((request) =>
        (answers.get(request.url) ?? (() => ({ status: 200 })))(request),
      );
    });
    afterAll(async () => {
      await sluice?.close();
      await recorder?.close();
      await database?.cleanup();
    });
    // Every delivery any test received verifies with the standardwebhooks package under one of
    // its webhook's secrets; a request to a path no webhook points at is a failure too.
    afterEach(() => {
      for (const request of recorder?.requests.splice(0) ?? []) {
        const candidates = secrets.get(request.url) ?? [];
        const verifies = candidates.some((secret) => {
          try {
            verifyDelivery(request, secret);
            return true;
          } catch {
            return false;
          }
        });
        expect(verifies, `the delivery to ${request.url} verifies`).toBe(true);
      }
    });

    /** The deliveries and delivery jobs left of a webhook, counted in the database. */
    async function leftOf(webhookId: string): Promise<{ deliveries: number; jobs: number }> {
      const db = sluice.server.store.db;
      const [deliveries, jobs] = await Promise.all([
        db.selectFrom("deliveries").select("id").where("webhook_id", "=", webhookId).execute(),
        db.selectFrom("jobs").select("id").where("group_key", "=", webhookId).execute(),
      ]);
      return { deliveries: deliveries.length, jobs: jobs.length };
    }

    /**
     * The webhook's jobs still queued. None, with its deliveries settled, means no attempt is due
     * or under way: what the receiver got is all it will get.
     */
    async function queuedJobs(webhookId: string): Promise<number> {
      const jobs = await sluice.server.store.db
        .selectFrom("jobs")
        .select("id")
        .where("group_key", "=", webhookId)
        .where("state", "=", "queued")
        .execute();
      return jobs.length;
    }

    /** A webhook to the recorder at `path` answered by `answer`, subscribed to `source`. */
    async function hookAt(
      path: string,
      source: EmitterSource | undefined,
      answer?: AnswerFunction,
    ): Promise<Hook> {
      if (answer) answers.set(path, answer);
      const webhook = await api.createWebhook({ url: `${recorder.url}${path}`, name: path });
      secrets.set(path, [webhook.signing_secret]);
      if (source) await api.subscribe(source.id, webhook.id);
      return {
        id: webhook.id,
        path,
        secret: webhook.signing_secret,
        received: () => recorder.requests.filter((request) => request.url === path),
      };
    }

    /** Waits until every delivery of the webhook has settled (delivered or failed). */
    async function settled(webhookId: string, count: number, timeoutMs = 10_000): Promise<DeliveryView[]> {
      return waitUntil(
        `${count} settled deliveries of ${webhookId}`,
        async () => {
          const deliveries = await api.listDeliveries(webhookId);
          return deliveries.length === count && deliveries.every((delivery) => delivery.status !== "pending")
            ? deliveries
            : undefined;
        },
        timeoutMs,
      );
    }

    it("delivers every event of an invocation that emits more than the source keeps", async () => {
      const deployed = await sluice.client.deploySource({ component_code: EMITTER_SOURCE, max_events: 3 });
      const source = { id: deployed.id, endpointUrl: deployed.endpoint_url as string };
      const hook = await hookAt("/past-retention", source);
      // Eight events in one commit: retention keeps the newest three, and drops five rows the same
      // transaction inserted; their deliveries carry their payloads, so none is lost.
      await emit(source, { count: 8, tag: "past-retention" });
      const deliveries = await settled(hook.id, 8);
      expect(deliveries.every((delivery) => delivery.status === "delivered")).toBe(true);
      const delivered = hook.received().map((request) => verifyDelivery(request, hook.secret).n);
      expect(delivered.sort((a, b) => a - b)).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
      const kept = await sluice.client.listEvents(source.id, { expand: "event" });
      expect(kept.page_info.total_count).toBe(3);
      expect(kept.data.map((event) => (event.event as { n: number }).n)).toEqual([7, 6, 5]);
    });

    it("delivers the emitted payload as JSON with Standard Webhooks signatures and Sluice's headers", async () => {
      const source = await deployEmitter(sluice.client);
      const hook = await hookAt("/contract", source);
      const count = 50;
      for (let n = 0; n < count; n++) await emit(source, { tag: "contract", start: n });
      await waitUntil("50 deliveries", () => hook.received().length >= count);

      const events = await sluice.client.listEvents(source.id, { limit: 100 });
      const eventIds = new Set(events.data.map((event) => event.id));
      const latencies: number[] = [];
      for (const request of hook.received()) {
        // Throws unless the signature verifies under the webhook's secret.
        const payload = verifyDelivery(request, hook.secret);
        expect(JSON.parse(request.body)).toEqual(payload);
        expect(payload.tag).toBe("contract");
        expect(request.method).toBe("POST");
        expect(request.headers["content-type"]).toBe("application/json");
        expect(header(request, "x-sluice-emitter-id")).toBe(source.id);
        expect(header(request, "x-sluice-channel")).toBe("");
        expect(header(request, "x-sluice-attempt")).toBe("1");
        expect(header(request, "webhook-signature")).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
        const timestamp = Number(header(request, "webhook-timestamp"));
        expect(Math.abs(timestamp * 1000 - request.at)).toBeLessThan(2000);
        // The webhook-id names the event: emitter and event id.
        const messageId = header(request, "webhook-id");
        expect(messageId.startsWith(`${source.id}-`)).toBe(true);
        expect(eventIds.has(messageId.slice(source.id.length + 1))).toBe(true);
        latencies.push(request.at - payload.emitted_at);
      }
      expect(
        hook
          .received()
          .map((request) => verifyDelivery(request, hook.secret).n)
          .sort((a, b) => a - b),
      ).toEqual(Array.from({ length: count }, (_, n) => n));
      const deliveries = await settled(hook.id, count);
      expect(deliveries.every((delivery) => delivery.status === "delivered" && delivery.attempts === 1)).toBe(
        true,
      );
      expect(deliveries.every((delivery) => delivery.last_status_code === 200)).toBe(true);
      console.log(
        `[${dialect.name}] emit-to-delivery latency over ${count} events: p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms`,
      );
    });

    it("retries by the schedule: a receiver that fails twice then succeeds gets 3 attempts with one webhook-id", async () => {
      const source = await deployEmitter(sluice.client);
      let calls = 0;
      const hook = await hookAt("/flaky", source, () =>
        ++calls <= 2 ? { status: 500, body: "down" } : { status: 200 },
      );
      await emit(source, { tag: "retry" });
      const [delivery] = await settled(hook.id, 1);

      const received = hook.received();
      expect(received).toHaveLength(3);
      expect(received.map((request) => header(request, "x-sluice-attempt"))).toEqual(["1", "2", "3"]);
      expect(new Set(received.map((request) => header(request, "webhook-id"))).size).toBe(1);
      for (const request of received) expect(verifyDelivery(request, hook.secret).tag).toBe("retry");
      for (let n = 1; n < received.length; n++) {
        const gap = (received[n]?.at ?? 0) - (received[n - 1]?.at ?? 0);
        expect(gap).toBeGreaterThanOrEqual(150);
        expect(gap).toBeLessThan(1500);
      }

      expect(delivery).toMatchObject({
        status: "delivered",
        attempts: 3,
        last_status_code: 200,
        next_attempt_at: null,
      });
      const detail = await api.getDelivery(delivery?.id ?? "");
      expect(detail.attempt_log.map((attempt) => [attempt.attempt, attempt.status_code])).toEqual([
        [1, 500],
        [2, 500],
        [3, 200],
      ]);
      expect(detail.attempt_log[0]?.error).toMatch(/answered 500/);
      expect(detail.attempt_log[0]?.response_body).toBe("down");
      expect(detail.attempt_log.every((attempt) => attempt.latency_ms >= 0)).toBe(true);
    });

    it("a receiver's answer holding NUL bytes is recorded (NUL as U+FFFD) and the delivery is sent once", async () => {
      // On PostgreSQL the attempt's insert used to fail (text cannot hold NUL): the delivery stayed
      // claimed, unrecorded, and was sent again every time its lease ran out.
      const source = await deployEmitter(sluice.client);
      const hook = await hookAt("/binary", source, () => ({ status: 200, body: "a\u0000b" }));
      await emit(source, { tag: "binary" });
      const [delivery] = await settled(hook.id, 1);
      expect(delivery).toMatchObject({ status: "delivered", attempts: 1 });
      const detail = await api.getDelivery(delivery?.id ?? "");
      expect(detail.attempt_log[0]?.response_body).toBe("a\uFFFDb");
      expect(hook.received()).toHaveLength(1);
    });

    it("an answer whose body never ends is recorded from its first 1,024 bytes, without waiting for its end", async () => {
      // The receiver sends 4 KB of its body and holds the rest back for ever: the attempt ends
      // once the kept part has come, not at the 15 s deadline.
      const endless = http.createServer((_request, response) => {
        response.writeHead(200, { "content-type": "text/plain" });
        response.write("x".repeat(4096));
      });
      await new Promise<void>((resolve) => endless.listen(0, "127.0.0.1", resolve));
      try {
        const source = await deployEmitter(sluice.client);
        const { port } = endless.address() as AddressInfo;
        const webhook = await api.createWebhook({ url: `http://127.0.0.1:${port}/endless`, name: "endless" });
        await api.subscribe(source.id, webhook.id);
        await emit(source, { tag: "endless" });
        const [delivery] = await settled(webhook.id, 1, 5_000);
        expect(delivery).toMatchObject({ status: "delivered", attempts: 1, last_status_code: 200 });
        const detail = await api.getDelivery(delivery?.id ?? "");
        expect(detail.attempt_log[0]?.response_body).toBe("x".repeat(1024));
        expect(detail.attempt_log[0]?.latency_ms).toBeLessThan(5_000);
      } finally {
        endless.closeAllConnections();
        await new Promise((resolve) => endless.close(resolve));
      }
    });

    it("a 3xx is a failure and its Location is not followed", async () => {
      const source = await deployEmitter(sluice.client);
      let calls = 0;
      const hook = await hookAt("/moved", source, () =>
        ++calls === 1
          ? { status: 302, headers: { location: `${recorder.url}/moved-target` } }
          : { status: 200 },
      );
      await emit(source, { tag: "redirect" });
      const [delivery] = await settled(hook.id, 1);
      expect(recorder.requests.filter((request) => request.url === "/moved-target")).toHaveLength(0);
      const detail = await api.getDelivery(delivery?.id ?? "");
      expect(detail.attempt_log.map((attempt) => attempt.status_code)).toEqual([302, 200]);
      expect(detail.attempt_log[0]?.error).toMatch(/302.*redirects are not followed/);
      expect(detail.status).toBe("delivered");
    });

    it("honours Retry-After on a 429, and keeps a huge Retry-After on a 503 within bounds", async () => {
      const source = await deployEmitter(sluice.client);
      let calls = 0;
      const hook = await hookAt("/throttled", source, () =>
        ++calls === 1 ? { status: 429, headers: { "retry-after": "1" } } : { status: 200 },
      );
      await emit(source, { tag: "throttled" });
      await settled(hook.id, 1);
      const [first, second] = hook.received();
      const gap = (second?.at ?? 0) - (first?.at ?? 0);
      // The schedule alone would retry after 0.2 s.
      expect(gap).toBeGreaterThanOrEqual(950);
      expect(gap).toBeLessThan(2500);
      console.log(`[${dialect.name}] Retry-After: 1 on a 429 → next attempt after ${gap} ms`);

      const slow = await hookAt("/unavailable", source, () => ({
        status: 503,
        headers: { "retry-after": "999999" },
      }));
      await emit(source, { tag: "unavailable" });
      const [pending] = await waitUntil("a first attempt at /unavailable", async () => {
        const deliveries = await api.listDeliveries(slow.id);
        return deliveries[0]?.attempts === 1 ? deliveries : undefined;
      });
      expect(pending?.status).toBe("pending");
      const delay = (pending?.next_attempt_at ?? 0) - Math.floor(Date.now() / 1000);
      // Held to the 10-hour bound, not the 11.6 days asked for.
      expect(delay).toBeGreaterThan(36_000 - 60);
      expect(delay).toBeLessThanOrEqual(36_000 + 1);
      // Still pending: a resend now is refused; it will be attempted by itself.
      await expect(api.retry(pending?.id ?? "")).rejects.toMatchObject({
        status: 409,
        code: "delivery_pending",
      });
      await api.client.deleteWebhook(slow.id);
    });

    it("an exhausted delivery is failed and stays listed; POST /v1/deliveries/{id}/retry resends it with the same webhook-id", async () => {
      const source = await deployEmitter(sluice.client);
      let healthy = false;
      const hook = await hookAt("/exhausted", source, () => (healthy ? { status: 204 } : { status: 500 }));
      await emit(source, { tag: "exhausted" });
      const [failed] = await settled(hook.id, 1);
      expect(failed).toMatchObject({
        status: "failed",
        attempts: ATTEMPTS,
        last_status_code: 500,
        next_attempt_at: null,
      });
      expect(hook.received()).toHaveLength(ATTEMPTS);
      const listed = await api.listDeliveries(hook.id, "failed");
      expect(listed.map((delivery) => delivery.id)).toEqual([failed?.id]);
      const messageId = header(hook.received()[0] as RecordedRequest, "webhook-id");

      // A resend is one attempt: still failing, it is failed again with no automatic retries.
      const resent = await api.retry(failed?.id ?? "");
      expect(resent.status).toBe("pending");
      const [again] = await settled(hook.id, 1);
      expect(again).toMatchObject({ status: "failed", attempts: ATTEMPTS + 1, next_attempt_at: null });
      expect(await queuedJobs(hook.id)).toBe(0);
      expect(hook.received()).toHaveLength(ATTEMPTS + 1);
      expect((await api.getDelivery(failed?.id ?? "")).status).toBe("failed");

      healthy = true;
      await api.retry(failed?.id ?? "");
      const [delivered] = await settled(hook.id, 1);
      expect(delivered).toMatchObject({ status: "delivered", attempts: ATTEMPTS + 2, last_status_code: 204 });
      const last = hook.received().at(-1) as RecordedRequest;
      expect(header(last, "webhook-id")).toBe(messageId);
      expect(header(last, "x-sluice-attempt")).toBe(String(ATTEMPTS + 2));
      expect(verifyDelivery(last, hook.secret).tag).toBe("exhausted");
      expect((await api.getDelivery(delivered?.id ?? "")).attempt_log).toHaveLength(ATTEMPTS + 2);
    });

    it("POST /v1/webhooks/{id}/recover?since=T resends every failed delivery created since T, and none before", async () => {
      const source = await deployEmitter(sluice.client);
      let healthy = false;
      const hook = await hookAt("/recover", source, () => (healthy ? { status: 200 } : { status: 503 }));
      await emit(source, { tag: "before", count: 2 });
      await settled(hook.id, 2);
      // T: the next whole second, after the first batch was created.
      const since = Math.ceil(Date.now() / 1000);
      // Time is the point: the second batch must be created in a later second than the first.
      await letTimePass(since * 1000 - Date.now() + 10);
      await emit(source, { tag: "after", count: 3 });
      const all = await settled(hook.id, 5);
      expect(all.every((delivery) => delivery.status === "failed")).toBe(true);
      const failedArrivals = hook.received().length;
      expect(failedArrivals).toBe(5 * ATTEMPTS);

      healthy = true;
      expect(await api.recover(hook.id, since)).toEqual({ resent: 3 });
      await waitUntil("3 resent deliveries", async () =>
        (await api.listDeliveries(hook.id, "delivered")).length === 3 ? true : undefined,
      );
      const resent = hook.received().slice(failedArrivals);
      expect(resent).toHaveLength(3);
      expect(resent.map((request) => verifyDelivery(request, hook.secret).tag)).toEqual([
        "after",
        "after",
        "after",
      ]);
      expect((await api.listDeliveries(hook.id, "failed")).length).toBe(2);

      // An ISO 8601 time works too; what was delivered is not resent.
      const earlier = new Date((since - 3600) * 1000).toISOString();
      expect(await api.recover(hook.id, earlier)).toEqual({ resent: 2 });
      await settled(hook.id, 5);
      expect((await api.listDeliveries(hook.id, "delivered")).length).toBe(5);
      expect(hook.received()).toHaveLength(failedArrivals + 5);
      await expect(api.recover(hook.id, "yesterday")).rejects.toMatchObject({ status: 400 });
    });

    it("a 410 disables the webhook (active:false, disabled_reason); PUT active:true re-enables it", async () => {
      const source = await deployEmitter(sluice.client);
      let gone = true;
      const hook = await hookAt("/gone", source, () => (gone ? { status: 410 } : { status: 200 }));
      await emit(source, { tag: "gone" });
      const [failed] = await settled(hook.id, 1);
      expect(failed).toMatchObject({ status: "failed", attempts: 1, last_status_code: 410 });
      expect(hook.received()).toHaveLength(1);
      const disabled = await api.getWebhook(hook.id);
      expect(disabled.active).toBe(false);
      expect(disabled.disabled_reason).toMatch(/410/);

      // Nothing is sent while it is disabled; what it misses is kept as failed deliveries.
      gone = false;
      await emit(source, { tag: "while-disabled" });
      await settled(hook.id, 2);
      expect(await queuedJobs(hook.id)).toBe(0);
      expect(hook.received()).toHaveLength(1);
      const missed = (await api.listDeliveries(hook.id)).find((delivery) => delivery.id !== failed?.id);
      expect(missed).toMatchObject({ status: "failed", attempts: 0 });
      expect(missed?.last_error).toMatch(/disabled/);

      const enabled = await api.updateWebhook(hook.id, { active: true });
      expect(enabled).toMatchObject({ active: true, disabled_reason: null });
      expect(await api.getWebhook(hook.id)).toMatchObject({ active: true, disabled_reason: null });
      await emit(source, { tag: "re-enabled" });
      await waitUntil("a delivery after re-enabling", () => hook.received().length === 2);
      expect(verifyDelivery(hook.received()[1] as RecordedRequest, hook.secret).tag).toBe("re-enabled");
      // Recovering sends the delivery the 410 failed and the one missed while disabled.
      expect(await api.recover(hook.id, String(failed?.created_at ?? 0))).toEqual({ resent: 2 });
      await waitUntil("the failed deliveries resent", () => hook.received().length === 4);
      const resent = hook.received().slice(2);
      expect(resent.map((request) => verifyDelivery(request, hook.secret).tag).sort()).toEqual([
        "gone",
        "while-disabled",
      ]);
      expect((await settled(hook.id, 3)).every((delivery) => delivery.status === "delivered")).toBe(true);
    });

    it("after rotate_secret, deliveries carry two signatures and verify with both the old and the new secret", async () => {
      const source = await deployEmitter(sluice.client);
      const hook = await hookAt("/rotated", source);
      const oldSecret = hook.secret;
      await emit(source, { tag: "old" });
      await waitUntil("a delivery before rotation", () => hook.received().length === 1);
      const before = hook.received()[0] as RecordedRequest;
      expect(header(before, "webhook-signature").split(" ")).toHaveLength(1);

      const rotated = await api.rotateSecret(hook.id);
      secrets.get(hook.path)?.push(rotated.signing_secret);
      expect(rotated.id).toBe(hook.id);
      expect(rotated.signing_secret).toMatch(/^whsec_/);
      expect(rotated.signing_secret).not.toBe(oldSecret);
      await emit(source, { tag: "rotated" });
      await waitUntil("a delivery after rotation", () => hook.received().length === 2);
      const after = hook.received()[1] as RecordedRequest;
      const signatures = header(after, "webhook-signature").split(" ");
      expect(signatures).toHaveLength(2);
      expect(signatures.every((signature) => signature.startsWith("v1,"))).toBe(true);
      expect(verifyDelivery(after, oldSecret).tag).toBe("rotated");
      expect(verifyDelivery(after, rotated.signing_secret).tag).toBe("rotated");
      // The delivery from before the rotation verifies only with the old secret.
      expect(() => verifyDelivery(before, rotated.signing_secret)).toThrow();
    });

    it("another account cannot read, resend or recover a webhook's deliveries: 404", async () => {
      const source = await deployEmitter(sluice.client);
      const hook = await hookAt("/private", source);
      await emit(source, { tag: "private" });
      const [delivery] = await settled(hook.id, 1);
      const stranger = new DeliveryApi((await sluice.newAccount("stranger")).client);
      await expect(stranger.getDelivery(delivery?.id ?? "")).rejects.toMatchObject({ status: 404 });
      await expect(stranger.retry(delivery?.id ?? "")).rejects.toMatchObject({ status: 404 });
      await expect(stranger.listDeliveries(hook.id)).rejects.toMatchObject({ status: 404 });
      await expect(stranger.recover(hook.id, "0")).rejects.toMatchObject({ status: 404 });
      // A resend or a recovery that went through would have queued an attempt, and left the
      // delivery pending with it, before it answered.
      expect(await api.getDelivery(delivery?.id ?? "")).toMatchObject({ status: "delivered", attempts: 1 });
      expect(await queuedJobs(hook.id)).toBe(0);
      expect(hook.received()).toHaveLength(1);
    });

    it("GET /metrics reports attempts by outcome, the attempt latency histogram, queue depth and oldest pending age", async () => {
      const scrape = async () => {
        const response = await rawRequest(`${sluice.url}/metrics`);
        expect(response.status).toBe(200);
        return response.text;
      };
      const counts = (page: string) => {
        const outcome = (name: string) => attemptsCounted(page, name);
        return {
          delivered: outcome("delivered"),
          failed_attempt: outcome("failed_attempt"),
          exhausted: outcome("exhausted"),
          histogram: metricValue(page, "sluice_delivery_attempt_duration_seconds_count"),
        };
      };
      const before = counts(await scrape());

      const source = await deployEmitter(sluice.client);
      const ok = await hookAt("/metrics-ok", source);
      const failing = await hookAt("/metrics-failing", source, () => ({ status: 500 }));
      const parked = await hookAt("/metrics-parked", source, () => ({
        status: 503,
        headers: { "retry-after": "3600" },
      }));
      await emit(source, { tag: "metrics" });
      await settled(ok.id, 1);
      await settled(failing.id, 1);
      await waitUntil("the parked delivery's first attempt", async () =>
        (await api.listDeliveries(parked.id))[0]?.attempts === 1 ? true : undefined,
      );
      // The age is in whole seconds: the parked delivery must have waited one.
      await waitUntil(
        "the parked delivery pending a second",
        async () => metricValue(await scrape(), "sluice_delivery_oldest_pending_age_seconds") >= 1,
      );

      const page = await scrape();
      const after = counts(page);
      expect(after.delivered - before.delivered).toBe(1);
      expect(after.failed_attempt - before.failed_attempt).toBe(ATTEMPTS - 1 + 1);
      expect(after.exhausted - before.exhausted).toBe(1);
      expect(after.histogram - before.histogram).toBe(1 + ATTEMPTS + 1);
      expect(page).toMatch(/^sluice_delivery_attempt_duration_seconds_bucket\{le="0\.1"\} \d+$/m);
      expect(page).toMatch(/^sluice_delivery_attempt_duration_seconds_bucket\{le="\+Inf"\} \d+$/m);
      expect(metricValue(page, "sluice_delivery_queue_depth")).toBeGreaterThanOrEqual(1);
      expect(metricValue(page, "sluice_delivery_oldest_pending_age_seconds")).toBeGreaterThanOrEqual(1);

      await api.client.deleteWebhook(parked.id);
      const drained = await scrape();
      expect(metricValue(drained, "sluice_delivery_queue_depth")).toBe(0);
      expect(metricValue(drained, "sluice_delivery_oldest_pending_age_seconds")).toBe(0);
    });

    it("a webhook deleted while events for it are being committed leaves no deliveries or jobs behind", async () => {
      const source = await deployEmitter(sluice.client);
      const hook = await hookAt("/deleted-mid-commit", source);
      const db = sluice.server.store.db;
      // On PostgreSQL the delete's transaction is held open after it deleted the webhook's
      // deliveries (at its last delete, of the webhook's rate slots): commits that read the
      // subscription before the delete committed store deliveries for the webhook after it.
      const undo = await slowDeletesFrom(database, db, "rate_slots", 0.8);
      try {
        let sending = true;
        const senders = Array.from({ length: 4 }, async () => {
          while (sending) await emit(source, { count: 3, tag: "racing" });
        });
        // The senders stop however the delete ends: left running after a failure, they outlive
        // the server and fail with it. An emit that failed fails the test.
        let sent: PromiseSettledResult<void>[];
        try {
          await waitUntil("deliveries to the webhook", () => hook.received().length >= 10 || undefined);
          await api.client.deleteWebhook(hook.id);
        } finally {
          sending = false;
          sent = await Promise.allSettled(senders);
        }
        for (const sender of sent) if (sender.status === "rejected") throw sender.reason;
        await waitUntil("nothing of the deleted webhook", async () => {
          const rows = await leftOf(hook.id);
          return rows.deliveries === 0 && rows.jobs === 0 ? rows : undefined;
        });
        // Nothing was sent for it after the delete answered, and nothing comes back later. With
        // its jobs gone nothing is due; what no row shows is a send already on its way, so the
        // window covers one.
        const received = hook.received().length;
        await holdsThroughout(
          "no request for the deleted webhook",
          () => hook.received().length === received,
          300,
        );
        expect(hook.received().length).toBe(received);
        expect(await leftOf(hook.id)).toEqual({ deliveries: 0, jobs: 0 });
      } finally {
        await undo();
      }
    });

    it("a webhook deleted while a delivery to it is being sent keeps no record of that attempt", async () => {
      const db = sluice.server.store.db;
      const counted = async () =>
        attemptsCounted((await rawRequest(`${sluice.url}/metrics`)).text, "delivered");
      const source = await deployEmitter(sluice.client);
      const answer = heldAnswer();
      const hook = await hookAt("/deleted-mid-send", source, async () => {
        await answer.held;
        return { status: 200 };
      });
      const before = await counted();
      await emit(source, { tag: "in flight" });
      await waitUntil("the delivery in flight", () => hook.received().length === 1 || undefined);
      const [delivery] = await db
        .selectFrom("deliveries")
        .select("id")
        .where("webhook_id", "=", hook.id)
        .execute();
      const deliveryId = delivery?.id as string;
      await api.client.deleteWebhook(hook.id);
      answer.release();
      // The attempt is counted as it is recorded; its record's statement follows at once.
      await waitUntil("the attempt counted", async () => ((await counted()) > before ? true : undefined));
      const attemptsOf = () =>
        db.selectFrom("delivery_attempts").select("attempt").where("delivery_id", "=", deliveryId).execute();
      // The record's statement has no signal of its own: a window long past "at once" covers it.
      await holdsThroughout("no attempt recorded", async () => (await attemptsOf()).length === 0, 500);
      const attempts = await attemptsOf();
      expect(attempts).toEqual([]);
      expect(await db.selectFrom("deliveries").select("id").where("id", "=", deliveryId).execute()).toEqual(
        [],
      );
    });

    // On PostgreSQL the delete removes the webhook's jobs one at a time (held 0.1 s each), so that
    // the deliveries in flight end while it walks them: each one's record ends its own job and
    // takes the webhook's next queued one in the same statement, and a failure's record also marks
    // the webhook failing. A record that took its next job and then waited for its own (which the
    // delete held), while the delete waited for that next job, was a deadlock; so was a record
    // holding its job and waiting for the webhook's row, deleted first. PostgreSQL then failed one
    // of the two, sometimes the delete (a 500). A record that waited for the delete then checked
    // its delivery on the snapshot of before the wait, and added an attempt to it after it was
    // gone. Under a rate limit a record takes no next job (its statement is the writes alone).
    it.each([
      { outcome: "succeed", status: 200, rateLimit: null, record: "hand on their next jobs" },
      { outcome: "fail", status: 500, rateLimit: null, record: "hand on their next jobs" },
      { outcome: "succeed", status: 200, rateLimit: 1000, record: "are rate limited" },
      { outcome: "fail", status: 500, rateLimit: 1000, record: "are rate limited" },
    ])("a webhook deleted while deliveries to it $outcome and $record is deleted, leaving no attempt", async ({
      outcome,
      status,
      rateLimit,
    }) => {
      const db = sluice.server.store.db;
      const source = await deployEmitter(sluice.client);
      const answer = heldAnswer();
      const hook = await hookAt(`/deleted-mid-hand-off/${outcome}/${rateLimit}`, source, async () => {
        await answer.held;
        return { status };
      });
      if (rateLimit !== null) await api.updateWebhook(hook.id, { rate_limit: rateLimit });
      await emit(source, { count: 24, tag: "backlog" });
      await waitUntil("8 deliveries in flight", () => hook.received().length === 8 || undefined);
      const deliveryIds = (
        await db.selectFrom("deliveries").select("id").where("webhook_id", "=", hook.id).execute()
      ).map((delivery) => delivery.id);
      const undo = await slowDeletesFrom(database, db, "jobs", 0.1, { perRow: true });
      try {
        const deleted = api.client.deleteWebhook(hook.id);
        await deleteUnderWay(database, db, "jobs", deleted);
        answer.release();
        await deleted;
      } finally {
        await undo();
      }
      await expect(api.client.getWebhook(hook.id)).rejects.toMatchObject({ status: 404 });
      await waitUntil("nothing of the deleted webhook", async () => {
        const rows = await leftOf(hook.id);
        return rows.deliveries === 0 && rows.jobs === 0 ? rows : undefined;
      });
      // The deliveries whose records ran while the delete was under way left no attempt behind.
      const attempts = await db
        .selectFrom("delivery_attempts")
        .select(["delivery_id", "attempt"])
        .where("delivery_id", "in", deliveryIds)
        .execute();
      expect(attempts).toEqual([]);
    });

    // PostgreSQL: deliveries that end together commit their records and hand-offs together, as
    // one transaction (core/delivery/hand-off-groups.ts). One that waits for a lock (here its
    // delivery's row, held by another connection) must hold up none of the others: the
    // transaction gives up on the lock, and each of its hand-offs goes again alone.
    if (dialect.name === "postgres") {
      /**
       * Eight deliveries to a new webhook, its answers held until the rows of the first three are
       * locked by another connection; then `whileLocked` runs, the lock is let go, and every one
       * must be recorded once, delivered, and sent once.
       */
      const endTogetherWithRowsLocked = async (
        path: string,
        whileLocked: (
          locker: pg.Client,
          recorded: () => Promise<string[]>,
          locked: string[],
        ) => Promise<void>,
      ) => {
        const db = sluice.server.store.db;
        const source = await deployEmitter(sluice.client);
        const answer = heldAnswer();
        const hook = await hookAt(path, source, async () => {
          await answer.held;
          return { status: 200 };
        });
        await emit(source, { count: 8, tag: "together" });
        await waitUntil("8 deliveries in flight", () => hook.received().length === 8 || undefined);
        const ids = (
          await db
            .selectFrom("deliveries")
            .select("id")
            .where("webhook_id", "=", hook.id)
            .orderBy("id")
            .execute()
        ).map((delivery) => delivery.id);
        const recorded = async () =>
          (
            await db
              .selectFrom("delivery_attempts")
              .select("delivery_id")
              .where("delivery_id", "in", ids)
              .execute()
          ).map((attempt) => attempt.delivery_id);
        // Three locked: only two hand-offs go alone while nothing is in flight, so at least one
        // of the three goes in a transaction with others.
        const locked = ids.slice(0, 3);
        const locker = new pg.Client({ connectionString: database.databaseUrl });
        await locker.connect();
        try {
          await locker.query("begin");
          await locker.query("select id from deliveries where id = any($1) for update", [locked]);
          answer.release();
          await whileLocked(locker, recorded, locked);
          await locker.query("rollback");
        } finally {
          await locker.end();
        }
        await waitUntil("all 8 recorded", async () => ((await recorded()).length === 8 ? true : undefined));
        expect((await recorded()).sort()).toEqual(ids);
        const statuses = await db.selectFrom("deliveries").select("status").where("id", "in", ids).execute();
        expect(statuses.map((delivery) => delivery.status)).toEqual(Array(8).fill("delivered"));
        expect(await queuedJobs(hook.id)).toBe(0);
        expect(hook.received()).toHaveLength(8);
      };

      it("deliveries that end together are recorded together, and one whose row is locked holds up none of the others", async () => {
        await endTogetherWithRowsLocked("/ending-together", async (_locker, recorded, locked) => {
          await waitUntil(
            "the five deliveries whose rows are free recorded",
            async () => ((await recorded()).length === 5 ? true : undefined),
            5_000,
          );
          expect((await recorded()).filter((id) => locked.includes(id))).toEqual([]);
        });
      });

      // The sessions waiting for the locked rows are ended by PostgreSQL (as a restart ends them):
      // the transaction of several among them, or the lone hand-offs it gave way to. Each of their
      // deliveries is recorded again once the database answers, without a hand-off, and none is
      // sent twice or recorded twice.
      it("deliveries whose records lose their connection while they wait together are recorded once", async () => {
        await endTogetherWithRowsLocked("/ending-together-cut", async (locker, recorded) => {
          const { rows: me } = await locker.query<{ pid: number }>("select pg_backend_pid() as pid");
          const lockerPid = me[0]?.pid;
          const watcher = new pg.Client({ connectionString: database.databaseUrl });
          await watcher.connect();
          let ended = 0;
          try {
            // Within a second, every session that waits for the locker's rows is ended.
            for (const stop = Date.now() + 1_000; Date.now() < stop; ) {
              const { rows } = await watcher.query<{ ended: boolean }>(
                "select pg_terminate_backend(pid) as ended from pg_stat_activity where $1 = any(pg_blocking_pids(pid))",
                [lockerPid],
              );
              ended += rows.filter((row) => row.ended).length;
            }
          } finally {
            await watcher.end();
          }
          expect(ended).toBeGreaterThan(0);
          await waitUntil(
            "the five deliveries whose rows are free recorded",
            async () => ((await recorded()).length >= 5 ? true : undefined),
            5_000,
          );
        });
      });
    }

    it("fans one event out to 100 webhooks, each signed with its own secret", async () => {
      const source = await deployEmitter(sluice.client);
      const hooks: Hook[] = [];
      for (let n = 0; n < 100; n++) hooks.push(await hookAt(`/fan-out/${n}`, source));
      const started = Date.now();
      await emit(source, { tag: "fan-out" });
      await waitUntil("100 deliveries", () => hooks.every((hook) => hook.received().length === 1), 15_000);
      const last = Math.max(...hooks.map((hook) => hook.received()[0]?.at ?? 0));
      for (const hook of hooks) {
        expect(verifyDelivery(hook.received()[0] as RecordedRequest, hook.secret).tag).toBe("fan-out");
      }
      expect(
        new Set(hooks.map((hook) => header(hook.received()[0] as RecordedRequest, "webhook-id"))).size,
      ).toBe(1);
      console.log(
        `[${dialect.name}] fan-out of one event to 100 webhooks: all delivered ${last - started} ms after the emit request`,
      );
      for (const hook of hooks) await api.client.deleteWebhook(hook.id);
    });
  });

  describe.skipIf(!isAvailable(dialect))(`SSRF guard on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let api: DeliveryApi;
    let recorder: Recorder;

    beforeAll(async () => {
      database = await dialect.create();
      // No SLUICE_ALLOWED_CIDRS: loopback is off limits. One attempt per delivery.
      sluice = await startTestServer(database, { env: { SLUICE_RETRY_SCHEDULE: "0" } });
      api = new DeliveryApi(sluice.client);
      recorder = await startRecorder();
    });
    afterAll(async () => {
      await sluice?.close();
      await recorder?.close();
      await database?.cleanup();
    });

    it("refuses at send time a webhook to 127.0.0.1 or localhost, recording why on the delivery; the receiver gets nothing", async () => {
      const port = new URL(recorder.url).port;
      const source = await deployEmitter(sluice.client);
      const byAddress = await api.createWebhook({ url: `http://127.0.0.1:${port}/ssrf`, name: "ip" });
      const byName = await api.createWebhook({ url: `http://localhost:${port}/ssrf`, name: "name" });
      await api.subscribe(source.id, byAddress.id);
      await api.subscribe(source.id, byName.id);
      await emit(source, { tag: "ssrf" });

      for (const [webhook, host] of [
        [byAddress, "127.0.0.1"],
        [byName, "localhost"],
      ] as const) {
        const [delivery] = await waitUntil(`the refusal of ${host}`, async () => {
          const deliveries = await api.listDeliveries(webhook.id);
          return deliveries[0]?.status === "failed" ? deliveries : undefined;
        });
        expect(delivery?.last_status_code).toBeNull();
        expect(delivery?.last_error).toContain(host);
        expect(delivery?.last_error).toMatch(/127\.0\.0\.1|::1/);
        expect(delivery?.last_error).toMatch(/loopback/);
        expect(delivery?.last_error).toContain("SLUICE_ALLOWED_CIDRS");
        const detail = await api.getDelivery(delivery?.id ?? "");
        expect(detail.attempt_log).toHaveLength(1);
        expect(detail.attempt_log[0]?.error).toBe(delivery?.last_error);
      }
      // Both deliveries failed at their one attempt (SLUICE_RETRY_SCHEDULE "0"): nothing is left to send.
      expect(recorder.requests).toHaveLength(0);
      const page = (await rawRequest(`${sluice.url}/metrics`)).text;
      expect(metricValue(page, "sluice_delivery_attempts_total", { outcome: "blocked" })).toBe(2);
    });
  });
}

/**
 * Isolation between webhooks: a hanging endpoint with many deliveries waiting does not delay a
 * healthy one (per-webhook in-flight cap), and a per-webhook rate limit smooths a burst to the rate
 * without dropping anything. Measured at real local receivers.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { type RecordedRequest, type Recorder, startRecorder } from "../support/recorder.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { letTimePass } from "../support/wait.js";
import {
  busiestSecond,
  DeliveryApi,
  deployEmitter,
  distinctMessageIds,
  emit,
  header,
  percentile,
  settledDeliveries,
  verifyDelivery,
  waitUntil,
} from "../support/webhook-delivery.js";

/** The most arrivals within any 1-second window [t, t + 1 s). */
for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`delivery isolation on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let api: DeliveryApi;
    const recorders: Recorder[] = [];

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database, {
        env: {
          SLUICE_ALLOWED_CIDRS: "127.0.0.0/8",
          SLUICE_RETRY_SCHEDULE: "0,0.2,0.2,0.2",
          SLUICE_RATE_LIMIT: "100000",
        },
      });
      api = new DeliveryApi(sluice.client);
    });
    afterAll(async () => {
      await sluice?.close();
      for (const recorder of recorders) await recorder.close();
      await database?.cleanup();
    });

    it("a hanging endpoint with 160 deliveries waiting does not delay healthy webhooks of the same or another source", async () => {
      // Never answers: every attempt runs into the 15 s time-out.
      const hanging = await startRecorder(() => new Promise(() => {}));
      const healthy = await startRecorder();
      recorders.push(hanging, healthy);
      const shared = await deployEmitter(sluice.client);
      const other = await deployEmitter(sluice.client);
      const dead = await api.createWebhook({ url: `${hanging.url}/dead`, name: "dead" });
      const sameSource = await api.createWebhook({ url: `${healthy.url}/same`, name: "same" });
      const otherSource = await api.createWebhook({ url: `${healthy.url}/other`, name: "other" });
      await api.subscribe(shared.id, dead.id);
      await api.subscribe(other.id, otherSource.id);

      // The dead endpoint's backlog is queued first, ahead of everything measured below.
      await emit(shared, { count: 150, tag: "backlog" });
      await api.subscribe(shared.id, sameSource.id);
      // The dead endpoint holds its whole cap (8) of hanging attempts before anything is measured.
      await hanging.waitFor(8);

      const measuredFrom = healthy.requests.length;
      for (let n = 0; n < 20; n++) {
        await emit(n % 2 === 0 ? shared : other, { tag: "measured", start: n });
        // Time is the point: the measured events come one by one, not as a burst.
        await letTimePass(50);
      }
      // Waits past the 15 s time-out, so a regression shows as a latency, not a time-out here.
      await waitUntil(
        "20 measured deliveries",
        () => (healthy.requests.length - measuredFrom === 20 ? true : undefined),
        25_000,
      );
      const secretOf = (path: string) =>
        path === "/same" ? sameSource.signing_secret : path === "/other" ? otherSource.signing_secret : "";
      // Every delivery, the backlog's and the hanging ones included, verifies.
      for (const request of healthy.requests) verifyDelivery(request, secretOf(request.url));
      for (const request of hanging.requests) verifyDelivery(request, dead.signing_secret);
      const measured = healthy.requests.slice(measuredFrom);
      const latencies = measured.map(
        (request) => request.at - verifyDelivery(request, secretOf(request.url)).emitted_at,
      );
      expect(measured.filter((request) => request.url === "/same")).toHaveLength(10);
      expect(measured.filter((request) => request.url === "/other")).toHaveLength(10);
      const p50 = percentile(latencies, 50);
      const p99 = percentile(latencies, 99);
      console.log(
        `[${dialect.name}] healthy webhooks beside a hanging one (${hanging.requests.length} attempts hanging, ` +
          `160 waiting): emit-to-delivery p50 ${p50} ms, p99 ${p99} ms`,
      );
      // A hanging attempt takes 15 s; the healthy deliveries did not wait behind any of them.
      expect(p99).toBeLessThan(2000);
      // The dead endpoint holds at most its cap of deliveries in flight, never the whole pool.
      expect(hanging.requests.length).toBeGreaterThanOrEqual(1);
      expect(hanging.requests.length).toBeLessThanOrEqual(8);
      // Its backlog and the 10 measured events of the shared source all still wait.
      const waiting = await api.listDeliveries(dead.id, "pending");
      expect(waiting).toHaveLength(160);

      // Each hanging attempt is given up after 15 s and recorded as such.
      const firstHang = hanging.requests[0] as RecordedRequest;
      const timedOut = await waitUntil(
        "a hanging attempt to time out",
        async () => {
          for (const delivery of await api.listDeliveries(dead.id)) {
            if (delivery.attempts === 0) continue;
            const detail = await api.getDelivery(delivery.id);
            if (detail.attempt_log.length > 0) return detail.attempt_log[0];
          }
          return undefined;
        },
        25_000,
        250,
      );
      expect(timedOut?.error).toMatch(/no answer within 15 s/);
      expect(timedOut?.status_code).toBeNull();
      expect(timedOut?.latency_ms).toBeGreaterThanOrEqual(14_900);
      expect(timedOut?.latency_ms).toBeLessThan(17_000);
      expect(Date.now() - firstHang.at).toBeGreaterThanOrEqual(14_900);

      await api.client.deleteWebhook(dead.id);
      await hanging.close();
    }, 70_000);

    it("a slow endpoint with a backlog of 120 has at most 8 deliveries in flight at once, and gets each once, in order", async () => {
      // Each answer takes 25 ms, so the backlog drains through the cap: each finished delivery
      // hands its place to the webhook's next (delivery-worker.ts), and the cap must still hold.
      let inFlight = 0;
      let peak = 0;
      const slow = await startRecorder(async () => {
        inFlight += 1;
        peak = Math.max(peak, inFlight);
        await letTimePass(25);
        inFlight -= 1;
        return { status: 200 };
      });
      recorders.push(slow);
      const source = await deployEmitter(sluice.client);
      const webhook = await api.createWebhook({ url: `${slow.url}/slow`, name: "slow" });
      await api.subscribe(source.id, webhook.id);
      await emit(source, { count: 120, tag: "backlog" });
      await slow.waitFor(120, 30_000);
      // With every delivery settled nothing more is sent: a duplicate would have come before.
      const settled = await settledDeliveries(api, webhook.id);
      expect(settled.map((delivery) => delivery.status)).toEqual(Array(120).fill("delivered"));
      expect(slow.requests).toHaveLength(120);
      expect(distinctMessageIds(slow.requests).size).toBe(120);
      expect(peak).toBeGreaterThan(1);
      expect(peak).toBeLessThanOrEqual(8);
      // Started oldest first: with 8 in flight, no event starts more than 7 places early.
      const order = slow.requests.map((request) => verifyDelivery(request, webhook.signing_secret).n);
      for (const [position, index] of order.entries())
        expect(Math.abs(position - index)).toBeLessThanOrEqual(7);
      const pending = await api.listDeliveries(webhook.id, "pending");
      expect(pending).toEqual([]);
    });

    it("a rate_limit of 20/s holds a burst of 200 events to at most 21 per second at the receiver, and drops nothing", async () => {
      const receiver = await startRecorder();
      recorders.push(receiver);
      const source = await deployEmitter(sluice.client);
      const created = await api.createWebhook({
        url: `${receiver.url}/limited`,
        name: "limited",
        rate_limit: 5,
      });
      expect(created.rate_limit).toBe(5);
      const updated = await api.updateWebhook(created.id, { rate_limit: 20 });
      expect(updated.rate_limit).toBe(20);
      expect((await api.getWebhook(created.id)).rate_limit).toBe(20);
      await api.subscribe(source.id, created.id);

      await emit(source, { count: 200, tag: "burst" });
      await receiver.waitFor(200, 20_000);
      // With every delivery settled nothing more is sent: a duplicate would have come before.
      const settled = await settledDeliveries(api, created.id);
      expect(settled.map((delivery) => delivery.status)).toEqual(Array(200).fill("delivered"));

      const received = receiver.requests;
      expect(received).toHaveLength(200);
      expect(distinctMessageIds(received).size).toBe(200);
      expect(received.every((request) => header(request, "x-sluice-attempt") === "1")).toBe(true);
      const numbers = received.map((request) => verifyDelivery(request, created.signing_secret).n);
      expect(new Set(numbers).size).toBe(200);

      const arrivals = received.map((request) => request.at);
      const span = Math.max(...arrivals) - Math.min(...arrivals);
      const rate = ((arrivals.length - 1) / span) * 1000;
      const peak = busiestSecond(arrivals);
      const sorted = [...arrivals].sort((a, b) => a - b);
      const closest = Math.min(...sorted.slice(1).map((at, index) => at - (sorted[index] as number)));
      console.log(
        `[${dialect.name}] rate_limit 20/s, burst of 200: ${rate.toFixed(2)}/s over ${span} ms; busiest second ${peak}; closest arrivals ${closest} ms apart`,
      );
      expect(peak).toBeLessThanOrEqual(21);
      expect(rate).toBeLessThanOrEqual(21);
      // Held to the rate, not starved far below it.
      expect(rate).toBeGreaterThan(15);
      const deliveries = await api.listDeliveries(created.id);
      expect(
        deliveries.filter((delivery) => delivery.status === "delivered" && delivery.attempts === 1),
      ).toHaveLength(200);
    }, 40_000);
  });
}

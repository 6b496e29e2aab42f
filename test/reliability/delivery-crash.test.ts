/**
 * Delivery survives crashes and scales out, with real `sluice server` processes: an accepted event
 * is never lost when the server is killed (SIGKILL) part-way through delivering 2,000 of them, and
 * two nodes on one PostgreSQL database deliver each event exactly once.
 */
import fs from "node:fs";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SluiceClient } from "../../src/client/client.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { testEnvironment } from "../support/server.js";
import { killAllServerProcesses, startServerProcess, stopServerProcess } from "../support/server-process.js";
import { tempDir } from "../support/temp.js";
import {
  DeliveryApi,
  deployEmitter,
  distinctMessageIds,
  type EmitterSource,
  emit,
  settledDeliveries,
  verifyDelivery,
  waitUntil,
} from "../support/webhook-delivery.js";

const API_KEY = "sk_delivery_crash_0123456789abcdef";

/** The same source, reached through another node's endpoint. */
function through(source: EmitterSource, nodeUrl: string): EmitterSource {
  const endpoint = new URL(source.endpointUrl);
  return { id: source.id, endpointUrl: `${nodeUrl}${endpoint.pathname}` };
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`delivery across crashes and nodes on ${dialect.name}`, () => {
    let database: TestDatabase;
    let recorder: Recorder | undefined;
    const cleanups: (() => void)[] = [];
    const env = (extra: Record<string, string> = {}) =>
      testEnvironment(database, {
        SLUICE_BOOTSTRAP_API_KEY: API_KEY,
        SLUICE_MASTER_KEY: Buffer.alloc(32, 7).toString("base64"),
        SLUICE_LOG_LEVEL: "info",
        SLUICE_ALLOWED_CIDRS: "127.0.0.0/8",
        SLUICE_RETRY_SCHEDULE: "0,0.2,0.2,0.2",
        SLUICE_RATE_LIMIT: "100000",
        ...extra,
      });

    beforeAll(async () => {
      database = await dialect.create();
    });
    afterEach(async () => {
      await killAllServerProcesses();
      await recorder?.close();
      recorder = undefined;
    });
    afterAll(async () => {
      for (const cleanup of cleanups) cleanup();
      await database?.cleanup();
    });

    it("never loses an accepted event: 2,000 events, SIGKILL part-way through delivery, restart: every one arrives", async () => {
      const total = 2000;
      recorder = await startRecorder();
      const received = recorder.requests;
      const first = await startServerProcess(env());
      const api = new DeliveryApi(new SluiceClient({ baseUrl: first.url, apiKey: API_KEY }));
      const source = await deployEmitter(api.client, "crash");
      const webhook = await api.createWebhook({ url: `${recorder.url}/crash`, name: "crash" });
      await api.subscribe(source.id, webhook.id);

      // Accepted: each request's 200 comes after its 100 events and their deliveries committed.
      const emitStarted = Date.now();
      for (let start = 0; start < total; start += 100)
        await emit(source, { count: 100, tag: "crash", start });
      const emitMs = Date.now() - emitStarted;
      await waitUntil(
        "a third of the deliveries",
        () => distinctMessageIds(received).size >= total / 3,
        30_000,
        5,
      );
      first.server.child.kill("SIGKILL");
      const exit = await first.server.exited;
      expect(exit.signal).toBe("SIGKILL");
      const atKill = received.length;
      const distinctAtKill = distinctMessageIds(received).size;
      // Killed part-way: much was still to deliver.
      expect(distinctAtKill).toBeLessThan(total);
      const firstArrival = received[0]?.at ?? 0;
      const beforeKillSpan = (received[atKill - 1]?.at ?? 0) - firstArrival;

      const restarted = Date.now();
      const second = await startServerProcess(env());
      // Deliveries whose claims died with the process are claimed again when their leases expire.
      await waitUntil("every event received", () => distinctMessageIds(received).size >= total, 55_000, 100);
      const recoveredMs = Date.now() - restarted;
      // Deliveries sent before the kill but not recorded are sent again once their leases expire:
      // those are the duplicates. Wait until every delivery is recorded as delivered.
      const again = new DeliveryApi(new SluiceClient({ baseUrl: second.url, apiKey: API_KEY }));
      const deliveries = await waitUntil(
        "every delivery recorded",
        async () => {
          const all = await again.listDeliveries(webhook.id);
          return all.filter((delivery) => delivery.status === "delivered").length === total ? all : undefined;
        },
        55_000,
        500,
      );
      const settledMs = Date.now() - restarted;
      // Every delivery is recorded as delivered: none is due again, so the receiver has all it gets.

      const distinct = distinctMessageIds(received);
      expect(distinct.size).toBe(total);
      const numbers = new Set(received.map((request) => verifyDelivery(request, webhook.signing_secret).n));
      expect(numbers.size).toBe(total);
      expect(Math.min(...numbers)).toBe(0);
      expect(Math.max(...numbers)).toBe(total - 1);
      const duplicates = received.length - distinct.size;
      // The backlog the restarted server sends at once (before the dead process's leases expire).
      const burst = received.slice(atKill).filter((request) => request.at < restarted + 30_000);
      const burstSpan = (burst.at(-1)?.at ?? 0) - (burst[0]?.at ?? 0);
      const burstRate = ((burst.length - 1) / Math.max(1, burstSpan)) * 1000;
      console.log(
        `[${dialect.name}] ${total} events accepted in ${emitMs} ms; SIGKILL after ${distinctAtKill} delivered ` +
          `(${((atKill / Math.max(1, beforeKillSpan)) * 1000).toFixed(0)} deliveries/s to one receiver before the kill); ` +
          `after restart ${burst.length} sent at ${burstRate.toFixed(0)} deliveries/s; every event received within ${recoveredMs} ms and every delivery recorded within ${settledMs} ms; ` +
          `${received.length} requests, duplicates: ${duplicates}`,
      );
      // Only deliveries in flight at the kill can be sent twice: at most the webhook's cap of 8.
      expect(duplicates).toBeLessThanOrEqual(8);

      expect(deliveries).toHaveLength(total);
      expect((await stopServerProcess(second.server)).code).toBe(0);
    }, 150_000);

    // Several nodes share a database in scale mode only: the test exists for PostgreSQL alone.
    const onPostgres = (name: string, test: () => Promise<void>, timeout: number) => {
      if (dialect.name === "postgres") it(name, test, timeout);
    };
    onPostgres(
      "two server processes on one PostgreSQL database deliver each of 300 events exactly once",
      async () => {
        const total = 300;
        recorder = await startRecorder();
        const received = recorder.requests;
        const otherDataDir = tempDir();
        cleanups.push(() => fs.rmSync(otherDataDir, { recursive: true, force: true }));
        const [a, b] = await Promise.all([
          startServerProcess(env()),
          startServerProcess(env({ SLUICE_DATA_DIR: otherDataDir })),
        ]);
        const api = new DeliveryApi(new SluiceClient({ baseUrl: a.url, apiKey: API_KEY }));
        const source = await deployEmitter(api.client, "two-nodes");
        const webhook = await api.createWebhook({ url: `${recorder.url}/two-nodes`, name: "two-nodes" });
        await api.subscribe(source.id, webhook.id);

        // Events enter through both nodes; both nodes' workers deliver.
        const nodes = [source, through(source, b.url)];
        await Promise.all(
          nodes.map(async (node, index) => {
            for (let start = index * 150; start < (index + 1) * 150; start += 30)
              await emit(node, { count: 30, tag: "two-nodes", start });
          }),
        );
        await recorder.waitFor(total, 30_000);
        // Once every delivery is settled none is due again: a second copy would have come before.
        const settled = await settledDeliveries(api, webhook.id, 30_000);
        expect(settled.filter((delivery) => delivery.status === "delivered")).toHaveLength(total);

        const counts = new Map<string, number>();
        for (const request of received) {
          verifyDelivery(request, webhook.signing_secret);
          const id = String(request.headers["webhook-id"]);
          counts.set(id, (counts.get(id) ?? 0) + 1);
        }
        expect(counts.size).toBe(total);
        expect([...counts.values()].filter((count) => count !== 1)).toEqual([]);
        expect(received).toHaveLength(total);
        console.log(
          `[${dialect.name}] two nodes: ${received.length} deliveries of ${total} events, 0 duplicates`,
        );
        const viaB = new DeliveryApi(new SluiceClient({ baseUrl: b.url, apiKey: API_KEY }));
        expect(await viaB.listDeliveries(webhook.id, "delivered")).toHaveLength(total);
        await Promise.all([stopServerProcess(a.server), stopServerProcess(b.server)]);
      },
      60_000,
    );
  });
}

/**
 * A receiver that flaps between up and down every 300 ms (refusing connections, answering 503,
 * resetting connections mid-request, then up again) while 400 events are emitted: every event is
 * delivered, every delivery's signature verifies, nothing is lost, and the attempts it took and
 * the duplicates (a 200 whose answer was cut off by the next phase is sent again) are reported.
 */
import { afterEach, describe, expect, it } from "vitest";
import { SluiceClient } from "../../src/client/client.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { type FlappingReceiver, startFlappingReceiver } from "../support/flapping-receiver.js";
import { RELIABILITY_API_KEY, serverEnvironment } from "../support/server-env.js";
import { killAllServerProcesses, startServerProcess, stopServerProcess } from "../support/server-process.js";
import { letTimePass } from "../support/wait.js";
import {
  DeliveryApi,
  deployEmitter,
  distinctMessageIds,
  emit,
  verifyDelivery,
  waitUntil,
} from "../support/webhook-delivery.js";

const TOTAL = 400;
const PHASE_MS = 300;
/** 30 attempts, 0.3 s apart (±20 %): far more than a receiver down half the time needs. */
const RETRY_SCHEDULE = ["0", ...Array.from({ length: 29 }, () => "0.3")].join(",");

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`a receiver that flaps, on ${dialect.name}`, () => {
    let database: TestDatabase | undefined;
    let receiver: FlappingReceiver | undefined;

    afterEach(async () => {
      await killAllServerProcesses();
      await receiver?.close();
      await database?.cleanup();
    });

    it(`every one of ${TOTAL} events is delivered and verifies while the receiver refuses, answers 503 and resets connections every ${PHASE_MS} ms`, async () => {
      database = await dialect.create();
      receiver = await startFlappingReceiver({ phaseMs: PHASE_MS });
      const { server, url } = await startServerProcess(
        serverEnvironment(
          { dataDir: database.dataDir, databaseUrl: database.databaseUrl },
          { SLUICE_RETRY_SCHEDULE: RETRY_SCHEDULE },
        ),
      );
      const api = new DeliveryApi(new SluiceClient({ baseUrl: url, apiKey: RELIABILITY_API_KEY }));
      const source = await deployEmitter(api.client, "flapping");
      const webhook = await api.createWebhook({ url: `${receiver.url}/flapping`, name: "flapping" });
      await api.subscribe(source.id, webhook.id);

      // A few hundred events over a few seconds, so deliveries meet every phase.
      const started = Date.now();
      for (let start = 0; start < TOTAL; start += 20) {
        await emit(source, { count: 20, tag: "flapping", start });
        await letTimePass(100);
      }
      const accepted = receiver.accepted;
      await waitUntil("every event received", () => distinctMessageIds(accepted).size >= TOTAL, 90_000, 50);
      const receivedMs = Date.now() - started;
      // Still flapping: a 200 whose answer was lost is retried, and must end up recorded as delivered.
      const deliveries = await waitUntil(
        "every delivery recorded as delivered",
        async () => {
          const all = await api.listDeliveries(webhook.id);
          return all.every((delivery) => delivery.status === "delivered") && all.length === TOTAL
            ? all
            : undefined;
        },
        60_000,
        250,
      );
      await receiver.stopFlapping();

      const numbers = new Set(accepted.map((request) => verifyDelivery(request, webhook.signing_secret).n));
      expect(numbers.size).toBe(TOTAL);
      expect(Math.min(...numbers)).toBe(0);
      expect(Math.max(...numbers)).toBe(TOTAL - 1);
      // It did flap: requests met every phase, and deliveries needed more than one attempt.
      const { arrivals } = receiver;
      expect(arrivals.unavailable).toBeGreaterThan(0);
      expect(arrivals.resetting).toBeGreaterThan(0);
      const attempts = deliveries.reduce((sum, delivery) => sum + delivery.attempts, 0);
      expect(attempts).toBeGreaterThan(TOTAL);
      const duplicates = accepted.length - distinctMessageIds(accepted).size;
      const retried = deliveries.filter((delivery) => delivery.attempts > 1).length;
      const most = Math.max(...deliveries.map((delivery) => delivery.attempts));
      console.log(
        `[${dialect.name}] flapping receiver (${receiver.phaseChanges()} phase changes of ${PHASE_MS} ms): ` +
          `${TOTAL} events all received within ${receivedMs} ms, signatures verified; ${attempts} attempts ` +
          `(${retried} deliveries retried, at most ${most} attempts for one); requests that met the receiver ` +
          `down: ${arrivals.unavailable} answered 503, ${arrivals.resetting + arrivals.refusing} reset ` +
          `(refused connections never arrive); duplicates: ${duplicates}`,
      );
      expect((await stopServerProcess(server)).code).toBe(0);
    }, 150_000);
  });
}

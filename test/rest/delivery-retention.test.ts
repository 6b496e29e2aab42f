/**
 * The delivery log's retention (core/delivery/retention.ts): deliveries that are over, delivered
 * or failed, go with their attempts once unchanged for SLUICE_DELIVERY_RETENTION_DAYS; a pending
 * delivery stays however old it is. Here the retention is 0.00003 days (2.6 s) and the node sweeps
 * every second.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { heldAnswer, type Recorder, startRecorder } from "../support/recorder.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { DeliveryApi, deployEmitter, emit, metricValue, waitUntil } from "../support/webhook-delivery.js";

const RETENTION_MS = 0.00003 * 86_400_000;

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`delivery log retention on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let api: DeliveryApi;
    let recorder: Recorder;
    const answer = heldAnswer();

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database, {
        env: {
          SLUICE_ALLOWED_CIDRS: "127.0.0.0/8",
          SLUICE_RETRY_SCHEDULE: "0",
          SLUICE_DELIVERY_RETENTION_DAYS: "0.00003",
        },
      });
      api = new DeliveryApi(sluice.client);
      recorder = await startRecorder(async (request) => {
        if (request.url === "/held") await answer.held;
        return { status: request.url === "/failing" ? 500 : 200 };
      });
    });
    afterAll(async () => {
      answer.release();
      await sluice?.close();
      await recorder?.close();
      await database?.cleanup();
    });

    const attemptsOf = async (ids: readonly string[]) =>
      ids.length === 0
        ? []
        : await sluice.server.store.db
            .selectFrom("delivery_attempts")
            .select("delivery_id")
            .where("delivery_id", "in", ids)
            .execute();

    const metricsPage = async () => (await fetch(`${sluice.url}/metrics`)).text();

    it("removes delivered and failed deliveries with their attempts once past the retention, and keeps pending ones", async () => {
      const source = await deployEmitter(sluice.client);
      const hook = async (path: string) => {
        const webhook = await api.createWebhook({ url: `${recorder.url}${path}`, name: path });
        await api.subscribe(source.id, webhook.id);
        return webhook.id;
      };
      const [ok, failing, held] = [await hook("/ok"), await hook("/failing"), await hook("/held")];
      await emit(source, { count: 3, tag: "kept-a-while" });
      const settled = await waitUntil("the deliveries to /ok and /failing over", async () => {
        const [delivered, failed] = [
          await api.listDeliveries(ok, "delivered"),
          await api.listDeliveries(failing, "failed"),
        ];
        return delivered.length === 3 && failed.length === 3 ? [...delivered, ...failed] : undefined;
      });
      const settledIds = settled.map((delivery) => delivery.id);
      expect(await attemptsOf(settledIds)).toHaveLength(6);
      const pending = await api.listDeliveries(held);
      expect(pending.map((delivery) => delivery.status)).toEqual(["pending", "pending", "pending"]);

      // Kept for the retention, then gone, with their attempts.
      const overAt = Math.max(...settled.map((delivery) => delivery.updated_at * 1000)) + RETENTION_MS;
      expect(await api.listDeliveries(ok)).toHaveLength(3);
      await waitUntil(
        "the deliveries over removed",
        async () =>
          (await api.listDeliveries(ok)).length === 0 && (await api.listDeliveries(failing)).length === 0
            ? true
            : undefined,
        15_000,
      );
      expect(Date.now()).toBeGreaterThanOrEqual(overAt - 1000);
      expect(await attemptsOf(settledIds)).toEqual([]);
      expect(metricValue(await metricsPage(), "sluice_deliveries_removed_total")).toBeGreaterThanOrEqual(6);
      await expect(api.getDelivery(settledIds[0] as string)).rejects.toMatchObject({ status: 404 });

      // Older than the retention, but still on its way: kept, then delivered.
      expect((await api.listDeliveries(held)).map((delivery) => delivery.id).sort()).toEqual(
        pending.map((delivery) => delivery.id).sort(),
      );
      answer.release();
      await waitUntil("the held deliveries delivered", async () =>
        (await api.listDeliveries(held, "delivered")).length === 3 ? true : undefined,
      );
      expect(recorder.requests.filter((request) => request.url === "/held")).toHaveLength(3);
      // And once unchanged for the retention, removed too.
      await waitUntil(
        "the held deliveries removed",
        async () => ((await api.listDeliveries(held)).length === 0 ? true : undefined),
        15_000,
      );
    });
  });
}

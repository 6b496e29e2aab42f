/**
 * A webhook that has only failed for five days is disabled; one that has failed for less, or has
 * had a success since, is not. The failure clock is set back in the database: five real days
 * cannot pass in a test.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { waitUntil } from "../support/wait.js";
import { deployEmitter, emit } from "../support/webhook-delivery.js";

const DAY_MS = 24 * 3600 * 1000;

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`five days of failures on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let failing: Recorder;

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database, {
        env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8", SLUICE_RETRY_SCHEDULE: "0" },
      });
      failing = await startRecorder(() => ({ status: 500 }));
    });
    afterAll(async () => {
      await sluice?.close();
      await failing?.close();
      await database?.cleanup();
    });

    async function failingSince(ageMs: number) {
      const webhook = await sluice.client.createWebhook({ url: `${failing.url}/hook`, name: "down" });
      const source = await deployEmitter(sluice.client);
      await sluice.client.data("POST", "/v1/subscriptions", {
        body: { emitter_id: source.id, listener_id: webhook.id },
      });
      await sluice.server.store.db
        .updateTable("webhooks")
        .set({ failing_since: Date.now() - ageMs })
        .where("id", "=", webhook.id)
        .execute();
      await emit(source);
      return webhook.id;
    }

    async function settled(webhookId: string) {
      await waitUntil(`the deliveries of ${webhookId} to fail`, async () => {
        const page = await sluice.client.request<{ data: { status: string }[] }>(
          "GET",
          `/v1/webhooks/${webhookId}/deliveries`,
        );
        return page.data.length > 0 && page.data.every((delivery) => delivery.status === "failed");
      });
    }

    it("a failure after five days of nothing but failures disables the webhook, with the reason", async () => {
      const id = await failingSince(5 * DAY_MS + 60_000);
      await settled(id);
      const webhook = await sluice.client.getWebhook(id);
      expect(webhook.active).toBe(false);
      expect(webhook.disabled_reason).toBe("every delivery failed for 5 days");
    });

    it("failing for four days does not disable it", async () => {
      const id = await failingSince(4 * DAY_MS);
      await settled(id);
      const webhook = await sluice.client.getWebhook(id);
      expect(webhook.active).toBe(true);
      expect(webhook.disabled_reason).toBeNull();
    });
  });
}

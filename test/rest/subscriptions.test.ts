/** The subscriptions API over a real socket, and what subscriptions route to which webhooks. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SluiceClient } from "../../src/client/client.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { rawRequest, startTestServer, type TestServer } from "../support/server.js";
import {
  DeliveryApi,
  deployEmitter,
  emit,
  header,
  type SubscriptionView,
  settledDeliveries,
  verifyDelivery,
  waitUntil,
} from "../support/webhook-delivery.js";

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`subscriptions API on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let api: DeliveryApi;
    let recorder: Recorder;

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database, {
        env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8", SLUICE_RATE_LIMIT: "100000" },
      });
      api = new DeliveryApi(sluice.client);
      recorder = await startRecorder();
    });
    afterAll(async () => {
      await sluice?.close();
      await recorder?.close();
      await database?.cleanup();
    });

    /** A webhook to the recorder at `/path`, and the requests the recorder got there. */
    async function hookAt(path: string, client: SluiceClient = sluice.client) {
      const webhook = await new DeliveryApi(client).createWebhook({
        url: `${recorder.url}${path}`,
        name: path,
      });
      return {
        id: webhook.id,
        secret: webhook.signing_secret,
        received: () => recorder.requests.filter((request) => request.url === path),
      };
    }

    it("subscribes from query parameters with no body: 200 and {id sub_, emitter_id, listener_id, event_name, created_at}", async () => {
      const source = await deployEmitter(sluice.client);
      const webhook = await hookAt("/query");
      const before = Math.floor(Date.now() / 1000);
      const query = new URLSearchParams({ emitter_id: source.id, listener_id: webhook.id });
      const response = await rawRequest(`${sluice.url}/v1/subscriptions?${query}`, {
        method: "POST",
        apiKey: sluice.apiKey,
        headers: { "content-type": "application/json" },
      });
      expect(response.status).toBe(200);
      const data = (response.body as { data: SubscriptionView }).data;
      expect(Object.keys(data).sort()).toEqual([
        "created_at",
        "emitter_id",
        "event_name",
        "id",
        "listener_id",
      ]);
      expect(data).toMatchObject({ emitter_id: source.id, listener_id: webhook.id, event_name: null });
      expect(data.id).toMatch(/^sub_[0-9a-z]{26}$/);
      expect(data.created_at).toBeGreaterThanOrEqual(before);
      expect(data.created_at).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    });

    it("subscribes from a JSON body, and subscribing twice returns the same subscription", async () => {
      const source = await deployEmitter(sluice.client);
      const webhook = await hookAt("/twice");
      const first = await api.subscribe(source.id, webhook.id, "orders");
      expect(first).toMatchObject({ emitter_id: source.id, listener_id: webhook.id, event_name: "orders" });
      const second = await api.subscribe(source.id, webhook.id, "orders");
      expect(second).toEqual(first);
      // Concurrent duplicates also converge on one subscription.
      const racing = await Promise.all([1, 2, 3, 4].map(() => api.subscribe(source.id, webhook.id)));
      expect(new Set(racing.map((subscription) => subscription.id)).size).toBe(1);
      const mine = (await api.listSubscriptions()).filter(
        (subscription) => subscription.emitter_id === source.id,
      );
      expect(mine.map((subscription) => subscription.event_name).sort()).toEqual([null, "orders"].sort());
    });

    it("lists the account's subscriptions at GET /v1/users/me/subscriptions, with page_info", async () => {
      const source = await deployEmitter(sluice.client);
      const webhook = await hookAt("/listed");
      const created = await api.subscribe(source.id, webhook.id);
      const response = await rawRequest(`${sluice.url}/v1/users/me/subscriptions?limit=100`, {
        apiKey: sluice.apiKey,
      });
      expect(response.status).toBe(200);
      const body = response.body as { data: SubscriptionView[]; page_info: { total_count: number } };
      expect(body.data).toContainEqual(created);
      expect(body.page_info.total_count).toBe(body.data.length);
    });

    it("DELETE /v1/subscriptions with the same parameters (query or body) unsubscribes; events stop flowing", async () => {
      const source = await deployEmitter(sluice.client);
      const webhook = await hookAt("/unsubscribed");
      const subscription = await api.subscribe(source.id, webhook.id);
      await emit(source, { tag: "before" });
      await waitUntil("the first delivery", () => webhook.received().length === 1);

      const query = new URLSearchParams({ emitter_id: source.id, listener_id: webhook.id });
      const removed = await rawRequest(`${sluice.url}/v1/subscriptions?${query}`, {
        method: "DELETE",
        apiKey: sluice.apiKey,
        headers: { "content-type": "application/json" },
      });
      expect(removed.status).toBe(200);
      expect((removed.body as { data: SubscriptionView }).data).toEqual(subscription);
      expect((await api.listSubscriptions()).map((item) => item.id)).not.toContain(subscription.id);
      await expect(api.unsubscribe(source.id, webhook.id)).rejects.toMatchObject({
        status: 404,
        code: "not_found",
      });

      // The event is committed when the emit answers, with the deliveries it has: once those
      // settle, the webhook has nothing more to send.
      await emit(source, { tag: "after" });
      expect(await settledDeliveries(api, webhook.id)).toHaveLength(1);
      expect(webhook.received().map((request) => verifyDelivery(request, webhook.secret).tag)).toEqual([
        "before",
      ]);
      expect(await api.listDeliveries(webhook.id)).toHaveLength(1);
    });

    it("another account's source or webhook is 404, and its subscriptions are not listed", async () => {
      const other = await sluice.newAccount("other");
      const otherApi = new DeliveryApi(other.client);
      const mySource = await deployEmitter(sluice.client);
      const myWebhook = await hookAt("/mine");
      const theirSource = await deployEmitter(other.client);
      const theirWebhook = await hookAt("/theirs", other.client);
      const theirs = await otherApi.subscribe(theirSource.id, theirWebhook.id);

      for (const [emitter, listener] of [
        [theirSource.id, myWebhook.id],
        [mySource.id, theirWebhook.id],
        [theirSource.id, theirWebhook.id],
      ] as const) {
        await expect(api.subscribe(emitter, listener)).rejects.toMatchObject({
          status: 404,
          code: "not_found",
        });
        await expect(api.unsubscribe(emitter, listener)).rejects.toMatchObject({ status: 404 });
      }
      expect((await api.listSubscriptions()).map((item) => item.id)).not.toContain(theirs.id);
      expect((await otherApi.listSubscriptions()).map((item) => item.id)).toEqual([theirs.id]);
    });

    it("bad parameters are 400 with a message: missing ids, ids of the wrong kind, a non-string event_name", async () => {
      const source = await deployEmitter(sluice.client);
      const webhook = await hookAt("/bad");
      const cases: [Record<string, unknown>, RegExp][] = [
        [{ listener_id: webhook.id }, /emitter_id/],
        [{ emitter_id: source.id }, /listener_id/],
        [{ emitter_id: webhook.id, listener_id: webhook.id }, /emitter_id must be a source id/],
        [{ emitter_id: source.id, listener_id: source.id }, /listener_id must be a webhook id/],
        [{ emitter_id: "", listener_id: webhook.id }, /emitter_id is required/],
        [{ emitter_id: source.id, listener_id: webhook.id, event_name: { channel: "x" } }, /event_name/],
      ];
      for (const [body, message] of cases) {
        for (const method of ["POST", "DELETE"]) {
          const response = await rawRequest(`${sluice.url}/v1/subscriptions`, {
            method,
            apiKey: sluice.apiKey,
            headers: { "content-type": "application/json" },
            body: JSON.stringify(body),
          });
          expect(response.status, `${method} ${JSON.stringify(body)}`).toBe(400);
          const error = (response.body as { error: { code: string; message: string } }).error;
          expect(error.message, `${method} ${JSON.stringify(body)}`).toMatch(message);
        }
      }
      // Well-formed ids that do not exist are 404, not 400.
      await expect(api.subscribe("dc_00000000000000000000000000", webhook.id)).rejects.toMatchObject({
        status: 404,
      });
      await expect(api.subscribe(source.id, "wh_00000000000000000000000000")).rejects.toMatchObject({
        status: 404,
      });
    });

    it("deleting a source or a webhook removes its subscriptions", async () => {
      const source = await deployEmitter(sluice.client);
      const kept = await deployEmitter(sluice.client);
      const webhook = await hookAt("/deleted-ends");
      const other = await hookAt("/deleted-ends-2");
      const bySource = await api.subscribe(source.id, other.id);
      const byWebhook = await api.subscribe(kept.id, webhook.id);
      const survivor = await api.subscribe(kept.id, other.id);

      await sluice.client.deleteSource(source.id);
      await api.client.deleteWebhook(webhook.id);
      const ids = (await api.listSubscriptions()).map((item) => item.id);
      expect(ids).not.toContain(bySource.id);
      expect(ids).not.toContain(byWebhook.id);
      expect(ids).toContain(survivor.id);
      // Re-subscribing the deleted ends is now a 404.
      await expect(api.subscribe(source.id, other.id)).rejects.toMatchObject({ status: 404 });
      await expect(api.subscribe(kept.id, webhook.id)).rejects.toMatchObject({ status: 404 });
    });

    it("one emitter feeds many webhooks: each gets every event, signed with its own secret", async () => {
      const source = await deployEmitter(sluice.client);
      const hooks = await Promise.all(["/fan-a", "/fan-b", "/fan-c"].map((path) => hookAt(path)));
      for (const hook of hooks) await api.subscribe(source.id, hook.id);
      await emit(source, { count: 3, tag: "fan" });
      await waitUntil("3 deliveries to each of 3 webhooks", () =>
        hooks.every((hook) => hook.received().length === 3),
      );
      const ids = hooks.map((hook) =>
        hook
          .received()
          .map((request) => header(request, "webhook-id"))
          .sort(),
      );
      // The same three events (same ids) reach each webhook.
      expect(ids[1]).toEqual(ids[0]);
      expect(ids[2]).toEqual(ids[0]);
      for (const [index, hook] of hooks.entries()) {
        const payloads = hook.received().map((request) => verifyDelivery(request, hook.secret));
        expect(payloads.map((payload) => payload.n).sort()).toEqual([0, 1, 2]);
        const stranger = hooks[(index + 1) % hooks.length];
        expect(() => verifyDelivery(hook.received()[0] as never, stranger?.secret ?? "")).toThrow();
      }
    });

    it("event_name filters channels: a name gets that channel, $default only the default one, none every channel", async () => {
      const source = await deployEmitter(sluice.client);
      const named = await hookAt("/channel-orders");
      const defaultOnly = await hookAt("/channel-default");
      const every = await hookAt("/channel-all");
      await api.subscribe(source.id, named.id, "orders");
      await api.subscribe(source.id, defaultOnly.id, "$default");
      await api.subscribe(source.id, every.id);

      await emit(source, { tag: "plain" });
      await emit(source, { tag: "order", channel: "orders" });
      await emit(source, { tag: "refund", channel: "refunds" });
      await waitUntil("every channel to reach the unfiltered webhook", () => every.received().length === 3);
      // The events are committed, with their deliveries: once these settle, nothing more comes.
      for (const hook of [named, defaultOnly, every]) await settledDeliveries(api, hook.id);
      const tags = (hook: Awaited<ReturnType<typeof hookAt>>) =>
        hook
          .received()
          .map((request) => verifyDelivery(request, hook.secret).tag)
          .sort();
      expect(tags(named)).toEqual(["order"]);
      expect(tags(defaultOnly)).toEqual(["plain"]);
      expect(tags(every)).toEqual(["order", "plain", "refund"]);
      const channels = every
        .received()
        .map(
          (request) => `${verifyDelivery(request, every.secret).tag}:${header(request, "x-sluice-channel")}`,
        )
        .sort();
      expect(channels).toEqual(["order:orders", "plain:", "refund:refunds"]);
    });
  });
}

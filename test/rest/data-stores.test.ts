/**
 * Data stores (`ds_…`) over REST and in the sandbox: a source and an action that share a store
 * see each other's writes, TTLs expire, `for await` iterates, values over the limit are refused
 * (413, nothing stored), and another account's store is not found.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/client/client.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { waitUntil } from "../support/webhook-delivery.js";

const WRITER = `export default {
  name: "store writer",
  props: { store: { type: "data_store" } },
  async run() {
    const count = ((await this.store.get("count")) ?? 0) + 1;
    await this.store.set("count", count);
    await this.store.set("temp", { short: "lived" }, { ttl: 2 });
    this.$emit({ count, hasTemp: await this.store.has("temp") });
  },
};`;

const READER = `export default {
  name: "store reader", type: "action",
  props: { store: { type: "data_store" }, big: { type: "boolean", optional: true } },
  async run() {
    if (this.big) await this.store.set("big", "x".repeat(70 * 1024));
    const seen = {};
    for await (const [key, value] of this.store) seen[key] = value;
    return { seen, keys: await this.store.keys(), temp: await this.store.has("temp") };
  },
};`;

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the request to fail");
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`data stores on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database);
    });
    afterAll(async () => {
      await sluice?.close();
      await database?.cleanup();
    });

    it("a source and an action that share a store see each other's writes; TTLs expire", async () => {
      const source = await sluice.client.deploySource({
        component_code: WRITER,
        configured_props: { store: "shared" },
      });
      const storeId = source.configured_props.store as string;
      expect(storeId).toMatch(/^ds_/);
      await sluice.client.runSource(source.id);
      await sluice.client.runSource(source.id);
      const events = await sluice.client.listEvents(source.id, { expand: "event" });
      expect(events.data[0]?.event).toEqual({ count: 2, hasTemp: true });

      const read = await sluice.client.runAction({
        component_code: READER,
        configured_props: { store: storeId },
      });
      expect(read.ok, JSON.stringify(read.failure)).toBe(true);
      expect(read.return_value).toMatchObject({ seen: { count: 2 } });

      // Written over REST, read by the action by the store's name.
      await sluice.client.request("PUT", `/v1/data_stores/${storeId}/records/greeting`, {
        body: { value: "hello" },
      });
      // The record written with { ttl: 2 } is gone once it expires.
      await waitUntil(
        "the temp record to expire",
        async () => {
          const page = await sluice.client.request<{ data: { key: string }[] }>(
            "GET",
            `/v1/data_stores/${storeId}/records`,
          );
          return page.data.every((record) => record.key !== "temp") ? true : undefined;
        },
        15_000,
      );
      const later = await sluice.client.runAction({
        component_code: READER,
        configured_props: { store: "shared" },
      });
      expect(later.return_value).toEqual({
        seen: { count: 2, greeting: "hello" },
        keys: ["count", "greeting"],
        temp: false,
      });
      const records = await sluice.client.request<{ data: { key: string }[] }>(
        "GET",
        `/v1/data_stores/${storeId}/records`,
      );
      expect(records.data.map((record) => record.key)).toEqual(["count", "greeting"]);

      const stores = await sluice.client.request<{
        data: { id: string; name: string; record_count: number }[];
      }>("GET", "/v1/data_stores");
      expect(stores.data).toEqual([expect.objectContaining({ id: storeId, name: "shared" })]);
    });

    it("refuses values over the limit, over REST and in the sandbox, and stores nothing", async () => {
      const created = await sluice.client.request<{ data: { id: string } }>("POST", "/v1/data_stores", {
        body: { name: "limits" },
      });
      const id = created.data.id;
      const tooBig = await failure(
        sluice.client.request("PUT", `/v1/data_stores/${id}/records/big`, {
          body: { value: "x".repeat(70 * 1024) },
        }),
      );
      expect(tooBig.status).toBe(413);
      expect(tooBig.code).toBe("value_too_large");
      const run = await sluice.client.runAction({
        component_code: READER,
        configured_props: { store: id, big: true },
      });
      expect(run.ok).toBe(false);
      expect(run.failure?.message).toContain("larger than 64 KB");
      const missing = await failure(sluice.client.request("GET", `/v1/data_stores/${id}/records/big`));
      expect(missing.status).toBe(404);
      const duplicate = await failure(
        sluice.client.request("POST", "/v1/data_stores", { body: { name: "limits" } }),
      );
      expect(duplicate.status).toBe(409);
    });

    it("another account's store is not found, by id or by route", async () => {
      const stranger = await sluice.newAccount("stranger");
      const theirs = await stranger.client.request<{ data: { id: string } }>("POST", "/v1/data_stores", {
        body: { name: "private" },
      });
      await stranger.client.request("PUT", `/v1/data_stores/${theirs.data.id}/records/k`, {
        body: { value: 1 },
      });
      const deploy = await failure(
        sluice.client.deploySource({ component_code: WRITER, configured_props: { store: theirs.data.id } }),
      );
      expect(deploy.status).toBe(404);
      expect(
        (await failure(sluice.client.request("GET", `/v1/data_stores/${theirs.data.id}/records`))).status,
      ).toBe(404);
      expect(
        (await failure(sluice.client.request("DELETE", `/v1/data_stores/${theirs.data.id}`))).status,
      ).toBe(404);
    });
  });
}

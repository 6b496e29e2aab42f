/** The webhooks API over a real socket, on every dialect. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/client/client.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { rawRequest, startTestServer, type TestServer } from "../support/server.js";

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`webhooks API on ${dialect.name}`, () => {
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

    it("creates a webhook from query parameters with no body, as Pipedream's docs show", async () => {
      const query = new URLSearchParams({
        url: "https://example.com/hook",
        name: "orders",
        description: "all orders",
      });
      const response = await rawRequest(`${sluice.url}/v1/webhooks?${query}`, {
        method: "POST",
        apiKey: sluice.apiKey,
        headers: { "content-type": "application/json" },
      });
      expect(response.status).toBe(200);
      const data = (response.body as { data: Record<string, unknown> }).data;
      expect(data).toMatchObject({
        url: "https://example.com/hook",
        name: "orders",
        description: "all orders",
        active: true,
      });
      expect(data.id).toMatch(/^wh_[0-9a-z]{26}$/);
      expect(data.signing_secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
      expect(typeof data.created_at).toBe("number");
    });

    it("creates a webhook from a JSON body", async () => {
      const webhook = await sluice.client.createWebhook({
        url: "http://example.org:8080/in?x=1",
        name: "json",
      });
      expect(webhook).toMatchObject({ url: "http://example.org:8080/in?x=1", name: "json", description: "" });
    });

    it("returns the signing secret on creation only", async () => {
      const created = await sluice.client.createWebhook({
        url: "https://example.com/secret",
        name: "secret",
      });
      const read = await rawRequest(`${sluice.url}/v1/webhooks/${created.id}`, { apiKey: sluice.apiKey });
      const list = await rawRequest(`${sluice.url}/v1/users/me/webhooks?limit=100`, {
        apiKey: sluice.apiKey,
      });
      for (const text of [read.text, list.text]) {
        expect(text).toContain(created.id);
        expect(text).not.toContain("signing_secret");
        expect(text).not.toContain(created.signing_secret);
      }
    });

    it("reads and deletes a webhook; after deletion it is not found", async () => {
      const created = await sluice.client.createWebhook({ url: "https://example.com/gone", name: "gone" });
      expect(await sluice.client.getWebhook(created.id)).toMatchObject({ id: created.id, name: "gone" });
      expect(await sluice.client.deleteWebhook(created.id)).toEqual({ id: created.id, deleted: true });
      await expect(sluice.client.getWebhook(created.id)).rejects.toMatchObject({
        status: 404,
        code: "not_found",
      });
      await expect(sluice.client.deleteWebhook(created.id)).rejects.toMatchObject({ status: 404 });
    });

    it("another account's webhook is invisible: 404 on read and delete, absent from its list", async () => {
      const mine = await sluice.client.createWebhook({ url: "https://example.com/a", name: "a-only" });
      const other = await sluice.newAccount("b");
      await expect(other.client.getWebhook(mine.id)).rejects.toMatchObject({
        status: 404,
        code: "not_found",
      });
      await expect(other.client.deleteWebhook(mine.id)).rejects.toMatchObject({
        status: 404,
        code: "not_found",
      });
      expect((await other.client.listWebhooks()).data).toEqual([]);
      expect(await sluice.client.getWebhook(mine.id)).toMatchObject({ id: mine.id });
    });

    it("lists newest first and pages with limit, after and before", async () => {
      const account = await sluice.newAccount("pager");
      const ids: string[] = [];
      for (let n = 0; n < 7; n++) {
        ids.push((await account.client.createWebhook({ url: `https://example.com/${n}`, name: `w${n}` })).id);
      }
      const newestFirst = [...ids].reverse();

      const first = await account.client.listWebhooks({ limit: 3 });
      expect(first.data.map((webhook) => webhook.id)).toEqual(newestFirst.slice(0, 3));
      expect(first.page_info).toEqual({
        total_count: 7,
        count: 3,
        start_cursor: newestFirst[0],
        end_cursor: newestFirst[2],
      });

      const second = await account.client.listWebhooks({ limit: 3, after: first.page_info.end_cursor ?? "" });
      expect(second.data.map((webhook) => webhook.id)).toEqual(newestFirst.slice(3, 6));
      const last = await account.client.listWebhooks({ limit: 3, after: second.page_info.end_cursor ?? "" });
      expect(last.data.map((webhook) => webhook.id)).toEqual(newestFirst.slice(6));
      expect(last.page_info.count).toBe(1);

      const back = await account.client.listWebhooks({
        limit: 3,
        before: second.page_info.start_cursor ?? "",
      });
      expect(back.data.map((webhook) => webhook.id)).toEqual(newestFirst.slice(0, 3));

      expect((await account.client.listWebhooks()).data).toHaveLength(7);
    });

    it.each([
      ["a missing url", { name: "no url" }, "invalid_url", /url is required/],
      ["an ftp url", { url: "ftp://example.com/x", name: "ftp" }, "invalid_url", /http or https/],
      ["a url that is not a URL", { url: "not a url", name: "rel" }, "invalid_url", /not an absolute URL/],
      ["a relative url", { url: "/relative/path", name: "rel" }, "invalid_url", /not an absolute URL/],
      ["a url without a host", { url: "http://", name: "no host" }, "invalid_url", /./],
      [
        "a 2,049-character url",
        { url: `https://example.com/${"x".repeat(2029)}`, name: "long" },
        "invalid_url",
        /at most 2048/,
      ],
      ["a missing name", { url: "https://example.com/x" }, "invalid_request", /name/],
      ["a blank name", { url: "https://example.com/x", name: "   " }, "invalid_request", /name is required/],
      [
        "an object description",
        { url: "https://example.com/x", name: "n", description: { a: 1 } },
        "invalid_request",
        /description/,
      ],
    ])("refuses %s with 400", async (_label, body, code, message) => {
      const error = await sluice.client
        .data("POST", "/v1/webhooks", { body })
        .catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(ApiError);
      expect(error).toMatchObject({ status: 400, code });
      expect((error as ApiError).message).toMatch(message);
    });

    it("accepts a URL of exactly 2,048 characters", async () => {
      const prefix = "https://example.com/";
      const url = prefix + "x".repeat(2048 - prefix.length);
      expect((await sluice.client.createWebhook({ url, name: "max" })).url).toHaveLength(2048);
    });

    it("refuses a page size over 100 and both cursors at once", async () => {
      await expect(sluice.client.listWebhooks({ limit: 101 })).rejects.toMatchObject({ status: 400 });
      await expect(sluice.client.listWebhooks({ limit: 0 })).rejects.toMatchObject({ status: 400 });
      await expect(sluice.client.listWebhooks({ after: "wh_a", before: "wh_b" })).rejects.toMatchObject({
        status: 400,
        code: "invalid_request",
      });
    });
  });
}

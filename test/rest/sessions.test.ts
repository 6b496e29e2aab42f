/**
 * Web UI sessions over a real socket, on every dialect: signing in with an API key sets an
 * httpOnly, SameSite=Strict cookie (never the key); the cookie authenticates like the key; unsafe
 * methods need the CSRF header and a same-site Origin; signing out and revoking the key end it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { rawRequest, startTestServer, type TestServer } from "../support/server.js";

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`web UI sessions on ${dialect.name}`, () => {
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

    async function signIn(apiKey: string): Promise<string> {
      const answer = await rawRequest(`${sluice.url}/v1/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ api_key: apiKey }),
      });
      expect(answer.status).toBe(200);
      const cookie = answer.headers.get("set-cookie") ?? "";
      return cookie.split(";")[0] ?? "";
    }

    it("signing in sets an httpOnly, SameSite=Strict session cookie that does not hold the key", async () => {
      const answer = await rawRequest(`${sluice.url}/v1/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ api_key: sluice.apiKey }),
      });
      expect(answer.status).toBe(200);
      expect(answer.body).toMatchObject({ data: { name: "admin", is_admin: true } });
      const cookie = answer.headers.get("set-cookie") ?? "";
      expect(cookie).toMatch(/^sluice_session=ses_[\w-]{20,};/);
      expect(cookie).toContain("HttpOnly");
      expect(cookie).toContain("SameSite=Strict");
      expect(cookie).not.toContain(sluice.apiKey);
    });

    it("an invalid key is refused with 401 and no cookie", async () => {
      const answer = await rawRequest(`${sluice.url}/v1/sessions`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ api_key: "sk_not_a_key" }),
      });
      expect(answer.status).toBe(401);
      expect(answer.body).toMatchObject({ error: { code: "unauthorized" } });
      expect(answer.headers.get("set-cookie")).toBeNull();
    });

    it("the cookie authenticates reads; writes need the CSRF header and a same-site Origin", async () => {
      const cookie = await signIn(sluice.apiKey);
      const me = await rawRequest(`${sluice.url}/v1/users/me`, { headers: { cookie } });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ data: { name: "admin" } });

      const body = JSON.stringify({ name: "from-the-ui", url: "https://example.com/hook" });
      const json = { "content-type": "application/json", cookie };
      const noHeader = await rawRequest(`${sluice.url}/v1/webhooks`, { method: "POST", headers: json, body });
      expect(noHeader.status).toBe(403);
      expect(noHeader.body).toMatchObject({ error: { code: "csrf_check_failed" } });

      const crossSite = await rawRequest(`${sluice.url}/v1/webhooks`, {
        method: "POST",
        headers: { ...json, "x-sluice-csrf": "1", origin: "https://evil.example" },
        body,
      });
      expect(crossSite.status).toBe(403);
      expect(crossSite.body).toMatchObject({ error: { code: "csrf_check_failed" } });

      const sameSite = await rawRequest(`${sluice.url}/v1/webhooks`, {
        method: "POST",
        headers: { ...json, "x-sluice-csrf": "1", origin: sluice.url },
        body,
      });
      expect(sameSite.status).toBe(200);
      const list = await sluice.client.listWebhooks();
      expect(list.data.filter((webhook) => webhook.name === "from-the-ui")).toHaveLength(1);
    });

    it("bearer callers need no CSRF header (REST semantics unchanged)", async () => {
      const created = await rawRequest(`${sluice.url}/v1/webhooks`, {
        method: "POST",
        apiKey: sluice.apiKey,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "bearer", url: "https://example.com/b" }),
      });
      expect(created.status).toBe(200);
    });

    it("signing out ends the session on the server: the old cookie is refused", async () => {
      const cookie = await signIn(sluice.apiKey);
      const out = await rawRequest(`${sluice.url}/v1/sessions/current`, {
        method: "DELETE",
        headers: { cookie, "x-sluice-csrf": "1" },
      });
      expect(out.status).toBe(204);
      expect(out.headers.get("set-cookie")).toContain("Max-Age=0");
      const after = await rawRequest(`${sluice.url}/v1/users/me`, { headers: { cookie } });
      expect(after.status).toBe(401);
    });

    it("revoking the key ends the sessions opened with it", async () => {
      const extra = await sluice.client.createApiKey("for-the-ui");
      const cookie = await signIn(extra.api_key);
      expect((await rawRequest(`${sluice.url}/v1/users/me`, { headers: { cookie } })).status).toBe(200);
      await sluice.client.revokeApiKey(extra.id);
      const after = await rawRequest(`${sluice.url}/v1/users/me`, { headers: { cookie } });
      expect(after.status).toBe(401);
      expect(after.body).toMatchObject({ error: { code: "unauthorized" } });
    });

    it("a session sees only its own account's resources", async () => {
      const other = await sluice.newAccount("someone-else");
      const cookie = await signIn(other.apiKey);
      const list = await rawRequest(`${sluice.url}/v1/users/me/webhooks`, { headers: { cookie } });
      expect(list.status).toBe(200);
      expect((list.body as { data: unknown[] }).data).toEqual([]);
      const admin = await rawRequest(`${sluice.url}/v1/accounts`, {
        method: "POST",
        headers: { cookie, "x-sluice-csrf": "1", "content-type": "application/json" },
        body: JSON.stringify({ name: "nope" }),
      });
      expect(admin.status).toBe(403);
    });

    it("the UI is served at / with a history fallback that does not shadow the API", async () => {
      const index = await rawRequest(`${sluice.url}/sources/dc_anything?tab=events`);
      expect(index.status).toBe(200);
      expect(index.headers.get("content-type")).toMatch(/^text\/html/);
      expect(index.headers.get("cache-control")).toBe("no-cache");
      const script = /src="(\/assets\/[^"]+\.js)"/.exec(index.text)?.[1];
      expect(script).toBeDefined();
      const asset = await rawRequest(`${sluice.url}${script}`);
      expect(asset.status).toBe(200);
      expect(asset.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
      expect((await rawRequest(`${sluice.url}/`)).headers.get("content-type")).toMatch(/^text\/html/);

      const api = await rawRequest(`${sluice.url}/v1/nothing-here`);
      expect(api.status).toBe(404);
      expect(api.body).toMatchObject({ error: { code: "route_not_found" } });
      const missingAsset = await rawRequest(`${sluice.url}/assets/nope.js`);
      expect(missingAsset.status).toBe(404);
      expect(missingAsset.body).toMatchObject({ error: { code: "route_not_found" } });
    });
  });
}

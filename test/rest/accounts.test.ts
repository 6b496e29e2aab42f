/** Accounts, /users/me and API keys over a real socket, on every dialect. */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { rawRequest, startTestServer, type TestServer } from "../support/server.js";

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`accounts and API keys on ${dialect.name}`, () => {
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

    it("the bootstrap key belongs to the first account, an admin", async () => {
      expect(await sluice.client.me()).toMatchObject({ name: "admin", username: "admin", is_admin: true });
      expect((await sluice.client.me()).id).toMatch(/^u_/);
    });

    it("an admin creates an account whose key works and is not an admin's", async () => {
      const created = await sluice.client.createAccount("team-b");
      expect(created.id).toMatch(/^u_/);
      expect(created.name).toBe("team-b");
      expect(created.api_key).toMatch(/^sk_/);
      const me = await sluice.clientWith(created.api_key).me();
      expect(me).toMatchObject({ id: created.id, name: "team-b", is_admin: false });
    });

    it("a non-admin key cannot create accounts (403 admin_required)", async () => {
      const other = await sluice.newAccount("plain");
      await expect(other.client.createAccount("sneaky")).rejects.toMatchObject({
        status: 403,
        code: "admin_required",
      });
    });

    it("an account needs a name", async () => {
      await expect(sluice.client.data("POST", "/v1/accounts", { body: {} })).rejects.toMatchObject({
        status: 400,
      });
    });

    it("a second key works, is listed without its secret, and once revoked gets 401", async () => {
      const account = await sluice.newAccount("keys");
      const second = await account.client.createApiKey("ci");
      expect(second.api_key).toMatch(/^sk_/);
      expect(second.name).toBe("ci");
      const secondClient = sluice.clientWith(second.api_key);
      expect((await secondClient.me()).id).toBe(account.id);

      const listed = await account.client.listApiKeys();
      expect(listed.map((key) => key.id)).toContain(second.id);
      expect(JSON.stringify(listed)).not.toContain(second.api_key);
      expect(listed.find((key) => key.id === second.id)?.prefix).toBe(second.api_key.slice(0, 7));

      expect(await account.client.revokeApiKey(second.id)).toEqual({ id: second.id, deleted: true });
      await expect(secondClient.me()).rejects.toMatchObject({ status: 401, code: "unauthorized" });
      await expect(secondClient.listWebhooks()).rejects.toMatchObject({ status: 401 });
      // The account's other key is unaffected.
      expect((await account.client.me()).id).toBe(account.id);
      expect((await account.client.listApiKeys()).map((key) => key.id)).not.toContain(second.id);
    });

    it("the account's last key cannot be revoked (409), so the account is never locked out", async () => {
      const account = await sluice.newAccount("lonely");
      const [only] = await account.client.listApiKeys();
      await expect(account.client.revokeApiKey(only?.id ?? "")).rejects.toMatchObject({
        status: 409,
        code: "last_api_key",
      });
    });

    it("another account's key id is not found", async () => {
      const a = await sluice.newAccount("a");
      const b = await sluice.newAccount("b");
      const key = await a.client.createApiKey();
      await expect(b.client.revokeApiKey(key.id)).rejects.toMatchObject({ status: 404 });
      expect((await sluice.clientWith(key.api_key).me()).id).toBe(a.id);
    });

    it("answers 401 with a JSON error for a missing, malformed or unknown key", async () => {
      const attempts: Record<string, string>[] = [
        {},
        { authorization: "Basic abc" },
        { authorization: "Bearer sk_unknown" },
      ];
      for (const headers of attempts) {
        const response = await rawRequest(`${sluice.url}/v1/users/me`, { headers });
        expect(response.status).toBe(401);
        expect(response.body).toMatchObject({ error: { code: "unauthorized" } });
      }
    });
  });
}

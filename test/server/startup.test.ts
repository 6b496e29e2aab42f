/** Starting a server: the master key, the first account, and several nodes starting at once. */
import fs from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { SluiceClient } from "../../src/client/client.js";
import { loadServerConfig } from "../../src/config/server-config.js";
import { MASTER_KEY_FILE } from "../../src/core/secret-box.js";
import { startServer } from "../../src/server/server.js";
import { PID_FILE } from "../../src/store/data-dir-lock.js";
import { openStore } from "../../src/store/store.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { testEnvironment } from "../support/server.js";

const BOOTSTRAP_KEY = "sk_bootstrap_0123456789";

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`server start-up on ${dialect.name}`, () => {
    const cleanups: (() => Promise<void>)[] = [];
    afterEach(async () => {
      for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
    });
    const newDatabase = async (): Promise<TestDatabase> => {
      const database = await dialect.create();
      cleanups.push(() => database.cleanup());
      return database;
    };
    const start = async (database: TestDatabase, env: Record<string, string> = {}) => {
      const server = await startServer(loadServerConfig({}, testEnvironment(database, env)));
      cleanups.push(() => server.close());
      return server;
    };

    it("generates a master key into the data directory, readable by its owner only", async () => {
      const database = await newDatabase();
      await start(database, { SLUICE_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY });
      const stat = fs.statSync(path.join(database.dataDir, MASTER_KEY_FILE));
      expect(stat.mode & 0o777).toBe(0o600);
    });

    it("refuses to start with a master key other than the one the database was set up with", async () => {
      const database = await newDatabase();
      const first = await start(database, { SLUICE_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY });
      await first.close();
      const otherKey = Buffer.alloc(32, 7).toString("base64");
      await expect(start(database, { SLUICE_MASTER_KEY: otherKey })).rejects.toThrow(
        /different master key.*SLUICE_MASTER_KEY/,
      );
    });

    it("stores webhook signing secrets encrypted, never in plain text", async () => {
      const database = await newDatabase();
      const server = await start(database, { SLUICE_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY });
      const client = new SluiceClient({ baseUrl: server.url, apiKey: BOOTSTRAP_KEY });
      const webhook = await client.createWebhook({ url: "https://example.com/x", name: "enc" });
      const row = await server.store.db
        .selectFrom("webhooks")
        .select("signing_secret")
        .where("id", "=", webhook.id)
        .executeTakeFirstOrThrow();
      expect(row.signing_secret).not.toContain(webhook.signing_secret.slice(6));
      expect(row.signing_secret).toMatch(/^v1:/);
    });

    it("creates the first account only on an empty database; a later bootstrap key is ignored", async () => {
      const database = await newDatabase();
      const first = await start(database, { SLUICE_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY });
      await first.close();
      const second = await start(database, { SLUICE_BOOTSTRAP_API_KEY: "sk_another_bootstrap_key_1" });
      expect((await new SluiceClient({ baseUrl: second.url, apiKey: BOOTSTRAP_KEY }).me()).is_admin).toBe(
        true,
      );
      await expect(
        new SluiceClient({ baseUrl: second.url, apiKey: "sk_another_bootstrap_key_1" }).me(),
      ).rejects.toMatchObject({ status: 401 });
    });

    // Several nodes share a database in scale mode only; embedded mode is one process (below).
    if (dialect.name === "postgres") {
      it("nodes starting together on one empty database create exactly one first account", async () => {
        const database = await newDatabase();
        const masterKey = Buffer.alloc(32, 1).toString("base64");
        const announced: string[] = [];
        const nodes = await Promise.all(
          [0, 1, 2].map(async () => {
            const config = loadServerConfig({}, testEnvironment(database, { SLUICE_MASTER_KEY: masterKey }));
            const server = await startServer(config, { announceFirstKey: (key) => announced.push(key) });
            cleanups.push(() => server.close());
            return server;
          }),
        );
        expect(announced).toHaveLength(1);
        const store = await openStore(database);
        try {
          const accounts = await store.db.selectFrom("accounts").selectAll().execute();
          expect(accounts).toHaveLength(1);
        } finally {
          await store.close();
        }
        for (const node of nodes) {
          expect(
            (await new SluiceClient({ baseUrl: node.url, apiKey: announced[0] ?? "" }).me()).is_admin,
          ).toBe(true);
        }
      });
    }

    if (dialect.name === "sqlite") {
      it("refuses a data directory that another running server holds, and takes over a stale lock", async () => {
        const database = await newDatabase();
        const pidFile = path.join(database.dataDir, PID_FILE);
        // The test runner's parent process is alive and is not this process.
        fs.writeFileSync(pidFile, `${process.ppid}\n`);
        await expect(start(database, { SLUICE_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY })).rejects.toThrow(
          /Another Sluice server \(pid \d+\) is using the data directory/,
        );
        // A pid that no longer runs (a crashed server) is taken over.
        fs.writeFileSync(pidFile, "4194000\n");
        const server = await start(database, { SLUICE_BOOTSTRAP_API_KEY: BOOTSTRAP_KEY });
        expect(fs.readFileSync(pidFile, "utf8").trim()).toBe(String(process.pid));
        await server.close();
        expect(fs.existsSync(pidFile)).toBe(false);
      });
    }
  });
}

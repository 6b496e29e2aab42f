/**
 * Package imports as jobs (`POST /v1/registry/imports`): the request answers 202 once the package
 * is checked and unpacked, and `GET /v1/registry/imports/{id}` follows it until every component
 * is published, skipped or failed. What a user can fix is refused at once, with nothing
 * published; another account's import is not found; an import whose server stopped renewing it
 * reads as failed, saying to run it again.
 */
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, type SluiceClient } from "../../src/client/client.js";
import type { ImportJob } from "../../src/client/types.js";
import { sqliteDriver } from "../../src/store/sqlite-driver.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { waitUntil } from "../support/wait.js";

const action = (key: string, version = "0.0.1", body = "return 1;") => `export default {
  key: "${key}", name: "${key}", version: "${version}", type: "action", props: {},
  async run() { ${body} },
};`;

const PACKAGE = {
  "imports.app.mjs": 'export default { type: "app", app: "imports", methods: { two() { return 2; } } };',
  "actions/first/first.mjs": action("imports-first"),
  "actions/second/second.mjs": `import app from "../../imports.app.mjs";\n${action("imports-second", "0.0.1", "return app.methods.two();")}`,
  "actions/broken/broken.mjs": "export default { this is not JavaScript",
  "actions/common/helper.mjs": "export const helper = 1;",
};

async function finished(client: SluiceClient, started: ImportJob): Promise<ImportJob> {
  if (started.status !== "running") return started;
  return waitUntil(
    `import ${started.id} to finish`,
    async () => {
      const job = await client.getImport(started.id);
      return job.status === "running" ? undefined : job;
    },
    60_000,
    100,
  );
}

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  if (error instanceof ApiError) return error;
  throw new Error(`expected an API error, got ${String(error)}`);
}

/** As if the node running the import died two minutes ago: its row stops being renewed. */
async function cutOff(database: TestDatabase, id: string): Promise<void> {
  const stale = Date.now() - 120_000;
  if (database.databaseUrl === undefined) {
    const db = new (sqliteDriver().Database)(path.join(database.dataDir, "sluice.db"));
    try {
      db.prepare("update registry_imports set status = 'running', heartbeat_at = ? where id = ?").run(
        stale,
        id,
      );
    } finally {
      db.close();
    }
    return;
  }
  const client = new pg.Client({ connectionString: database.databaseUrl });
  await client.connect();
  try {
    await client.query("update registry_imports set status = 'running', heartbeat_at = $1 where id = $2", [
      stale,
      id,
    ]);
  } finally {
    await client.end();
  }
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`package imports as jobs on ${dialect.name}`, () => {
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

    it("answers 202 at once, then reports each component; a second import skips them all", async () => {
      const started = await sluice.client.startImport({ files: PACKAGE });
      expect(started).toMatchObject({ registry: "private", source: "files", total: 3 });
      expect(started.id).toMatch(/^imp_/);
      expect(["running", "succeeded"]).toContain(started.status);

      const job = await finished(sluice.client, started);
      expect(job.status).toBe("succeeded");
      expect(job.error).toBeNull();
      expect(job.finished_at).toBeGreaterThanOrEqual(job.created_at);
      expect(job.components.map((row) => [row.file, row.status])).toEqual([
        ["actions/broken/broken.mjs", "failed"],
        ["actions/first/first.mjs", "published"],
        ["actions/second/second.mjs", "published"],
      ]);
      expect(job.components[0]?.reason).toMatch(/broken/);

      const run = await sluice.client.runAction({ key: "imports-second" });
      expect(run.return_value).toBe(2);

      const again = await finished(sluice.client, await sluice.client.startImport({ files: PACKAGE }));
      expect(again.components.map((row) => row.status)).toEqual(["failed", "skipped", "skipped"]);

      const listed = await sluice.client.request<{ data: ImportJob[] }>("GET", "/v1/registry/imports");
      expect(listed.data.map((row) => row.id)).toEqual([again.id, job.id]);
    });

    it("refuses what a user can fix before anything is published", async () => {
      const none = await failure(sluice.client.startImport({ files: { "README.md": "# nothing here" } }));
      expect([none.status, none.code]).toEqual([400, "no_components"]);
      const someone = await sluice.newAccount("importer");
      const notAdmin = await failure(someone.client.startImport({ files: PACKAGE, registry: "public" }));
      expect([notAdmin.status, notAdmin.code]).toEqual([403, "admin_required"]);
      const outside = await failure(
        sluice.client.startImport({ files: { "../actions/x/x.mjs": action("imports-outside") } }),
      );
      expect(outside.status).toBe(400);
      const tooLong = await failure(sluice.client.startImport({ files: { ["z".repeat(300)]: "0" } }));
      expect([tooLong.status, tooLong.code]).toEqual([400, "invalid_file_path"]);
      expect(tooLong.message).toContain("longer than 255 bytes");
      const clash = await failure(
        sluice.client.startImport({
          files: { "actions/x": "a file", "actions/x/x.mjs": action("imports-clash") },
        }),
      );
      expect([clash.status, clash.code]).toEqual([400, "invalid_file_path"]);
      const listed = await someone.client.request<{ data: ImportJob[] }>("GET", "/v1/registry/imports");
      expect(listed.data).toEqual([]);
    });

    it("another account's import is not found", async () => {
      const job = await finished(
        sluice.client,
        await sluice.client.startImport({ files: { "actions/own/own.mjs": action("imports-own") } }),
      );
      const other = await sluice.newAccount("other");
      const hidden = await failure(other.client.getImport(job.id));
      expect([hidden.status, hidden.code]).toEqual([404, "not_found"]);
      const junk = await failure(sluice.client.getImport("imp_nope"));
      expect(junk.status).toBe(404);
    });

    it("an import whose server stopped renewing it reads as failed, saying to run it again", async () => {
      const job = await finished(
        sluice.client,
        await sluice.client.startImport({ files: { "actions/cut/cut.mjs": action("imports-cut") } }),
      );
      await cutOff(database, job.id);
      const read = await sluice.client.getImport(job.id);
      expect(read.status).toBe("failed");
      expect(read.error).toMatch(/stopped after 1 of 1 components .*Run the import again/);
    });
  });
}

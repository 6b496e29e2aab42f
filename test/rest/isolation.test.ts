/**
 * The sandbox seen through the public surface: components deployed over REST and run with
 * POST /v1/sources/{id}/run. Each escape or runaway fails its own invocation, is logged with the
 * source, and leaves the next invocation of that source and every other source working.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RunResult, Source } from "../../src/client/types.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { rawRequest, startTestServer, type TestServer } from "../support/server.js";

const NETWORK_TIMEOUT = 120_000;

/**
 * Misbehaves on its first run only: a counter in its db (written before the misbehaviour, and kept
 * with the failed invocation) makes the second run healthy.
 */
function misbehaving(behaviour: string): string {
  return `import fs from "node:fs";
  import { execSync } from "node:child_process";
  export default {
    name: "misbehaving",
    props: { db: "$.service.db", target: { type: "string", optional: true } },
    async run() {
      const runs = this.db.get("runs") ?? 0;
      this.db.set("runs", runs + 1);
      if (runs === 0) {
        console.log("about to misbehave");
        ${behaviour}
      }
      this.$emit({ healthy: runs });
    },
  };`;
}

const BEHAVIOURS = {
  "reads the database file": `this.$emit({ stolen: fs.readFileSync(this.target, "utf8").length });`,
  "spawns a process": `this.$emit({ spawned: execSync("id").toString() });`,
  "loops forever": `for (;;) {}`,
  "allocates without end": `const hog = []; for (;;) hog.push(new Array(100000).fill(Math.random()));`,
  "calls process.exit": `process.exit(3);`,
} as const;

const HEALTHY = `export default {
  name: "healthy",
  props: { http: { type: "$.interface.http" } },
  async run(event) { this.$emit({ n: event.body.n }); },
};`;

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`sandbox isolation over REST on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let healthy: Source;

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database);
      healthy = await sluice.client.deploySource({ component_code: HEALTHY });
    });
    afterAll(async () => {
      await sluice?.close();
      await database?.cleanup();
    });

    /** The file a component must not read: the SQLite database, or on PostgreSQL the master key. */
    const forbiddenFile = () =>
      path.join(database.dataDir, dialect.name === "sqlite" ? "sluice.db" : "master.key");

    /**
     * Sends requests to the healthy source's endpoint, one after another, until `work` settles
     * (at least one); resolves with work's value and each request's status.
     */
    async function probeHealthyDuring<T>(work: Promise<T>): Promise<{ value: T; statuses: number[] }> {
      let settled = false;
      const outcome = work.finally(() => {
        settled = true;
      });
      outcome.catch(() => {});
      const endpoint = `${sluice.url}${new URL(healthy.endpoint_url ?? "").pathname}`;
      const statuses: number[] = [];
      const before = (await sluice.client.listEvents(healthy.id)).page_info.total_count;
      do {
        const response = await rawRequest(endpoint, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ n: statuses.length }),
        });
        statuses.push(response.status);
      } while (!settled);
      // Every answered request was run and stored.
      const after = (await sluice.client.listEvents(healthy.id)).page_info.total_count;
      expect(after - before).toBe(statuses.length);
      return { value: await outcome, statuses };
    }

    it("a component sees only PD_COMPONENT, its own id, in process.env", async () => {
      const source = await sluice.client.deploySource({
        component_code: `export default { name: "env", async run() {
          this.$emit({ env: { ...process.env } });
        } };`,
      });
      const run = await sluice.client.runSource(source.id);
      expect(run.ok).toBe(true);
      const [event] = (await sluice.client.listEvents(source.id, { expand: "event" })).data;
      expect(event?.event).toEqual({ env: { PD_COMPONENT: source.id } });
    });

    // Only the endless loop gets the 1 s time-out: the others must fail for their own reason.
    it.each([
      ["reads the database file", "error", /Access to this API has been restricted/, undefined],
      ["spawns a process", "error", /Access to this API has been restricted/, undefined],
      ["loops forever", "timeout", /timed out after 1 s/, 1],
      ["allocates without end", "out_of_memory", /memory/, undefined],
      ["calls process.exit", "exit", /process\.exit\(3\)/, undefined],
    ] as const)(
      "a component that %s fails alone with reason %s, is logged, and its next run works",
      async (behaviour, reason, message, timeoutSeconds) => {
        const target = forbiddenFile();
        expect(fs.existsSync(target)).toBe(true);
        const source = await sluice.client.deploySource({
          component_code: misbehaving(BEHAVIOURS[behaviour]),
          configured_props: { target },
          ...(timeoutSeconds === undefined ? {} : { timeout_seconds: timeoutSeconds }),
        });
        expect(source.timeout_seconds).toBe(timeoutSeconds ?? 30);

        const { value: failed, statuses } = await probeHealthyDuring(sluice.client.runSource(source.id));
        expect(failed.ok).toBe(false);
        expect(failed.failure?.reason).toBe(reason);
        expect(failed.failure?.message).toMatch(message);
        expect(failed.events).toEqual([]);
        expect(statuses.length).toBeGreaterThan(0);
        expect(statuses.every((status) => status === 200)).toBe(true);

        const logs = (await sluice.client.listLogs(source.id, { limit: 100 })).data;
        const failure = logs.find((line) => line.message.startsWith(`invocation failed (${reason})`));
        expect(failure?.level).toBe("error");
        expect(failure?.invocation_id).toBe(failed.invocation_id);
        expect(logs.some((line) => line.message === "about to misbehave")).toBe(true);
        if (behaviour === "reads the database file") {
          // Not a byte of the file reached the logs or the result.
          const header = dialect.name === "sqlite" ? "SQLite format 3" : fs.readFileSync(target, "utf8");
          expect(JSON.stringify(logs)).not.toContain(header.trim());
          expect(JSON.stringify(failed)).not.toContain(header.trim());
        }

        const next: RunResult = await sluice.client.runSource(source.id);
        expect(next.ok).toBe(true);
        expect(next.failure).toBeNull();
        expect(next.events).toHaveLength(1);
        const [event] = (await sluice.client.listEvents(source.id, { expand: "event" })).data;
        expect(event?.event).toEqual({ healthy: 1 });
      },
      30_000,
    );

    it(
      'import _ from "lodash@4.17.20" in a component deployed over REST gives _.VERSION 4.17.20',
      async () => {
        const source = await sluice.client.deploySource({
          component_code: `import _ from "lodash@4.17.20";
          export default { name: "lodash user", async run() {
            this.$emit({ version: _.VERSION, chunked: _.chunk([1, 2, 3, 4, 5], 2) });
          } };`,
        });
        const component = await sluice.client.getComponent(source.component_id);
        expect(component.lock).toEqual({ lodash: "4.17.20" });
        expect((await sluice.client.runSource(source.id)).ok).toBe(true);
        const [event] = (await sluice.client.listEvents(source.id, { expand: "event" })).data;
        expect(event?.event).toEqual({ version: "4.17.20", chunked: [[1, 2], [3, 4], [5]] });
      },
      NETWORK_TIMEOUT,
    );
  });
}

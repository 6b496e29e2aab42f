/** Timer and cron sources: ticks as jobs, across restarts and nodes. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SluiceClient } from "../../src/client/client.js";
import type { EventSummary } from "../../src/client/types.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { refuseEventInserts } from "../support/refuse-events.js";
import { startTestServer, type TestServer, testEnvironment } from "../support/server.js";
import { killAllServerProcesses, startServerProcess, stopServerProcess } from "../support/server-process.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A timer source that emits the tick event with the time it ran. */
function tickSource(schedule: string, runMs = 0): string {
  return `export default {
    name: "ticker",
    props: { timer: { type: "$.interface.timer", default: ${schedule} } },
    async run(event) {
      const started = Date.now();
      await new Promise((resolve) => setTimeout(resolve, ${runMs}));
      this.$emit({ ...event, started, ended: Date.now() });
    },
  };`;
}

async function tickEvents(
  client: SluiceClient,
  sourceId: string,
): Promise<Record<string, number | string | null>[]> {
  const page = await client.listEvents(sourceId, { limit: 100, expand: "event" });
  return page.data.map((item: EventSummary) => item.event as Record<string, number>).reverse();
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`timers on ${dialect.name}`, () => {
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

    it("a 1-second interval source fires at least 4 times in 5 s, with correct timestamps", async () => {
      const source = await sluice.client.deploySource({
        component_code: tickSource("{ intervalSeconds: 1 }"),
      });
      await sleep(5000);
      const ticks = await tickEvents(sluice.client, source.id);
      expect(ticks.length).toBeGreaterThanOrEqual(4);
      for (const tick of ticks) {
        expect(tick.interval_seconds).toBe(1);
        // `timestamp` is the firing time in whole seconds; the run starts just after it.
        const lag = (tick.started as number) - (tick.timestamp as number) * 1000;
        expect(lag).toBeGreaterThanOrEqual(0);
        expect(lag).toBeLessThan(2500);
      }
      // At most one tick a second: 5 s hold 5 (6 if the first came at once).
      expect(ticks.length).toBeLessThanOrEqual(6);
      await sluice.client.deleteSource(source.id);
    });

    it("a cron schedule with seconds fires, and its event carries the cron and no interval", async () => {
      const source = await sluice.client.deploySource({
        component_code: tickSource('{ cron: "* * * * * *", timezone: "Europe/Paris" }'),
      });
      await sleep(2500);
      const ticks = await tickEvents(sluice.client, source.id);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect(ticks[0]).toMatchObject({ interval_seconds: null, cron: "* * * * * *" });
      await sluice.client.deleteSource(source.id);
    });

    it("deactivating stops the ticks at once, and activating starts them again", async () => {
      const source = await sluice.client.deploySource({
        component_code: tickSource("{ intervalSeconds: 1 }"),
      });
      await sleep(1500);
      await sluice.client.updateSource(source.id, { active: false });
      const before = (await tickEvents(sluice.client, source.id)).length;
      await sleep(2500);
      expect((await tickEvents(sluice.client, source.id)).length).toBe(before);
      await sluice.client.updateSource(source.id, { active: true });
      await sleep(2200);
      expect((await tickEvents(sluice.client, source.id)).length).toBeGreaterThan(before);
      await sluice.client.deleteSource(source.id);
      const jobs = await sluice.server.store.db
        .selectFrom("jobs")
        .selectAll()
        .where("unique_key", "=", `timer:${source.id}`)
        .execute();
      expect(jobs).toEqual([]);
    });

    it("a source deleted while its tick runs leaves no tick behind", async () => {
      const source = await sluice.client.deploySource({
        component_code: tickSource("{ intervalSeconds: 1 }", 1500),
      });
      const tickJob = () =>
        sluice.server.store.db
          .selectFrom("jobs")
          .select(["id", "locked_until"])
          .where("unique_key", "=", `timer:${source.id}`)
          .executeTakeFirst();
      // The first tick is leased while its run sleeps.
      const deadline = Date.now() + 5000;
      while ((await tickJob())?.locked_until == null && Date.now() < deadline) await sleep(50);
      expect((await tickJob())?.locked_until).not.toBeNull();
      // The delete cancels the tick, then waits for the run (its deactivate hook runs after it, in
      // the source's lane); the run's commit finds its tick gone and schedules none.
      await sluice.client.deleteSource(source.id);
      await sleep(2500);
      expect(await tickJob()).toBeUndefined();
      await expect(sluice.client.listEvents(source.id)).rejects.toMatchObject({ status: 404 });
    });

    it("ticks whose commits fail leave no count behind: the next ticks count on from the committed state", async () => {
      const source = await sluice.client.deploySource({
        component_code: `export default {
          name: "tick-counter",
          props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 1 } }, db: "$.service.db" },
          async run() {
            const n = (this.db.get("n") ?? 0) + 1;
            this.db.set("n", n);
            this.$emit({ n });
          },
        };`,
      });
      const counts = async () => (await tickEvents(sluice.client, source.id)).map((tick) => tick.n);
      const until = async (enough: (seen: unknown[]) => boolean) => {
        const deadline = Date.now() + 10_000;
        while (!enough(await counts()) && Date.now() < deadline) await sleep(100);
      };
      await until((seen) => seen.length >= 2);
      const before = (await counts()).length;
      // Each tick runs (the runner counts on in its memory) and its commit fails.
      const allow = await refuseEventInserts(database, sluice.server.store.db);
      await sleep(2_500);
      await allow();
      expect((await counts()).length).toBe(before);
      await until((seen) => seen.length >= before + 2);
      const seen = await counts();
      // One after another from 1: none of the failed ticks' counts was kept.
      expect(seen).toEqual(seen.map((_, index) => index + 1));
      expect(seen.length).toBeGreaterThanOrEqual(before + 2);
    });

    it("an update that changes the schedule reschedules it", async () => {
      const source = await sluice.client.deploySource({
        component_code: tickSource("{ intervalSeconds: 1 }"),
      });
      await sleep(1200);
      await sluice.client.updateSource(source.id, { configured_props: { timer: { intervalSeconds: 3600 } } });
      const before = (await tickEvents(sluice.client, source.id)).length;
      await sleep(2200);
      expect((await tickEvents(sluice.client, source.id)).length).toBe(before);
      const [job] = await sluice.server.store.db
        .selectFrom("jobs")
        .selectAll()
        .where("unique_key", "=", `timer:${source.id}`)
        .execute();
      expect(Number(job?.run_at)).toBeGreaterThan(Date.now() + 3500 * 1000);
      await sluice.client.deleteSource(source.id);
    });

    it("a run that outlasts its interval never overlaps the next one, and the skipped ticks are logged", async () => {
      const source = await sluice.client.deploySource({
        component_code: tickSource("{ intervalSeconds: 1 }", 2200),
      });
      await sleep(7500);
      const ticks = await tickEvents(sluice.client, source.id);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      for (let n = 1; n < ticks.length; n++) {
        expect(ticks[n]?.started as number).toBeGreaterThanOrEqual(ticks[n - 1]?.ended as number);
      }
      const logs = await sluice.client.listLogs(source.id, { limit: 100 });
      expect(logs.data.map((line) => line.message).join("\n")).toMatch(
        /tick\(s\) skipped because the previous run outlasted its interval/,
      );
      await sluice.client.deleteSource(source.id);
    });

    it.each([
      ["an interval of 0", "{ intervalSeconds: 0 }", /intervalSeconds must be an integer of at least 1/],
      ["a cron of 4 fields", '{ cron: "* * * *" }', /cron takes 5 fields \(or 6 with seconds\), got 4/],
      ["an invalid cron", '{ cron: "99 * * * *" }', /cron '99 \* \* \* \*' is not valid/],
      [
        "an unknown time zone",
        '{ cron: "* * * * *", timezone: "Mars/Olympus" }',
        /timezone must be an IANA time zone name/,
      ],
    ])("refuses a timer with %s", async (_label, schedule, message) => {
      const error = await sluice.client
        .saveComponent({ component_code: tickSource(schedule) })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 400, code: "invalid_prop" });
      expect(String((error as Error).message)).toMatch(message);
    });

    it("a schedule configured at deploy overrides the default; a static one cannot be configured", async () => {
      const source = await sluice.client.deploySource({
        component_code: tickSource("{ intervalSeconds: 3600 }"),
        configured_props: { timer: { intervalSeconds: 1 } },
      });
      await sleep(2200);
      expect((await tickEvents(sluice.client, source.id)).length).toBeGreaterThanOrEqual(1);
      await sluice.client.deleteSource(source.id);
      const error = await sluice.client
        .deploySource({
          component_code: `export default { name: "static", props: { timer: { type: "$.interface.timer", static: { intervalSeconds: 60 } } }, async run() {} };`,
          configured_props: { timer: { intervalSeconds: 1 } },
        })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 400, code: "invalid_prop" });
    });
  });
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`timers across restarts and nodes on ${dialect.name}`, () => {
    let database: TestDatabase;
    const env = () =>
      testEnvironment(database, {
        SLUICE_BOOTSTRAP_API_KEY: "sk_timers_0123456789abcdef",
        SLUICE_MASTER_KEY: Buffer.alloc(32, 9).toString("base64"),
        SLUICE_LOG_LEVEL: "info",
      });

    beforeAll(async () => {
      database = await dialect.create();
    });
    afterEach(async () => {
      await killAllServerProcesses();
    });
    afterAll(async () => {
      await database?.cleanup();
    });

    it("a restart loses no schedule, and the ticks missed while down are logged", async () => {
      const first = await startServerProcess(env());
      const client = new SluiceClient({ baseUrl: first.url, apiKey: "sk_timers_0123456789abcdef" });
      const source = await client.deploySource({ component_code: tickSource("{ intervalSeconds: 1 }") });
      await sleep(1500);
      expect((await stopServerProcess(first.server)).code).toBe(0);
      await sleep(3000);
      const second = await startServerProcess(env());
      const again = new SluiceClient({ baseUrl: second.url, apiKey: "sk_timers_0123456789abcdef" });
      const before = (await tickEvents(again, source.id)).length;
      await sleep(2500);
      expect((await tickEvents(again, source.id)).length).toBeGreaterThan(before);
      const logs = await again.listLogs(source.id, { limit: 100 });
      expect(logs.data.map((line) => line.message).join("\n")).toMatch(
        /tick\(s\) missed \(Sluice was not running/,
      );
      await again.deleteSource(source.id);
    });

    if (dialect.name === "postgres") {
      it("two server processes on one database fire each tick once", async () => {
        const [a, b] = await Promise.all([
          startServerProcess(env()),
          startServerProcess({ ...env(), SLUICE_DATA_DIR: `${database.dataDir}-b` }),
        ]);
        const client = new SluiceClient({ baseUrl: a.url, apiKey: "sk_timers_0123456789abcdef" });
        const sources = await Promise.all(
          [0, 1, 2].map(() => client.deploySource({ component_code: tickSource("{ intervalSeconds: 1 }") })),
        );
        await sleep(5500);
        for (const source of sources) {
          const ticks = await tickEvents(
            new SluiceClient({ baseUrl: b?.url ?? "", apiKey: "sk_timers_0123456789abcdef" }),
            source.id,
          );
          expect(ticks.length).toBeGreaterThanOrEqual(4);
          // 5.5 s of a 1-second timer is 5 or 6 ticks; a tick fired by both nodes would double that.
          expect(ticks.length).toBeLessThanOrEqual(7);
          await client.deleteSource(source.id);
        }
      });
    }
  });
}

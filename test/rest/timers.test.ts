/** Timer and cron sources: ticks as jobs, across restarts and nodes. */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SluiceClient } from "../../src/client/client.js";
import type { EventSummary } from "../../src/client/types.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { refuseEventInserts } from "../support/refuse-events.js";
import { startTestServer, type TestServer, testEnvironment } from "../support/server.js";
import { killAllServerProcesses, startServerProcess, stopServerProcess } from "../support/server-process.js";
import { holdsThroughout, letTimePass, waitUntil } from "../support/wait.js";

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

/** The source's ticks once there are at least `count` of them. */
function atLeastTicks(client: SluiceClient, sourceId: string, count: number, timeoutMs = 15_000) {
  return waitUntil(
    `${count} ticks of ${sourceId}`,
    async () => {
      const ticks = await tickEvents(client, sourceId);
      return ticks.length >= count ? ticks : undefined;
    },
    timeoutMs,
    100,
  );
}

/** Most ticks a 1-second timer may have fired since `since`: one a second, plus one at once. */
function mostTicksSince(since: number): number {
  return Math.ceil((Date.now() - since) / 1000) + 1;
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
      // Time is the point: the test counts the ticks of a 5 s window.
      await letTimePass(5000);
      const ticks = await tickEvents(sluice.client, source.id);
      expect(ticks.length).toBeGreaterThanOrEqual(4);
      for (const tick of ticks) {
        expect(tick.interval_seconds).toBe(1);
        // `timestamp` is the firing time in whole seconds; the run starts just after it.
        const lag = (tick.started as number) - (tick.timestamp as number) * 1000;
        expect(lag).toBeGreaterThanOrEqual(0);
        expect(lag).toBeLessThan(2500);
      }
      // At most one tick a second: 5 s hold 5 (6 if the first came at once), each in a later
      // second than the one before.
      expect(ticks.length).toBeLessThanOrEqual(6);
      for (let n = 1; n < ticks.length; n++) {
        expect(ticks[n]?.timestamp as number).toBeGreaterThan(ticks[n - 1]?.timestamp as number);
      }
      await sluice.client.deleteSource(source.id);
    });

    it("a cron schedule with seconds fires, and its event carries the cron and no interval", async () => {
      const source = await sluice.client.deploySource({
        component_code: tickSource('{ cron: "* * * * * *", timezone: "Europe/Paris" }'),
      });
      const ticks = await atLeastTicks(sluice.client, source.id, 2);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      expect(ticks[0]).toMatchObject({ interval_seconds: null, cron: "* * * * * *" });
      await sluice.client.deleteSource(source.id);
    });

    it("deactivating stops the ticks at once, and activating starts them again", async () => {
      const source = await sluice.client.deploySource({
        component_code: tickSource("{ intervalSeconds: 1 }"),
      });
      await atLeastTicks(sluice.client, source.id, 1);
      await sluice.client.updateSource(source.id, { active: false });
      expect(await timerJobs(source.id)).toEqual([]);
      const before = (await tickEvents(sluice.client, source.id)).length;
      // Time is the point: a 1-second timer still running would tick twice in this window.
      await holdsThroughout(
        "no tick after the deactivation",
        async () => (await tickEvents(sluice.client, source.id)).length === before,
        2500,
        200,
      );
      expect((await tickEvents(sluice.client, source.id)).length).toBe(before);
      await sluice.client.updateSource(source.id, { active: true });
      const after = await atLeastTicks(sluice.client, source.id, before + 1);
      expect(after.length).toBeGreaterThan(before);
      await sluice.client.deleteSource(source.id);
      expect(await timerJobs(source.id)).toEqual([]);
    });

    const timerJobs = (sourceId: string) =>
      sluice.server.store.db
        .selectFrom("jobs")
        .selectAll()
        .where("unique_key", "=", `timer:${sourceId}`)
        .execute();

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
      await waitUntil("the first tick leased", async () => (await tickJob())?.locked_until != null, 5000);
      expect((await tickJob())?.locked_until).not.toBeNull();
      // The delete cancels the tick, then waits for the run (its deactivate hook runs after it, in
      // the source's lane); the run's commit finds its tick gone and schedules none.
      await sluice.client.deleteSource(source.id);
      expect(await tickJob()).toBeUndefined();
      // The source is gone, so nothing shows the run's end but its own length (1.5 s): a commit of
      // a run that outlived the delete would bring the tick back within this window.
      await holdsThroughout(
        "no tick row after the delete",
        async () => (await tickJob()) === undefined,
        2500,
      );
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
      const until = (what: string, enough: (seen: unknown[]) => boolean) =>
        waitUntil(what, async () => enough(await counts()), 10_000, 100);
      await until("two ticks", (seen) => seen.length >= 2);
      const before = (await counts()).length;
      // Each tick runs (the runner counts on in its memory) and its commit fails.
      const allow = await refuseEventInserts(database, sluice.server.store.db);
      // Time is the point: two ticks or more come due, run and fail their commits meanwhile.
      await letTimePass(2_500);
      await allow();
      expect((await counts()).length).toBe(before);
      await until("two ticks after the refusal", (seen) => seen.length >= before + 2);
      const seen = await counts();
      // One after another from 1: none of the failed ticks' counts was kept.
      expect(seen).toEqual(seen.map((_, index) => index + 1));
      expect(seen.length).toBeGreaterThanOrEqual(before + 2);
    });

    it("an update that changes the schedule reschedules it", async () => {
      const source = await sluice.client.deploySource({
        component_code: tickSource("{ intervalSeconds: 1 }"),
      });
      await atLeastTicks(sluice.client, source.id, 1);
      await sluice.client.updateSource(source.id, { configured_props: { timer: { intervalSeconds: 3600 } } });
      const [job] = await timerJobs(source.id);
      expect(Number(job?.run_at)).toBeGreaterThan(Date.now() + 3500 * 1000);
      const before = (await tickEvents(sluice.client, source.id)).length;
      // Time is the point: the old 1-second schedule, were it still in force, would tick twice here.
      await holdsThroughout(
        "no tick on the old schedule",
        async () => (await tickEvents(sluice.client, source.id)).length === before,
        2200,
        200,
      );
      expect((await tickEvents(sluice.client, source.id)).length).toBe(before);
      const [still] = await timerJobs(source.id);
      expect(Number(still?.run_at)).toBeGreaterThan(Date.now() + 3500 * 1000);
      await sluice.client.deleteSource(source.id);
    });

    it("a run that outlasts its interval never overlaps the next one, and the skipped ticks are logged", async () => {
      const source = await sluice.client.deploySource({
        component_code: tickSource("{ intervalSeconds: 1 }", 2200),
      });
      const skipped = /tick\(s\) skipped because the previous run outlasted its interval/;
      const logText = async () =>
        (await sluice.client.listLogs(source.id, { limit: 100 })).data.map((line) => line.message).join("\n");
      // The second tick's run logs the slots the first one's overran.
      await waitUntil("the skipped ticks logged", async () => skipped.test(await logText()), 15_000, 200);
      const ticks = await atLeastTicks(sluice.client, source.id, 2);
      expect(ticks.length).toBeGreaterThanOrEqual(2);
      for (let n = 1; n < ticks.length; n++) {
        expect(ticks[n]?.started as number).toBeGreaterThanOrEqual(ticks[n - 1]?.ended as number);
      }
      expect(await logText()).toMatch(skipped);
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
      // The default (an hour) would not tick within the wait.
      const ticks = await atLeastTicks(sluice.client, source.id, 1);
      expect(ticks.length).toBeGreaterThanOrEqual(1);
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
      await atLeastTicks(client, source.id, 1);
      expect((await stopServerProcess(first.server)).code).toBe(0);
      // Time is the point: the ticks of this downtime are missed, and the restart must log them.
      await letTimePass(3000);
      const second = await startServerProcess(env());
      const again = new SluiceClient({ baseUrl: second.url, apiKey: "sk_timers_0123456789abcdef" });
      const before = (await tickEvents(again, source.id)).length;
      const after = await atLeastTicks(again, source.id, before + 1);
      expect(after.length).toBeGreaterThan(before);
      const missed = /tick\(s\) missed \(Sluice was not running/;
      const logText = async () =>
        (await again.listLogs(source.id, { limit: 100 })).data.map((line) => line.message).join("\n");
      await waitUntil("the missed ticks logged", async () => missed.test(await logText()), 10_000, 200);
      expect(await logText()).toMatch(missed);
      await again.deleteSource(source.id);
    });

    if (dialect.name === "postgres") {
      it("two server processes on one database fire each tick once", async () => {
        const [a, b] = await Promise.all([
          startServerProcess(env()),
          startServerProcess({ ...env(), SLUICE_DATA_DIR: `${database.dataDir}-b` }),
        ]);
        const client = new SluiceClient({ baseUrl: a.url, apiKey: "sk_timers_0123456789abcdef" });
        const deployedAt = Date.now();
        const sources = await Promise.all(
          [0, 1, 2].map(() => client.deploySource({ component_code: tickSource("{ intervalSeconds: 1 }") })),
        );
        const other = new SluiceClient({ baseUrl: b?.url ?? "", apiKey: "sk_timers_0123456789abcdef" });
        for (const source of sources) {
          const ticks = await atLeastTicks(other, source.id, 4);
          expect(ticks.length).toBeGreaterThanOrEqual(4);
          // A tick fired by both nodes would show twice, in the same second, and break the count of
          // one tick a second since the deploy.
          const seconds = ticks.map((tick) => tick.timestamp);
          expect(new Set(seconds).size).toBe(seconds.length);
          expect(ticks.length).toBeLessThanOrEqual(mostTicksSince(deployedAt));
          await client.deleteSource(source.id);
        }
      });
    }
  });
}

/**
 * A busy source's invocations overlap: the next one runs in the sandbox while the previous one is
 * being committed, the ones after it wait in its runner (pipelined, with the key-value state the
 * runner carries), and queued commits go together in one transaction. What must not change:
 * each invocation sees the key-value state the previous one left, events are numbered and
 * stored in invocation order, dedupe holds across a batch, and every accepted request is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { refuseEventInserts } from "../support/refuse-events.js";
import { requestReceived, startTestServer, type TestServer } from "../support/server.js";
import { slowDeletesFrom } from "../support/slow-deletes.js";
import { waitUntil } from "../support/wait.js";

const COUNTER = `export default {
  name: "counter",
  dedupe: "unique",
  props: { http: { type: "$.interface.http" }, db: "$.service.db" },
  async run(event) {
    const n = (this.db.get("n") ?? 0) + 1;
    this.db.set("n", n);
    this.$emit({ n, tag: event.body.tag }, { id: event.body.tag });
  },
};`;

/** Counts its runs, emits the count, then loops (`stall`) or exits after 600 ms (`exit`) when asked. */
const STALLING = `export default {
  name: "stalling-counter",
  props: { http: { type: "$.interface.http" }, db: "$.service.db" },
  async run(event) {
    const n = (this.db.get("n") ?? 0) + 1;
    this.db.set("n", n);
    this.$emit({ n, tag: event.body.tag });
    if (event.body.stall) for (;;) {}
    if (event.body.exit) await new Promise((resolve) => setTimeout(resolve, 600)).then(() => process.exit(5));
  },
};`;

const REQUESTS = 200;

/** POSTs `payload` as JSON to a source's endpoint; resolves with the answer's status. */
function postJson(url: string, payload: object): Promise<number> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify(payload),
  }).then((response) => response.status);
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`overlapping invocations of one source on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database, { env: { SLUICE_RATE_LIMIT: "100000" } });
    });
    afterAll(async () => {
      await sluice?.close();
      await database?.cleanup();
    });

    it("keeps the key-value state, the order of events and dedupe under 200 concurrent requests", async () => {
      const source = await sluice.client.deploySource({ component_code: COUNTER });
      const url = source.endpoint_url as string;
      // 50 tags, each sent 4 times: the unique dedupe (the last 100 ids) keeps the first of each.
      const answers = await Promise.all(
        Array.from({ length: REQUESTS }, (_, index) => postJson(url, { tag: `t${index % 50}` })),
      );
      expect(answers.every((status) => status === 200)).toBe(true);

      const events = [];
      let after: string | undefined;
      for (;;) {
        const page = await sluice.client.listEvents(source.id, { limit: 100, expand: "event", after });
        events.push(...page.data);
        if (page.data.length < 100) break;
        after = page.data.at(-1)?.id;
      }
      const payloads = events.reverse().map((event) => event.event as { n: number; tag: string });
      // Every run saw the previous run's count, whatever was committed yet: 1, 2, 3, …
      expect(payloads).toHaveLength(50);
      const counts = payloads.map((payload) => payload.n);
      expect(counts).toEqual([...counts].sort((a, b) => a - b));
      expect(new Set(counts).size).toBe(counts.length);
      expect(new Set(payloads.map((payload) => payload.tag)).size).toBe(50);
      expect(Math.max(...counts)).toBeLessThanOrEqual(REQUESTS);

      // The state after the last run: every request counted once.
      expect(await postJson(url, { tag: "last" })).toBe(200);
      const [last] = (await sluice.client.listEvents(source.id, { limit: 1, expand: "event" })).data;
      expect(last?.event).toEqual({ n: REQUESTS + 1, tag: "last" });
    });

    it("keeps the key-value state across an update, which drops the source's module instance", async () => {
      const source = await sluice.client.deploySource({ component_code: COUNTER });
      const post = (tag: string) => postJson(source.endpoint_url as string, { tag });
      for (const tag of ["a", "b", "c"]) expect(await post(tag)).toBe(200);
      // The runner held the state (the runs after the first came without it); the update drops the
      // instance, so the next run must bring it again.
      await sluice.client.updateSource(source.id, { name: "counter-renamed" });
      expect(await post("d")).toBe(200);
      const [last] = (await sluice.client.listEvents(source.id, { limit: 1, expand: "event" })).data;
      expect(last?.event).toEqual({ n: 4, tag: "d" });
    });

    it("counts on from the committed state after commits fail, not from what the runner was left holding", async () => {
      const source = await sluice.client.deploySource({ component_code: STALLING });
      const post = (tag: string) => postJson(source.endpoint_url as string, { tag });
      for (const tag of ["a", "b", "c"]) expect(await post(tag)).toBe(200);
      // Every insert of an event fails while the trigger is there: the runs happen (pipelined, the
      // runner carrying the state from one to the next), their commits do not.
      const allow = await refuseEventInserts(database, sluice.server.store.db);
      try {
        const refused = await Promise.all(["d", "e", "f", "g", "h", "i"].map(post));
        expect(refused).toEqual([500, 500, 500, 500, 500, 500]);
      } finally {
        await allow();
      }
      for (const tag of ["j", "k"]) expect(await post(tag)).toBe(200);
      const page = await sluice.client.listEvents(source.id, { limit: 100, expand: "event" });
      const payloads = page.data.reverse().map((event) => event.event as { n: number; tag: string });
      expect(payloads.map((payload) => `${payload.tag}${payload.n}`)).toEqual(["a1", "b2", "c3", "j4", "k5"]);
    });

    it("a source deleted while requests arrive keeps nothing of them: no events, log lines or state", async () => {
      const source = await sluice.client.deploySource({ component_code: COUNTER });
      const url = source.endpoint_url as string;
      // On PostgreSQL the delete's transaction is held open between the deletes of the source's
      // events and log lines and the removal of its row, so commits of runs in flight come in
      // between: before the delete took the row's lock first, hundreds of their events were left.
      const db = sluice.server.store.db;
      const undo = await slowDeletesFrom(database, db, "emitter_logs", 0.8);
      try {
        let sending = true;
        let sent = 0;
        const statuses: number[] = [];
        const sender = async () => {
          while (sending) statuses.push(await postJson(url, { tag: `t${sent++}` }));
        };
        const senders = Array.from({ length: 6 }, sender);
        await waitUntil(
          "20 accepted requests",
          () => statuses.filter((status) => status === 200).length >= 20,
          10_000,
          10,
        );
        await sluice.client.deleteSource(source.id);
        // The senders go on until the deleted source has refused one of them.
        try {
          await waitUntil("a request refused after the delete", () => statuses.includes(404), 10_000, 10);
        } finally {
          sending = false;
        }
        await Promise.all(senders);
        // Accepted before the delete, or refused after it; never a server error.
        expect(statuses.filter((status) => status !== 200 && status !== 404)).toEqual([]);
        expect(statuses.filter((status) => status === 404).length).toBeGreaterThan(0);
        for (const table of ["events", "emitter_logs", "kv"] as const) {
          const left = await db
            .selectFrom(table)
            .select("emitter_id")
            .where("emitter_id", "=", source.id)
            .execute();
          expect({ table, left: left.length }).toEqual({ table, left: 0 });
        }
      } finally {
        await undo();
      }
    });

    // The runs that came while one ran were handed to the runner behind it (pipelined); when it
    // brings the runner down they have not started, and run on a fresh runner, on the state it left.
    for (const [how, body] of [
      ["times out", { stall: true }],
      ["exits", { exit: true }],
    ] as const) {
      it(`runs the requests queued behind a run that ${how}, on the state it left`, async () => {
        const source = await sluice.client.deploySource({ component_code: STALLING, timeout_seconds: 1 });
        const post = (payload: object) => postJson(source.endpoint_url as string, payload);
        expect(await post({ tag: "warm" })).toBe(200);
        const downReceived = requestReceived(sluice, () => true);
        const stalled = post({ tag: "down", ...body });
        // The runs behind it come after the server has the one that brings the runner down.
        await downReceived;
        const behind = await Promise.all(Array.from({ length: 5 }, (_, index) => post({ tag: `b${index}` })));
        expect([await stalled, ...behind]).toEqual([200, 200, 200, 200, 200, 200]);

        const page = await sluice.client.listEvents(source.id, { limit: 100, expand: "event" });
        const payloads = page.data.reverse().map((event) => event.event as { n: number; tag: string });
        expect(payloads.map((payload) => payload.n)).toEqual([1, 2, 3, 4, 5, 6, 7]);
        expect(payloads.slice(0, 2).map((payload) => payload.tag)).toEqual(["warm", "down"]);
        expect(await post({ tag: "after" })).toBe(200);
        const [last] = (await sluice.client.listEvents(source.id, { limit: 1, expand: "event" })).data;
        expect(last?.event).toEqual({ n: 8, tag: "after" });
      });
    }
  });
}

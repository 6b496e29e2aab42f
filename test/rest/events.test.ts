/**
 * A source's events over REST and SSE, with components in the real sandbox: dedupe strategies as
 * SPEC.md's table states them, `<ms>-<seq>` ids, event_summaries paging and filters, deletion,
 * retention, logs, and the live streams.
 */
import { performance } from "node:perf_hooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventSummary, LogEntry, Source, SourceParams } from "../../src/client/types.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { rawRequest, startTestServer, type TestServer } from "../support/server.js";

interface Item {
  id?: string | number;
  ts?: number;
  name?: string;
  summary?: string;
  note?: string;
}

/** Emits `event.body.items` through its HTTP endpoint, each with its id, ts, name and summary. */
function itemsSource(dedupe?: string): string {
  return `export default {
    name: "items",
    ${dedupe === undefined ? "" : `dedupe: "${dedupe}",`}
    props: { http: { type: "$.interface.http" } },
    async run(event) {
      console.log("received", event.body.items.length);
      for (const item of event.body.items) {
        this.$emit(
          { item: item.id ?? null, note: item.note },
          { id: item.id, ts: item.ts, name: item.name, summary: item.summary },
        );
      }
    },
  };`;
}

/** Run now: each run emits the next batch of ids, picked by a counter in its db. */
function batchesSource(dedupe: string, batches: (string | number)[][]): string {
  return `const BATCHES = ${JSON.stringify(batches)};
  export default {
    name: "batches",
    dedupe: "${dedupe}",
    props: { db: "$.service.db" },
    async run() {
      const n = this.db.get("n") ?? 0;
      this.db.set("n", n + 1);
      for (const id of BATCHES[n] ?? []) this.$emit({ id }, { id });
    },
  };`;
}

/** One server-sent-events stream, read with fetch and a reader. */
interface SseMessage {
  readonly id: string | undefined;
  readonly data: string;
}

interface SseStream {
  readonly status: number;
  /** The next message that carries data; fails after `timeoutMs`. */
  next(timeoutMs?: number): Promise<SseMessage>;
  /** The data messages that arrive within `ms`. */
  drain(ms: number): Promise<SseMessage[]>;
  close(): void;
}

async function openSse(url: string, headers: Record<string, string>): Promise<SseStream> {
  const abort = new AbortController();
  const response = await fetch(url, {
    headers: { accept: "text/event-stream", ...headers },
    signal: abort.signal,
  });
  const queue: SseMessage[] = [];
  let wake: (() => void) | undefined;
  let ended = false;
  if (response.ok && response.body) {
    const reader = response.body.getReader();
    const decoder = new TextDecoder();
    void (async () => {
      let buffer = "";
      try {
        for (;;) {
          const { value, done } = await reader.read();
          if (done) break;
          buffer += decoder.decode(value, { stream: true });
          let end = buffer.indexOf("\n\n");
          while (end >= 0) {
            const lines = buffer.slice(0, end).split("\n");
            buffer = buffer.slice(end + 2);
            const id = lines
              .find((line) => line.startsWith("id:"))
              ?.slice(3)
              .trim();
            const data = lines
              .filter((line) => line.startsWith("data:"))
              .map((line) => line.slice(5).trimStart())
              .join("\n");
            if (data !== "") queue.push({ id, data });
            end = buffer.indexOf("\n\n");
          }
          wake?.();
        }
      } catch {
        // Aborted by close().
      } finally {
        ended = true;
        wake?.();
      }
    })();
  } else {
    await response.body?.cancel();
  }
  const waitForMessage = (deadline: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(resolve, Math.max(0, deadline - performance.now()));
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    });
  return {
    status: response.status,
    async next(timeoutMs = 5000) {
      const deadline = performance.now() + timeoutMs;
      while (queue.length === 0) {
        if (ended) throw new Error("the stream ended");
        if (performance.now() >= deadline) throw new Error(`no SSE message within ${timeoutMs} ms`);
        await waitForMessage(deadline);
      }
      return queue.shift() as SseMessage;
    },
    async drain(ms) {
      const deadline = performance.now() + ms;
      while (performance.now() < deadline && !ended) await waitForMessage(deadline);
      return queue.splice(0);
    },
    close: () => abort.abort(),
  };
}

const ID_PATTERN = /^(\d{13})-(\d+)$/;

/** Compares `<ms>-<seq>` ids numerically. */
function compareIds(a: string, b: string): number {
  const [, aMs, aSeq] = ID_PATTERN.exec(a) ?? [];
  const [, bMs, bSeq] = ID_PATTERN.exec(b) ?? [];
  return Number(aMs) - Number(bMs) || Number(aSeq) - Number(bSeq);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`source events on ${dialect.name}`, () => {
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

    const deploy = (code: string, params: SourceParams = {}) =>
      sluice.client.deploySource({ component_code: code, ...params });

    /** Where the source's endpoint is reached on the test server (endpoint_url may name port 0). */
    const endpointOf = (source: Source) => `${sluice.url}${new URL(source.endpoint_url ?? "").pathname}`;

    /** Sends items to the source's endpoint; resolves once they are committed. */
    const post = async (source: Source, items: Item[]) => {
      const response = await rawRequest(endpointOf(source), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ items }),
      });
      expect(response.status).toBe(200);
    };

    /** Every event of a source, newest first, read page by page. */
    const allEvents = async (sourceId: string): Promise<EventSummary[]> => {
      const events: EventSummary[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await sluice.client.listEvents(sourceId, {
          limit: 100,
          expand: "event",
          ...(after === undefined ? {} : { after }),
        });
        events.push(...page.data);
        if (page.data.length < 100 || page.page_info.end_cursor === null) return events;
        after = page.page_info.end_cursor;
      }
    };

    /** The `$emit` ids a source's stored events carry, oldest first. */
    const emittedIds = async (sourceId: string) =>
      (await allEvents(sourceId)).reverse().map((event) => event.metadata.id);

    const logsOf = async (sourceId: string): Promise<LogEntry[]> =>
      (await sluice.client.listLogs(sourceId, { limit: 100 })).data;

    describe("dedupe", () => {
      it("unique: an id already emitted is dropped, across invocations and within one", async () => {
        const source = await deploy(itemsSource("unique"));
        await post(source, [{ id: "a" }, { id: "b" }, { id: "a" }, { id: "c" }]);
        await post(source, [{ id: "b" }, { id: "d" }, { id: "a" }, { id: "d" }]);
        expect(await emittedIds(source.id)).toEqual(["a", "b", "c", "d"]);
        const messages = (await logsOf(source.id)).map((line) => line.message);
        expect(messages).toContain("dedupe 'unique': 3 of 4 events already emitted");
      });

      it("unique: concurrent requests emitting the same id store it once", async () => {
        const source = await deploy(itemsSource("unique"));
        await Promise.all(
          Array.from({ length: 10 }, (_, n) => post(source, [{ id: "same" }, { id: `own-${n}` }])),
        );
        const ids = await emittedIds(source.id);
        expect(ids.filter((id) => id === "same")).toHaveLength(1);
        expect(ids).toHaveLength(11);
      });

      it("unique: the cache holds the last 100 ids, so after 101 new ids the oldest is emitted again", async () => {
        const source = await deploy(itemsSource("unique"));
        const hundred = Array.from({ length: 100 }, (_, index) => ({ id: index + 1 }));
        await post(source, hundred);
        await post(source, [{ id: 1 }]);
        expect(await emittedIds(source.id)).toHaveLength(100);

        await post(source, [{ id: 101 }]);
        // 1 was purged by the 101st id; 2 is still among the last 100.
        await post(source, [{ id: 2 }, { id: 1 }]);
        const ids = await emittedIds(source.id);
        expect(ids).toHaveLength(102);
        expect(ids.slice(-3)).toEqual(["100", "101", "1"]);
      });

      it("greatest: only numeric ids larger than any seen are emitted, compared as numbers", async () => {
        const source = await deploy(itemsSource("greatest"));
        await post(source, [{ id: 3 }, { id: 1 }, { id: 5 }, { id: "10" }, { id: 7 }]);
        await post(source, [{ id: 10 }, { id: 9 }, { id: 11 }]);
        expect(await emittedIds(source.id)).toEqual(["3", "5", "10", "11"]);
      });

      it("greatest: a non-numeric id is refused with an error in the source's logs", async () => {
        const source = await deploy(itemsSource("greatest"));
        await post(source, [{ id: 1 }, { id: "abc" }, { id: 2 }]);
        expect(await emittedIds(source.id)).toEqual(["1", "2"]);
        const refused = (await logsOf(source.id)).filter((line) => line.message.includes("'abc'"));
        expect(refused).toHaveLength(1);
        expect(refused[0]).toMatchObject({ level: "error" });
        expect(refused[0]?.message).toMatch(/numeric id/);
      });

      it("greatest, run now with a db-driven sequence: each run emits only ids above the largest so far", async () => {
        const source = await deploy(batchesSource("greatest", [[1, 2, 3], [2, 3, 4, 5], [5], [10, 6]]));
        const counts: number[] = [];
        for (let run = 0; run < 4; run++) {
          const result = await sluice.client.runSource(source.id);
          expect(result.ok).toBe(true);
          counts.push(result.events.length);
        }
        expect(counts).toEqual([3, 2, 0, 1]);
        expect(await emittedIds(source.id)).toEqual(["1", "2", "3", "4", "5", "10"]);
      });

      it("last, run now with a db-driven sequence: events after the cached id, or all when none matches", async () => {
        const source = await deploy(
          batchesSource("last", [["a", "b", "c"], ["b", "c", "d", "e"], ["x", "y"], ["y"]]),
        );
        const counts: number[] = [];
        for (let run = 0; run < 4; run++)
          counts.push((await sluice.client.runSource(source.id)).events.length);
        expect(counts).toEqual([3, 2, 2, 0]);
        expect(await emittedIds(source.id)).toEqual(["a", "b", "c", "d", "e", "x", "y"]);
      });

      it("last: the cached id is that of the event with the newest ts", async () => {
        const source = await deploy(itemsSource("last"));
        await post(source, [
          { id: "p", ts: 1_700_000_003_000 },
          { id: "q", ts: 1_700_000_001_000 },
          { id: "r", ts: 1_700_000_002_000 },
        ]);
        // Cached: p (newest ts), not r (emitted last). So only s follows it.
        await post(source, [
          { id: "r", ts: 1_700_000_002_000 },
          { id: "p", ts: 1_700_000_003_000 },
          { id: "s", ts: 1_700_000_004_000 },
        ]);
        expect(await emittedIds(source.id)).toEqual(["q", "r", "p", "s"]);
      });

      it.each([
        "unique",
        "greatest",
        "last",
      ])("%s: an event without an id is refused with a logged error, never dropped silently", async (strategy) => {
        const source = await deploy(itemsSource(strategy));
        await post(source, [{ note: "no id" }, { id: 1 }]);
        expect(await emittedIds(source.id)).toEqual(["1"]);
        const errors = (await logsOf(source.id)).filter((line) => line.level === "error");
        expect(errors.map((line) => line.message)).toEqual([
          `event refused: dedupe '${strategy}' needs an id: pass $emit(event, { id })`,
        ]);
      });

      it("ts orders the events of one invocation oldest first", async () => {
        const source = await deploy(itemsSource());
        await post(source, [
          { id: "late", ts: 1_700_000_003_000 },
          { id: "early", ts: 1_700_000_001_000 },
          { id: "untimed-is-now" },
          { id: "middle", ts: 1_700_000_002_000 },
        ]);
        const oldestFirst = (await allEvents(source.id)).reverse();
        expect(oldestFirst.map((event) => event.metadata.id)).toEqual([
          "early",
          "middle",
          "late",
          "untimed-is-now",
        ]);
        const ids = oldestFirst.map((event) => event.id);
        expect([...ids].sort(compareIds)).toEqual(ids);
      });
    });

    describe("event ids", () => {
      it("look like <ms>-<seq>, near the time of the emit, and rise strictly", async () => {
        const source = await deploy(itemsSource());
        const before = Date.now();
        await post(source, [{ id: 1 }, { id: 2 }, { id: 3 }]);
        await post(source, [{ id: 4 }]);
        const after = Date.now();
        const ids = (await allEvents(source.id)).reverse().map((event) => event.id);
        expect(ids).toHaveLength(4);
        for (const id of ids) {
          const ms = Number(ID_PATTERN.exec(id)?.[1]);
          expect(ms).toBeGreaterThanOrEqual(before);
          expect(ms).toBeLessThanOrEqual(after);
        }
        for (let index = 1; index < ids.length; index++) {
          expect(compareIds(ids[index - 1] ?? "", ids[index] ?? "")).toBeLessThan(0);
        }
      });

      it("are unique and strictly ordered under concurrent requests", async () => {
        const source = await deploy(itemsSource());
        const requests = 20;
        const perRequest = 5;
        await Promise.all(
          Array.from({ length: requests }, (_, request) =>
            post(
              source,
              Array.from({ length: perRequest }, (_, item) => ({ id: `${request}-${item}` })),
            ),
          ),
        );
        const events = (await allEvents(source.id)).reverse();
        const ids = events.map((event) => event.id);
        expect(ids).toHaveLength(requests * perRequest);
        expect(new Set(ids).size).toBe(ids.length);
        expect([...ids].sort(compareIds)).toEqual(ids);
        // The events of one request stay together and in order.
        const keys = events.map((event) => event.metadata.id ?? "");
        for (let request = 0; request < requests; request++) {
          const start = keys.indexOf(`${request}-0`);
          expect(keys.slice(start, start + perRequest)).toEqual(
            Array.from({ length: perRequest }, (_, item) => `${request}-${item}`),
          );
        }
      });
    });

    describe("event_summaries", () => {
      let source: Source;
      let newestFirst: EventSummary[];

      beforeAll(async () => {
        source = await deploy(itemsSource());
        await post(
          source,
          Array.from({ length: 7 }, (_, n) => ({ id: `e${n}`, summary: `event ${n}` })),
        );
        newestFirst = await allEvents(source.id);
      });

      it("lists newest first, with the limit as the page size and page_info describing the page", async () => {
        expect(newestFirst.map((event) => event.metadata.id)).toEqual([
          "e6",
          "e5",
          "e4",
          "e3",
          "e2",
          "e1",
          "e0",
        ]);
        const page = await sluice.client.listEvents(source.id, { limit: 3 });
        expect(page.data.map((event) => event.id)).toEqual(newestFirst.slice(0, 3).map((event) => event.id));
        expect(page.page_info).toEqual({
          total_count: 7,
          count: 3,
          start_cursor: newestFirst[0]?.id,
          end_cursor: newestFirst[2]?.id,
        });
        const defaultPage = await sluice.client.listEvents(source.id);
        expect(defaultPage.data).toHaveLength(7);
      });

      it("after pages toward older events and before toward newer ones, with nothing skipped or repeated", async () => {
        const keys = (page: { data: EventSummary[] }) => page.data.map((event) => event.metadata.id);
        const first = await sluice.client.listEvents(source.id, { limit: 3 });
        const second = await sluice.client.listEvents(source.id, {
          limit: 3,
          after: first.page_info.end_cursor ?? "",
        });
        const third = await sluice.client.listEvents(source.id, {
          limit: 3,
          after: second.page_info.end_cursor ?? "",
        });
        expect([keys(first), keys(second), keys(third)]).toEqual([
          ["e6", "e5", "e4"],
          ["e3", "e2", "e1"],
          ["e0"],
        ]);
        expect(third.page_info).toMatchObject({ total_count: 7, count: 1 });
        const back = await sluice.client.listEvents(source.id, {
          limit: 3,
          before: second.page_info.start_cursor ?? "",
        });
        expect(keys(back)).toEqual(["e6", "e5", "e4"]);
        const nearest = await sluice.client.listEvents(source.id, {
          limit: 2,
          before: third.page_info.start_cursor ?? "",
        });
        expect(keys(nearest)).toEqual(["e2", "e1"]);
        const past = await sluice.client.listEvents(source.id, { after: third.page_info.end_cursor ?? "" });
        expect(past.data).toEqual([]);
      });

      it("a cursor that is not an event id is refused with 400", async () => {
        for (const cursor of [{ after: "newest" }, { before: "1-2-3" }]) {
          await expect(sluice.client.listEvents(source.id, cursor)).rejects.toMatchObject({ status: 400 });
        }
      });

      it.each([0, 101, -1])("limit %i is refused with 400", async (limit) => {
        await expect(sluice.client.listEvents(source.id, { limit })).rejects.toMatchObject({ status: 400 });
      });

      it("limit 100 is accepted", async () => {
        expect((await sluice.client.listEvents(source.id, { limit: 100 })).data).toHaveLength(7);
      });

      it("metadata carries emit_id, emitter_id, channel name, the $emit id and summary", async () => {
        const [newest] = newestFirst;
        expect(newest?.metadata).toEqual({
          emit_id: newest?.id,
          emitter_id: source.id,
          name: "",
          id: "e6",
          summary: "event 6",
        });
        expect(newest?.indexed_at_ms).toBe(Number(newest?.id.split("-")[0]));
        expect(newest?.event).toEqual({ item: "e6" });
      });

      it("without expand=event, an event over 1 KB is left out and marked event_truncated", async () => {
        const big = await deploy(itemsSource());
        await post(big, [
          { id: "small", note: "x" },
          { id: "big", note: "y".repeat(2000) },
        ]);
        const summaries = (await sluice.client.listEvents(big.id)).data;
        expect(summaries.map((event) => event.metadata.id)).toEqual(["big", "small"]);
        expect(summaries[0]).not.toHaveProperty("event");
        expect(summaries[0]?.event_truncated).toBe(true);
        expect(summaries[1]?.event).toEqual({ item: "small", note: "x" });
        expect(summaries[1]).not.toHaveProperty("event_truncated");

        const expanded = (await sluice.client.listEvents(big.id, { expand: "event" })).data;
        expect((expanded[0]?.event as { note: string }).note).toHaveLength(2000);
        expect(expanded[0]).not.toHaveProperty("event_truncated");
      });

      it("event_name keeps only the events emitted on that channel", async () => {
        const channels = await deploy(itemsSource());
        await post(channels, [
          { id: 1, name: "alerts" },
          { id: 2 },
          { id: 3, name: "alerts" },
          { id: 4, name: "other" },
        ]);
        const alerts = await sluice.client.listEvents(channels.id, { event_name: "alerts" });
        expect(alerts.data.map((event) => event.metadata.id)).toEqual(["3", "1"]);
        expect(alerts.data.every((event) => event.metadata.name === "alerts")).toBe(true);
        expect(alerts.page_info.total_count).toBe(2);
        const all = await sluice.client.listEvents(channels.id);
        expect(all.data.map((event) => [event.metadata.id, event.metadata.name])).toEqual([
          ["4", "other"],
          ["3", "alerts"],
          ["2", ""],
          ["1", "alerts"],
        ]);
      });
    });

    it("DELETE events removes start_id to end_id, both included, and without them everything", async () => {
      const source = await deploy(itemsSource());
      await post(
        source,
        Array.from({ length: 8 }, (_, n) => ({ id: `d${n}` })),
      );
      const ids = (await allEvents(source.id)).reverse().map((event) => event.id);
      expect(await sluice.client.deleteEvents(source.id, { start_id: ids[1], end_id: ids[3] })).toEqual({
        deleted: 3,
      });
      expect(await emittedIds(source.id)).toEqual(["d0", "d4", "d5", "d6", "d7"]);

      // The same in the query string, as Pipedream's docs show it.
      const query = await rawRequest(
        `${sluice.url}/v1/sources/${source.id}/events?start_id=${ids[5]}&end_id=${ids[6]}`,
        { method: "DELETE", apiKey: sluice.apiKey },
      );
      expect([query.status, query.body]).toEqual([200, { data: { deleted: 2 } }]);
      expect(await emittedIds(source.id)).toEqual(["d0", "d4", "d7"]);

      expect(await sluice.client.deleteEvents(source.id)).toEqual({ deleted: 3 });
      expect((await sluice.client.listEvents(source.id)).page_info.total_count).toBe(0);
    });

    it("a source deployed with max_events: 5 keeps only its 5 newest events", async () => {
      const source = await deploy(itemsSource(), { max_events: 5 });
      expect(source.max_events).toBe(5);
      await post(source, [{ id: "n1" }, { id: "n2" }, { id: "n3" }]);
      await post(source, [{ id: "n4" }, { id: "n5" }, { id: "n6" }, { id: "n7" }, { id: "n8" }]);
      expect(await emittedIds(source.id)).toEqual(["n4", "n5", "n6", "n7", "n8"]);
      expect((await sluice.client.listEvents(source.id)).page_info.total_count).toBe(5);
    });

    it("past a limit of 300, retention waits for 3 events over it (1%), then drops all of them at once", async () => {
      const source = await deploy(itemsSource(), { max_events: 300 });
      const items = (prefix: string, count: number) =>
        Array.from({ length: count }, (_, n) => ({ id: `${prefix}${n}` }));
      await post(source, items("a", 300));
      // One and two over the limit: fewer than a batch, all kept for now.
      await post(source, items("b", 1));
      expect((await sluice.client.listEvents(source.id)).page_info.total_count).toBe(301);
      await post(source, items("c", 1));
      expect((await allEvents(source.id)).length).toBe(302);
      // The third over the limit trims the three oldest: the newest 300 are left.
      await post(source, items("d", 1));
      const kept = await emittedIds(source.id);
      expect(kept).toHaveLength(300);
      expect(kept.slice(0, 2)).toEqual(["a3", "a4"]);
      expect(kept.slice(-3)).toEqual(["b0", "c0", "d0"]);
      expect((await sluice.client.listEvents(source.id)).page_info.total_count).toBe(300);
      // A commit far past the limit drops everything past it at once.
      await post(source, items("e", 250));
      const after = await emittedIds(source.id);
      expect(after).toHaveLength(300);
      expect(after[0]).toBe("a253");
    });

    it("retention drops the oldest events past max_events after a DELETE and after lowering the limit", async () => {
      const source = await deploy(itemsSource(), { max_events: 5 });
      await post(
        source,
        Array.from({ length: 5 }, (_, n) => ({ id: `r${n}` })),
      );
      const ids = (await allEvents(source.id)).reverse().map((event) => event.id);
      // Three left: the next two fit, the one after drops the oldest.
      await sluice.client.deleteEvents(source.id, { start_id: ids[1], end_id: ids[2] });
      await post(source, [{ id: "r5" }, { id: "r6" }]);
      expect(await emittedIds(source.id)).toEqual(["r0", "r3", "r4", "r5", "r6"]);
      await post(source, [{ id: "r7" }]);
      expect(await emittedIds(source.id)).toEqual(["r3", "r4", "r5", "r6", "r7"]);
      // A lower limit applies at the next commit, which drops everything past it.
      await sluice.client.updateSource(source.id, { max_events: 2 });
      await post(source, [{ id: "r8" }]);
      expect(await emittedIds(source.id)).toEqual(["r7", "r8"]);
      expect((await sluice.client.listEvents(source.id)).page_info.total_count).toBe(2);
    });

    it("keeps its count of events true when deletes run while events arrive", async () => {
      const source = await deploy(itemsSource(), { max_events: 40 });
      const batch = (round: number) => Array.from({ length: 5 }, (_, n) => ({ id: `c${round}-${n}` }));
      let posting = true;
      // Ingest, one request after another, while ranged deletes (the oldest and the newest event
      // left out) run beside it, each on a connection of its own.
      const ingest = (async () => {
        for (let round = 0; round < 24; round++) await post(source, batch(round));
        posting = false;
      })();
      let deletes = 0;
      while (posting || deletes === 0) {
        const ids = (await allEvents(source.id)).map((event) => event.id);
        if (ids.length >= 6) {
          await sluice.client.deleteEvents(source.id, { start_id: ids.at(-2), end_id: ids[1] });
          deletes++;
        } else if (!posting) {
          break;
        }
      }
      await ingest;
      expect(deletes).toBeGreaterThan(0);
      // The count the source keeps is what retention trusts: past the limit, exactly the newest
      // 40 must stay, whatever was deleted meanwhile.
      const listed = await sluice.client.listEvents(source.id);
      expect(listed.page_info.total_count).toBe((await allEvents(source.id)).length);
      await post(
        source,
        Array.from({ length: 45 }, (_, n) => ({ id: `last-${n}` })),
      );
      const kept = await emittedIds(source.id);
      expect(kept).toEqual(Array.from({ length: 40 }, (_, n) => `last-${n + 5}`));
      expect((await sluice.client.listEvents(source.id)).page_info.total_count).toBe(40);
    });

    it("retention keeps a source's newest 1,000 log lines", async () => {
      const source = await deploy(`export default {
        name: "chatty",
        props: { db: "$.service.db" },
        async run() {
          const run = this.db.get("run") ?? 0;
          for (let n = 0; n < 600; n++) console.log("line " + run + "-" + n);
          this.db.set("run", run + 1);
        },
      };`);
      for (let run = 0; run < 3; run++) await sluice.client.runSource(source.id);
      // Newest first, a page at a time (an older page is `after` the last id of the one before).
      const kept: LogEntry[] = [];
      for (let page = 0; page < 11; page++) {
        const listed = await sluice.client.listLogs(source.id, { limit: 100, after: kept.at(-1)?.id });
        if (page === 0) expect(listed.page_info.total_count).toBe(1000);
        kept.push(...listed.data);
      }
      // 1,803 written (each run's "run now" note and its 600 lines): the newest 1,000 kept.
      expect(kept).toHaveLength(1000);
      expect(kept[0]?.message).toBe("line 2-599");
      expect(kept[599]?.message).toBe("line 2-0");
      expect(kept[600]?.message).toBe("run now");
      expect(kept[601]?.message).toBe("line 1-599");
      expect(kept[999]?.message).toBe("line 1-201");
    });

    it("console.log, warn and error lines appear in the logs, newest first, with their levels", async () => {
      const source = await deploy(`export default {
        name: "talker",
        async run() { console.log("plain line", 1); console.warn("careful"); console.error("broken", { code: 7 }); },
      };`);
      await sluice.client.runSource(source.id);
      const logs = await logsOf(source.id);
      const own = logs.filter((line) => line.level !== "info");
      expect(own.map((line) => [line.level, line.message])).toEqual([
        ["error", "broken { code: 7 }"],
        ["warn", "careful"],
        ["log", "plain line 1"],
      ]);
      const ids = logs.map((line) => line.id);
      expect([...ids].sort(compareIds).reverse()).toEqual(ids);
      expect(new Set(own.map((line) => line.invocation_id)).size).toBe(1);
    });

    describe("SSE", () => {
      const auth = () => ({ authorization: `Bearer ${sluice.apiKey}` });
      const streamUrl = (source: Source, kind: "emits" | "observations") =>
        `${sluice.url}/sse/dc/${source.id}/${kind}`;

      it("an event reaches /emits within 100 ms of the HTTP request that emitted it", async () => {
        const source = await deploy(itemsSource());
        const stream = await openSse(streamUrl(source, "emits"), auth());
        try {
          expect(stream.status).toBe(200);
          // A warm runner: the first invocation starts the component's process.
          await post(source, [{ id: "warm-up" }]);
          await stream.next();
          const latencies: number[] = [];
          for (let n = 0; n < 5; n++) {
            const started = performance.now();
            const request = post(source, [{ id: `timed-${n}` }]);
            const message = await stream.next(5000);
            latencies.push(performance.now() - started);
            await request;
            expect((JSON.parse(message.data) as EventSummary).metadata.id).toBe(`timed-${n}`);
          }
          console.log(
            `SSE latency on ${dialect.name} (request start to item), ms: ${latencies.map((ms) => ms.toFixed(1)).join(", ")}; median ${median(latencies).toFixed(1)}`,
          );
          expect(median(latencies)).toBeLessThan(100);
        } finally {
          stream.close();
        }
      });

      it("items have the event_summaries shape, each with its id on an id: line", async () => {
        const source = await deploy(itemsSource());
        const stream = await openSse(streamUrl(source, "emits"), auth());
        try {
          expect(stream.status).toBe(200);
          await post(source, [
            { id: "s1", summary: "one", name: "alerts" },
            { id: "s2", note: "z".repeat(2000) },
          ]);
          const streamed = [await stream.next(), await stream.next()];
          const listed = (await sluice.client.listEvents(source.id, { expand: "event" })).data.reverse();
          expect(streamed.map((message) => message.id)).toEqual(listed.map((item) => item.id));
          expect(streamed.map((message) => JSON.parse(message.data))).toEqual(listed);
        } finally {
          stream.close();
        }
      });

      it("a stream starts with what is new: earlier events are not sent", async () => {
        const source = await deploy(itemsSource());
        await post(source, [{ id: "old" }]);
        const stream = await openSse(streamUrl(source, "emits"), auth());
        try {
          await post(source, [{ id: "new" }]);
          const messages = await stream.drain(300);
          expect(messages.map((message) => (JSON.parse(message.data) as EventSummary).metadata.id)).toEqual([
            "new",
          ]);
        } finally {
          stream.close();
        }
      });

      it("reconnecting with Last-Event-ID replays what was missed, once, then goes on live", async () => {
        const source = await deploy(itemsSource());
        const keyOf = (message: SseMessage) => (JSON.parse(message.data) as EventSummary).metadata.id;
        const first = await openSse(streamUrl(source, "emits"), auth());
        await post(source, [{ id: "seen" }]);
        const seen = await first.next();
        first.close();
        expect(keyOf(seen)).toBe("seen");

        await post(source, [{ id: "missed-1" }, { id: "missed-2" }]);
        await post(source, [{ id: "missed-3" }]);
        const second = await openSse(streamUrl(source, "emits"), {
          ...auth(),
          "last-event-id": seen.id ?? "",
        });
        try {
          expect(second.status).toBe(200);
          const replayed = [await second.next(), await second.next(), await second.next()];
          expect(replayed.map(keyOf)).toEqual(["missed-1", "missed-2", "missed-3"]);
          await post(source, [{ id: "live" }]);
          const rest = await second.drain(300);
          expect(rest.map(keyOf)).toEqual(["live"]);
        } finally {
          second.close();
        }
      });

      it("a replay after Last-Event-ID sends every missed event, past one read batch, in order", async () => {
        const source = await deploy(itemsSource());
        await post(source, [{ id: "mark" }]);
        const [mark] = (await sluice.client.listEvents(source.id, { limit: 1 })).data;
        await post(
          source,
          Array.from({ length: 150 }, (_, n) => ({ id: n })),
        );
        const stream = await openSse(streamUrl(source, "emits"), {
          ...auth(),
          "last-event-id": mark?.id ?? "",
        });
        try {
          const replayed: SseMessage[] = [];
          for (let n = 0; n < 150; n++) replayed.push(await stream.next());
          const keys = replayed.map((message) => (JSON.parse(message.data) as EventSummary).metadata.id);
          expect(keys).toEqual(Array.from({ length: 150 }, (_, n) => String(n)));
          expect(await stream.drain(200)).toEqual([]);
        } finally {
          stream.close();
        }
      });

      it("a malformed Last-Event-ID is refused with 400", async () => {
        const source = await deploy(itemsSource());
        const stream = await openSse(streamUrl(source, "emits"), { ...auth(), "last-event-id": "yesterday" });
        expect(stream.status).toBe(400);
      });

      it("/observations streams the source's log lines", async () => {
        const source = await deploy(itemsSource());
        const stream = await openSse(streamUrl(source, "observations"), auth());
        try {
          expect(stream.status).toBe(200);
          await post(source, [{ id: 1 }, { id: 2 }]);
          const message = await stream.next();
          const line = JSON.parse(message.data) as LogEntry;
          expect(line).toMatchObject({ level: "log", message: "received 2", id: message.id });
          expect(line.invocation_id).toMatch(/^inv_/);
          const [listed] = (await sluice.client.listLogs(source.id, { limit: 1 })).data;
          expect(line).toEqual(listed);
        } finally {
          stream.close();
        }
      });

      it("a HEAD on a stream answers with the stream's headers and ends", async () => {
        const source = await deploy(itemsSource());
        for (const kind of ["emits", "observations"] as const) {
          const response = await fetch(streamUrl(source, kind), {
            method: "HEAD",
            headers: auth(),
            signal: AbortSignal.timeout(5000),
          });
          expect(response.status).toBe(200);
          expect(response.headers.get("content-type")).toMatch(/^text\/event-stream/);
        }
      });

      it("another account's stream is 404, and a stream without a key is 401", async () => {
        const source = await deploy(itemsSource());
        const other = await sluice.newAccount("sse-other");
        for (const kind of ["emits", "observations"] as const) {
          const foreign = await openSse(streamUrl(source, kind), { authorization: `Bearer ${other.apiKey}` });
          expect(foreign.status).toBe(404);
          const anonymous = await openSse(streamUrl(source, kind), {});
          expect(anonymous.status).toBe(401);
        }
      });
    });
  });
}

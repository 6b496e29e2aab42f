/**
 * A busy source's invocations overlap: the next one runs in the sandbox while the previous one is
 * being committed, and queued commits go together in one transaction. What must not change:
 * each invocation sees the key-value state the previous one left, events are numbered and
 * stored in invocation order, dedupe holds across a batch, and every accepted request is stored.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";

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

const REQUESTS = 200;

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
        Array.from({ length: REQUESTS }, (_, index) =>
          fetch(url, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ tag: `t${index % 50}` }),
          }).then((response) => response.status),
        ),
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
      const source2 = await fetch(url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tag: "last" }),
      });
      expect(source2.status).toBe(200);
      const [last] = (await sluice.client.listEvents(source.id, { limit: 1, expand: "event" })).data;
      expect(last?.event).toEqual({ n: REQUESTS + 1, tag: "last" });
    });
  });
}

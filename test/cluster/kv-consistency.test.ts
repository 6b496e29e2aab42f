/**
 * Key-value consistency across nodes: a source increments a `$.service.db` counter on each of
 * 1,000 requests sent to the three nodes in turn, several at once. One node at a time runs a
 * source (core/sources/ownership.ts), and the next owner reads the state the last one committed,
 * so every request sees the count the previous one left: the emitted counts are exactly 1 to
 * 1,000, each once, and the counter ends at 1,000. PostgreSQL only.
 */
import { expect, it } from "vitest";
import { describeCluster } from "../support/cluster.js";

const COUNTER_SOURCE = `export default {
  name: "counter",
  props: { http: { type: "$.interface.http" }, db: "$.service.db" },
  async run() {
    const count = (this.db.get("count") ?? 0) + 1;
    this.db.set("count", count);
    this.$emit({ count });
  },
};`;

const REQUESTS = 1000;
/** Requests in flight at once, spread over the nodes. */
const IN_FLIGHT = 6;

describeCluster("a $.service.db counter across nodes", (running) => {
  it("1,000 requests spread over 3 nodes count to exactly 1,000", async () => {
    const cluster = running();
    const source = await cluster.client.deploySource({ component_code: COUNTER_SOURCE, name: "counter" });
    const path = new URL(source.endpoint_url as string).pathname;
    const started = Date.now();
    let next = 0;
    const statuses: number[] = [];
    await Promise.all(
      Array.from({ length: IN_FLIGHT }, async () => {
        for (;;) {
          const n = next++;
          if (n >= REQUESTS) return;
          const node = cluster.nodes[n % cluster.nodes.length];
          const response = await fetch(`${node?.url}${path}`, { method: "POST" });
          await response.text();
          statuses.push(response.status);
        }
      }),
    );
    const seconds = (Date.now() - started) / 1000;
    expect(statuses.filter((status) => status !== 200)).toEqual([]);

    const counts: number[] = [];
    let after: string | undefined;
    for (;;) {
      const page = await cluster.client.listEvents(source.id, {
        limit: 100,
        expand: "event",
        ...(after === undefined ? {} : { after }),
      });
      for (const item of page.data) counts.push((item.event as { count: number }).count);
      if (page.data.length < 100 || page.page_info.end_cursor === null) break;
      after = page.page_info.end_cursor;
    }
    counts.sort((a, b) => a - b);
    console.log(
      `[cluster] ${REQUESTS} increments over 3 nodes, ${IN_FLIGHT} in flight: ${seconds.toFixed(1)} s (${Math.round(REQUESTS / seconds)} requests/s); ${counts.length} events, highest count ${counts.at(-1)}, ${REQUESTS - new Set(counts).size} counts seen twice`,
    );
    expect(counts).toEqual(Array.from({ length: REQUESTS }, (_, index) => index + 1));
  }, 240_000);
});

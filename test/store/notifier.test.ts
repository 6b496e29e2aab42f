/**
 * Wake-ups across nodes (store/notifier.ts) on PostgreSQL: two stores on one schema stand for two
 * nodes. Topics published in one turn of the event loop travel in one NOTIFY, split when they
 * would pass PostgreSQL's 8,000-byte payload limit; every topic reaches the other node, and a
 * node's own listeners are called once, at publish time, not again when its NOTIFY comes back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/store.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";

const postgres = dialects.find((dialect) => dialect.name === "postgres");

describe.skipIf(!postgres || !isAvailable(postgres))("wake-ups across nodes on postgres", () => {
  let database: TestDatabase;
  let nodeA: Store;
  let nodeB: Store;

  beforeAll(async () => {
    database = await (postgres as NonNullable<typeof postgres>).create();
    nodeA = await openStore(database);
    nodeB = await openStore(database);
    // Both LISTEN connections are up once a wake-up makes it across each way.
    for (const [from, to] of [
      [nodeA, nodeB],
      [nodeB, nodeA],
    ] as const) {
      let heard = false;
      const stop = to.notifier.subscribe("notifier-test:ready", () => {
        heard = true;
      });
      const deadline = Date.now() + 10_000;
      while (!heard && Date.now() < deadline) {
        from.notifier.publish("notifier-test:ready");
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      stop();
      if (!heard) throw new Error("the two nodes never heard each other");
    }
  });
  afterAll(async () => {
    await nodeA?.close();
    await nodeB?.close();
    await database?.cleanup();
  });

  it("every topic of a burst reaches the other node, in payloads PostgreSQL accepts", async () => {
    // 300 topics of about 50 bytes: over 15,000 bytes, so at least two NOTIFYs.
    const topics = Array.from(
      { length: 300 },
      (_, index) => `notifier-test:burst:${index}:${"x".repeat(24)}`,
    );
    const heardOnB = new Map<string, number>();
    const heardOnA = new Map<string, number>();
    const stops = topics.flatMap((topic) => [
      nodeB.notifier.subscribe(topic, () => heardOnB.set(topic, (heardOnB.get(topic) ?? 0) + 1)),
      nodeA.notifier.subscribe(topic, () => heardOnA.set(topic, (heardOnA.get(topic) ?? 0) + 1)),
    ]);
    try {
      for (const topic of topics) nodeA.notifier.publish(topic);
      // A topic published twice in the turn goes once.
      nodeA.notifier.publish(topics[0] as string);
      // Node A's own listeners were called at publish time.
      expect(heardOnA.get(topics[0] as string)).toBe(2);
      const deadline = Date.now() + 10_000;
      while (heardOnB.size < topics.length && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      expect([...heardOnB.keys()].sort()).toEqual([...topics].sort());
      expect([...heardOnB.values()].every((count) => count === 1)).toBe(true);
      // Its own NOTIFY coming back does not call them again.
      await new Promise((resolve) => setTimeout(resolve, 200));
      expect(heardOnA.get(topics[0] as string)).toBe(2);
      expect(heardOnA.get(topics[1] as string)).toBe(1);
    } finally {
      for (const stop of stops) stop();
    }
  });
});

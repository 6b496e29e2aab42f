/**
 * Wake-ups across nodes (store/notifier.ts) on PostgreSQL: two stores on one schema stand for two
 * nodes. Topics published in one turn of the event loop travel in one NOTIFY, split when they
 * would pass PostgreSQL's 8,000-byte payload limit; every topic reaches the other node, and a
 * node's own listeners are called once, at publish time, not again when its NOTIFY comes back.
 * A notice sent with a transaction's writes (`noticeToOthers`) reaches the other node when the
 * transaction commits, and never when it rolls back.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/store.js";
import { insertWrites, writeIn } from "../../src/store/write-together.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { waitUntil } from "../support/wait.js";

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
      try {
        await waitUntil("the two nodes to hear each other", () => {
          if (!heard) from.notifier.publish("notifier-test:ready");
          return heard;
        });
      } finally {
        stop();
      }
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
      await waitUntil("every topic on node B", () => heardOnB.size >= topics.length, 10_000, 20);
      expect([...heardOnB.keys()].sort()).toEqual([...topics].sort());
      expect([...heardOnB.values()].every((count) => count === 1)).toBe(true);
      // Its own NOTIFY coming back does not call them again: it came back before B's marker.
      await markerHeard(nodeB, nodeA);
      expect([...heardOnB.values()].every((count) => count === 1)).toBe(true);
      expect(heardOnA.get(topics[0] as string)).toBe(2);
      expect(heardOnA.get(topics[1] as string)).toBe(1);
    } finally {
      for (const stop of stops) stop();
    }
  });

  /** Calls on node B's listener of each topic, counted. */
  function heardOnB(topics: readonly string[]): { counts: Map<string, number>; stop(): void } {
    const counts = new Map<string, number>();
    const stops = topics.map((topic) =>
      nodeB.notifier.subscribe(topic, () => counts.set(topic, (counts.get(topic) ?? 0) + 1)),
    );
    return {
      counts,
      stop: () => {
        for (const stop of stops) stop();
      },
    };
  }

  let markers = 0;
  /**
   * Publishes a fresh topic on `from` and resolves once `to` has heard it. NOTIFYs reach a
   * listener in the order their transactions committed: whatever reached PostgreSQL before the
   * marker has reached `to` by then, so a count taken after it is final.
   */
  async function markerHeard(from: Store, to: Store): Promise<void> {
    const topic = `notifier-test:marker:${markers++}`;
    let heard = false;
    const stop = to.notifier.subscribe(topic, () => {
      heard = true;
    });
    try {
      from.notifier.publish(topic);
      await waitUntil(`marker ${topic}`, () => heard);
    } finally {
      stop();
    }
  }

  it("a notice sent with a transaction's writes reaches the other node once it commits, and only then", async () => {
    const topics = ["notifier-test:commit:events", "notifier-test:commit:deliveries"];
    const heard = heardOnB(topics);
    try {
      const notice = nodeA.notifier.noticeToOthers(topics);
      expect(notice).toBeDefined();
      await nodeA.db.transaction().execute(async (tx) => {
        // A prepared write and one Kysely builds: the statement is built, not joined from kept texts.
        await writeIn(
          tx,
          nodeA.capabilities,
          [
            ...insertWrites("meta", [{ key: "notifier-test", value: "1" }]),
            (db) => db.insertInto("meta").values({ key: "notifier-test:built", value: "2" }),
          ],
          { notice },
        );
        // Sent, but not delivered before the commit: a NOTIFY committed after it arrives first.
        await markerHeard(nodeA, nodeB);
        expect(heard.counts.size).toBe(0);
      });
      await waitUntil("the committed notice on node B", () => heard.counts.size >= topics.length);
      expect(Object.fromEntries(heard.counts)).toEqual({
        [topics[0] as string]: 1,
        [topics[1] as string]: 1,
      });
      // The sender then publishes on its own node only: nothing more reaches node B.
      for (const topic of topics) nodeA.notifier.publish(topic, undefined, { othersTold: true });
      await markerHeard(nodeA, nodeB);
      expect(Object.fromEntries(heard.counts)).toEqual({
        [topics[0] as string]: 1,
        [topics[1] as string]: 1,
      });
      expect(
        await nodeA.db
          .selectFrom("meta")
          .select("value")
          .where("key", "in", ["notifier-test", "notifier-test:built"])
          .orderBy("key")
          .execute(),
      ).toEqual([{ value: "1" }, { value: "2" }]);
    } finally {
      heard.stop();
    }
  });

  it("a notice sent in a transaction that rolls back never reaches the other node", async () => {
    const topics = ["notifier-test:rolled-back"];
    const heard = heardOnB(topics);
    try {
      const failed = nodeA.db.transaction().execute(async (tx) => {
        await writeIn(tx, nodeA.capabilities, [], { notice: nodeA.notifier.noticeToOthers(topics) });
        throw new Error("rolled back on purpose");
      });
      await expect(failed).rejects.toThrow("rolled back on purpose");
      // A later NOTIFY of another topic arrives; the rolled-back one never did.
      const later = heardOnB(["notifier-test:after-rollback"]);
      try {
        nodeA.notifier.publish("notifier-test:after-rollback");
        await waitUntil("the later NOTIFY on node B", () => later.counts.size > 0);
        expect(later.counts.size).toBe(1);
      } finally {
        later.stop();
      }
      expect(heard.counts.size).toBe(0);
    } finally {
      heard.stop();
    }
  });
});

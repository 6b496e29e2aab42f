/**
 * Two claimers with their own connection pools (as two server processes have) draining one queue
 * on PostgreSQL: `FOR UPDATE SKIP LOCKED` must hand each job to exactly one of them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/store.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";

const postgres = dialects.find((dialect) => dialect.name === "postgres");

describe.skipIf(!postgres || !isAvailable(postgres))("concurrent claimers on postgres", () => {
  let database: TestDatabase;
  let stores: Store[] = [];

  beforeAll(async () => {
    database = await (postgres as NonNullable<typeof postgres>).create();
    stores = [await openStore(database), await openStore(database)];
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await database?.cleanup();
  });

  it("two claimers never get the same job, and together they get all of them", async () => {
    const queue = "race";
    const total = 600;
    const [first] = stores;
    if (!first) throw new Error("no store");
    await first.db.transaction().execute(async (tx) => {
      for (let n = 0; n < total; n++) await first.jobs.enqueue(tx, { queue, payload: n });
    });

    const claimedBy = stores.map(() => [] as string[]);
    await Promise.all(
      stores.map(async (store, index) => {
        // Several claim loops per store, so claims also overlap within one pool.
        await Promise.all(
          [0, 1, 2].map(async () => {
            for (;;) {
              const jobs = await store.jobs.claimDue({ queue, limit: 7, leaseMs: 60_000 });
              if (jobs.length === 0) return;
              claimedBy[index]?.push(...jobs.map((job) => job.id));
            }
          }),
        );
      }),
    );

    const all = claimedBy.flat();
    expect(new Set(all).size).toBe(all.length);
    expect(all).toHaveLength(total);
    // Both claimers took part: the test really raced them.
    expect(claimedBy.every((ids) => ids.length > 0)).toBe(true);
  });
});

/**
 * Writes committed together (store/write-together.ts; one statement on PostgreSQL, a transaction
 * on SQLite), and the jobs table's end statements written with them, on every dialect.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/store.js";
import { writeTogether } from "../../src/store/write-together.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`writes together on ${dialect.name}`, () => {
    let database: TestDatabase;
    let store: Store;

    beforeAll(async () => {
      database = await dialect.create();
      store = await openStore(database);
    });
    afterAll(async () => {
      await store?.close();
      await database?.cleanup();
    });

    const slots = async (...keys: string[]) =>
      (await store.db.selectFrom("rate_slots").select(["key", "next_at"]).where("key", "in", keys).execute())
        .map((row) => ({ key: row.key, next_at: Number(row.next_at) }))
        .sort((a, b) => a.key.localeCompare(b.key));
    const claimOne = async (queue: string) => {
      await store.jobs.enqueue(store.db, { queue, payload: "work" });
      const [job] = await store.jobs.claimDue({ queue, limit: 1, leaseMs: 60_000 });
      if (!job) throw new Error("nothing claimed");
      return job;
    };

    it("writes rows of several tables and completes the held job, all committed", async () => {
      const job = await claimOne("together-complete");
      await writeTogether(store, [
        (db) => db.insertInto("rate_slots").values({ key: "a", next_at: 1 }),
        (db) => db.insertInto("rate_slots").values({ key: "b", next_at: 2 }),
        (db) => store.jobs.endStatement(job, undefined, db),
      ]);
      expect(await slots("a", "b")).toEqual([
        { key: "a", next_at: 1 },
        { key: "b", next_at: 2 },
      ]);
      expect(await store.db.selectFrom("jobs").select("id").where("id", "=", job.id).execute()).toEqual([]);
    });

    it("puts the held job back in the queue with its error when it failed", async () => {
      const job = await claimOne("together-fail");
      const retryAt = Date.now() + 60_000;
      await writeTogether(store, [
        (db) => db.insertInto("rate_slots").values({ key: "c", next_at: 3 }),
        (db) => store.jobs.endStatement(job, { error: "the receiver answered 500", retryAt }, db),
      ]);
      const row = await store.db
        .selectFrom("jobs")
        .select(["state", "run_at", "lease_token", "locked_until", "last_error"])
        .where("id", "=", job.id)
        .executeTakeFirstOrThrow();
      expect({ ...row, run_at: Number(row.run_at) }).toEqual({
        state: "queued",
        run_at: retryAt,
        lease_token: null,
        locked_until: null,
        last_error: "the receiver answered 500",
      });
      expect(await slots("c")).toEqual([{ key: "c", next_at: 3 }]);
    });

    it("writes none of them when one fails", async () => {
      const job = await claimOne("together-none");
      await expect(
        writeTogether(store, [
          (db) => db.insertInto("rate_slots").values({ key: "d", next_at: 4 }),
          (db) => store.jobs.endStatement(job, undefined, db),
          // "a" exists: the primary key refuses it.
          (db) => db.insertInto("rate_slots").values({ key: "a", next_at: 5 }),
        ]),
      ).rejects.toThrow();
      expect(await slots("a", "d")).toEqual([{ key: "a", next_at: 1 }]);
      expect(await store.db.selectFrom("jobs").select("id").where("id", "=", job.id).execute()).toHaveLength(
        1,
      );
    });
  });
}

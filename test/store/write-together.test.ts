/**
 * Writes committed together (store/write-together.ts; one statement on PostgreSQL, a transaction
 * on SQLite), and the jobs table's end statements written with them, on every dialect: also the
 * hand-off, a finished job's end written with the lease of its group's next job.
 */
import { describe, expect, it } from "vitest";
import { writeAndTakeNext } from "../../src/core/delivery/hand-off.js";
import { toClaimedJob } from "../../src/store/jobs/claimed-job.js";
import { takeNextWrite } from "../../src/store/jobs/take-next.js";
import type { Store } from "../../src/store/store.js";
import { writeTogether, writeTogetherReturning } from "../../src/store/write-together.js";
import { dialects, isAvailable } from "../support/dialects.js";
import { storeForSuite } from "../support/suite-store.js";

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`writes together on ${dialect.name}`, () => {
    let store: Store;
    storeForSuite(dialect, (opened) => {
      store = opened;
    });

    const slots = async (...keys: string[]) =>
      (await store.db.selectFrom("rate_slots").select(["key", "next_at"]).where("key", "in", keys).execute())
        .map((row) => ({ key: row.key, next_at: Number(row.next_at) }))
        .sort((a, b) => a.key.localeCompare(b.key));
    const claimOne = async (queue: string) => {
      await store.jobs.enqueue({ queue, payload: "work" });
      const [job] = await store.jobs.claimDue({ queue, limit: 1, leaseMs: 60_000 });
      if (!job) throw new Error("nothing claimed");
      return job;
    };

    it("writes rows of several tables and completes the held job, all committed", async () => {
      const job = await claimOne("together-complete");
      await writeTogether(store, [
        (db) => db.insertInto("rate_slots").values({ key: "a", next_at: 1 }),
        (db) => db.insertInto("rate_slots").values({ key: "b", next_at: 2 }),
        store.jobs.endWrite(job, undefined),
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
        store.jobs.endWrite(job, { error: "the receiver answered 500", retryAt }),
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
          store.jobs.endWrite(job, undefined),
          // "a" exists: the primary key refuses it.
          (db) => db.insertInto("rate_slots").values({ key: "a", next_at: 5 }),
        ]),
      ).rejects.toThrow();
      expect(await slots("a", "d")).toEqual([{ key: "a", next_at: 1 }]);
      expect(await store.db.selectFrom("jobs").select("id").where("id", "=", job.id).execute()).toHaveLength(
        1,
      );
    });

    /** Jobs of `queue` in groups, due a second apart in the order given; returns their ids. */
    const enqueueGroups = async (queue: string, groups: string[]) => {
      const start = Date.now() - 60_000;
      const ids: string[] = [];
      for (const [index, group] of groups.entries()) {
        const id = await store.jobs.enqueue({
          queue,
          payload: index,
          groupKey: group,
          runAt: start + index * 1000,
        });
        ids.push(id as string);
      }
      return ids;
    };
    const leaseOf = async (id: string) =>
      (await store.db.selectFrom("jobs").select("lease_token").where("id", "=", id).executeTakeFirst())
        ?.lease_token;

    it("hands a finished job's place to its group's next due job, oldest first, with its end", async () => {
      const queue = "together-hand-off";
      // w: held, leased by another claimer, next, later; x: older than w's next, another group.
      const [held, leasedElsewhere, x, next, later] = await enqueueGroups(queue, ["w", "w", "x", "w", "w"]);
      const claimed = await store.jobs.claimDue({ queue, limit: 2, leaseMs: 60_000 });
      expect(claimed.map((job) => job.id)).toEqual([held, leasedElsewhere]);
      const job = claimed[0] as NonNullable<(typeof claimed)[0]>;
      const rows = await writeTogetherReturning(
        store,
        [
          (db) => db.insertInto("rate_slots").values({ key: "e", next_at: 6 }),
          store.jobs.endWrite(job, undefined),
        ],
        takeNextWrite(store.capabilities, job, 30_000),
      );
      expect(rows).toHaveLength(1);
      const taken = toClaimedJob(rows[0] as NonNullable<(typeof rows)[0]>);
      expect(taken).toMatchObject({ id: next, groupKey: "w", payload: 3, attempts: 1 });
      expect(taken.lockedUntil).toBeGreaterThan(Date.now() + 20_000);
      expect(await leaseOf(next as string)).toBe(taken.leaseToken);
      // The finished job is gone, the slot written; x (another group) and the later one wait.
      expect(await store.db.selectFrom("jobs").select("id").where("id", "=", job.id).execute()).toEqual([]);
      expect(await slots("e")).toEqual([{ key: "e", next_at: 6 }]);
      expect(await leaseOf(x as string)).toBeNull();
      expect(await leaseOf(later as string)).toBeNull();
    });

    it("hands a delivery's place on with its writes, from prepared texts or built, alike", async () => {
      const queue = "together-hand-off-delivery";
      // The jobs name deliveries that do not exist: the next job comes without a row.
      const ids: string[] = [];
      for (let index = 0; index < 3; index++) {
        const id = await store.jobs.enqueue({
          queue,
          payload: { deliveryId: `dlv_missing_${index}` },
          groupKey: "v",
          runAt: Date.now() - 10_000 + index * 1000,
        });
        ids.push(id as string);
      }
      const [first] = await store.jobs.claimDue({ queue, limit: 1, leaseMs: 60_000 });
      expect(first?.id).toBe(ids[0]);
      if (!first) return;
      // Only prepared writes: on PostgreSQL the statement is joined from their texts.
      const second = await writeAndTakeNext(
        store,
        [store.jobs.endWrite(first, undefined)],
        first,
        30_000,
        Date.now(),
      );
      expect(second?.job).toMatchObject({
        id: ids[1],
        groupKey: "v",
        payload: { deliveryId: "dlv_missing_1" },
      });
      expect(second?.row).toBeUndefined();
      expect(await leaseOf(ids[1] as string)).toBe(second?.job.leaseToken);
      expect(await store.db.selectFrom("jobs").select("id").where("id", "=", first.id).execute()).toEqual([]);
      if (!second) return;
      // A write Kysely builds (not prepared): the statement is built whole, with the same outcome.
      const third = await writeAndTakeNext(
        store,
        [
          (db) => db.insertInto("rate_slots").values({ key: "hand-off", next_at: 9 }),
          store.jobs.endWrite(second.job, undefined),
        ],
        second.job,
        30_000,
        Date.now(),
      );
      expect(third?.job).toMatchObject({ id: ids[2], payload: { deliveryId: "dlv_missing_2" } });
      expect(third?.row).toBeUndefined();
      expect(await slots("hand-off")).toEqual([{ key: "hand-off", next_at: 9 }]);
      if (!third) return;
      // The group has no other due job: nothing is taken, and the end is written.
      expect(
        await writeAndTakeNext(
          store,
          [store.jobs.endWrite(third.job, undefined)],
          third.job,
          30_000,
          Date.now(),
        ),
      ).toBeUndefined();
      expect(await store.db.selectFrom("jobs").select("id").where("queue", "=", queue).execute()).toEqual([]);
    });

    it("takes nothing when the group has no other due job, and nothing at all when a write fails", async () => {
      const queue = "together-hand-off-none";
      const [only, otherGroup] = await enqueueGroups(queue, ["y", "z"]);
      await store.jobs.enqueue({
        queue,
        payload: "future",
        groupKey: "y",
        runAt: Date.now() + 60_000,
      });
      const [job] = await store.jobs.claimDue({ queue, limit: 1, leaseMs: 60_000 });
      expect(job?.id).toBe(only);
      if (!job) return;
      const end = store.jobs.endWrite(job, undefined);
      // z's job is another group's; y's other job is not due yet.
      expect(
        await writeTogetherReturning(store, [end], takeNextWrite(store.capabilities, job, 30_000)),
      ).toEqual([]);
      expect(await leaseOf(otherGroup as string)).toBeNull();

      const [again] = await enqueueGroups(queue, ["y", "y"]);
      const [second] = await store.jobs.claimDue({ queue, limit: 1, leaseMs: 60_000, excludeGroups: ["z"] });
      expect(second?.id).toBe(again);
      if (!second) return;
      await expect(
        writeTogetherReturning(
          store,
          [
            store.jobs.endWrite(second, undefined),
            // "a" exists: the primary key refuses it.
            (db) => db.insertInto("rate_slots").values({ key: "a", next_at: 7 }),
          ],
          takeNextWrite(store.capabilities, second, 30_000),
        ),
      ).rejects.toThrow();
      // Neither the end nor the lease of y's next job happened.
      expect(await leaseOf(second.id)).toBe(second.leaseToken);
      const waiting = await store.db
        .selectFrom("jobs")
        .select(["id", "lease_token"])
        .where("queue", "=", queue)
        .where("group_key", "=", "y")
        .where("id", "!=", second.id)
        .execute();
      expect(waiting.filter((row) => row.lease_token !== null)).toEqual([]);
    });
  });
}

/** The jobs table contract, on every dialect. */
import { describe, expect, it } from "vitest";
import type { NewJob } from "../../src/store/jobs/contract.js";
import { openStore, type Store } from "../../src/store/store.js";
import { writeTogether } from "../../src/store/write-together.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { storeForSuite } from "../support/suite-store.js";

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`jobs table on ${dialect.name}`, () => {
    let database: TestDatabase;
    let store: Store;
    let queueCount = 0;
    const freshQueue = () => `test-queue-${++queueCount}`;

    storeForSuite(dialect, (opened, on) => {
      store = opened;
      database = on;
    });

    it("a job enqueued in a transaction that rolls back does not exist", async () => {
      const queue = freshQueue();
      await expect(
        store.transaction(async (tx) => {
          await store.jobs.enqueue({ queue, payload: { n: 1 } }, tx);
          throw new Error("roll back");
        }),
      ).rejects.toThrow("roll back");
      expect(await store.jobs.claimDue({ queue, limit: 10, leaseMs: 1000 })).toEqual([]);
    });

    it("a job enqueued in a committed transaction is claimed with its payload", async () => {
      const queue = freshQueue();
      const id = await store.transaction((tx) => store.jobs.enqueue({ queue, payload: { n: 1 } }, tx));
      const claimed = await store.jobs.claimDue({ queue, limit: 10, leaseMs: 1000 });
      expect(claimed).toHaveLength(1);
      expect(claimed[0]).toMatchObject({ id, queue, payload: { n: 1 }, attempts: 1 });
    });

    it("a job is not claimed before its run time, and claims come oldest due first", async () => {
      const queue = freshQueue();
      const now = Date.now();
      await store.jobs.enqueue({ queue, payload: "later", runAt: now + 60_000 });
      await store.jobs.enqueue({ queue, payload: "second", runAt: now - 1000 });
      await store.jobs.enqueue({ queue, payload: "first", runAt: now - 2000 });
      const claimed = await store.jobs.claimDue({ queue, limit: 10, leaseMs: 1000, now });
      expect(claimed.map((job) => job.payload)).toEqual(["first", "second"]);
      expect(await store.jobs.nextRunAt(queue)).toBe(now + 1000);
    });

    it("a leased job is not claimed again until its lease expires, then it is", async () => {
      const queue = freshQueue();
      const now = Date.now();
      await store.jobs.enqueue({ queue, payload: 1, runAt: now });
      const [first] = await store.jobs.claimDue({ queue, limit: 10, leaseMs: 5000, now });
      expect(first).toBeDefined();
      expect(await store.jobs.claimDue({ queue, limit: 10, leaseMs: 5000, now: now + 4999 })).toEqual([]);
      const [again] = await store.jobs.claimDue({ queue, limit: 10, leaseMs: 5000, now: now + 5000 });
      expect(again?.id).toBe(first?.id);
      expect(again?.attempts).toBe(2);
      // The first claim lost its lease: it can no longer complete the job.
      expect(await store.jobs.complete(first as NonNullable<typeof first>)).toBe(false);
      expect(await store.jobs.complete(again as NonNullable<typeof again>)).toBe(true);
    });

    it("extending a lease keeps the job from other claimers", async () => {
      const queue = freshQueue();
      await store.jobs.enqueue({ queue, payload: 1 });
      const [job] = await store.jobs.claimDue({ queue, limit: 1, leaseMs: 50 });
      expect(job).toBeDefined();
      expect(await store.jobs.extendLeases([job as NonNullable<typeof job>], 60_000)).toEqual(
        new Set([job?.id]),
      );
      // Past the first lease, by the claim's clock.
      expect(await store.jobs.claimDue({ queue, limit: 1, leaseMs: 50, now: Date.now() + 80 })).toEqual([]);
    });

    it("a completed job is gone", async () => {
      const queue = freshQueue();
      await store.jobs.enqueue({ queue, payload: 1 });
      const [job] = await store.jobs.claimDue({ queue, limit: 1, leaseMs: 1000 });
      expect(await store.jobs.complete(job as NonNullable<typeof job>)).toBe(true);
      const rows = await store.db.selectFrom("jobs").selectAll().where("queue", "=", queue).execute();
      expect(rows).toEqual([]);
      expect(await store.jobs.nextRunAt(queue)).toBeNull();
    });

    it("a failed job is due again at its retry time, with the error recorded", async () => {
      const queue = freshQueue();
      const now = Date.now();
      await store.jobs.enqueue({ queue, payload: 1, runAt: now });
      const [job] = await store.jobs.claimDue({ queue, limit: 1, leaseMs: 60_000, now });
      expect(
        await store.jobs.fail(job as NonNullable<typeof job>, { error: "boom", retryAt: now + 10_000 }),
      ).toBe(true);
      expect(await store.jobs.claimDue({ queue, limit: 1, leaseMs: 1000, now: now + 9_999 })).toEqual([]);
      const [retried] = await store.jobs.claimDue({ queue, limit: 1, leaseMs: 1000, now: now + 10_000 });
      expect(retried).toMatchObject({ id: job?.id, attempts: 2, lastError: "boom" });
    });

    it("a job failed with no retry time is kept as failed and never claimed", async () => {
      const queue = freshQueue();
      await store.jobs.enqueue({ queue, payload: 1 });
      const [job] = await store.jobs.claimDue({ queue, limit: 1, leaseMs: 1000 });
      await store.jobs.fail(job as NonNullable<typeof job>, { error: "gave up", retryAt: null });
      expect(await store.jobs.claimDue({ queue, limit: 1, leaseMs: 1000, now: Date.now() + 1e9 })).toEqual(
        [],
      );
      const row = await store.db
        .selectFrom("jobs")
        .selectAll()
        .where("id", "=", job?.id ?? "")
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ state: "failed", last_error: "gave up", lease_token: null });
    });

    it("a rescheduled job is queued again as a fresh job, and only while its lease holds", async () => {
      const queue = freshQueue();
      const now = Date.now();
      const uniqueKey = `${queue}:tick`;
      await store.jobs.enqueue({ queue, payload: { n: 1 }, runAt: now, uniqueKey });
      const [job] = await store.jobs.claimDue({ queue, limit: 1, leaseMs: 60_000, now });
      const held = job as NonNullable<typeof job>;
      await writeTogether(store, [
        store.jobs.rescheduleWrite(held, { runAt: now + 1000, payload: { n: 2 } }),
      ]);
      // Held by no one and due at its new time, with its new payload, counted from its first attempt.
      expect(await store.jobs.claimDue({ queue, limit: 1, leaseMs: 1000, now: now + 999 })).toEqual([]);
      const [again] = await store.jobs.claimDue({ queue, limit: 1, leaseMs: 60_000, now: now + 1000 });
      expect(again).toMatchObject({
        id: held.id,
        payload: { n: 2 },
        attempts: 1,
        uniqueKey,
        runAt: now + 1000,
      });
      // The first claim's lease no longer holds: rescheduling with it writes nothing.
      await writeTogether(store, [
        store.jobs.rescheduleWrite(held, { runAt: now + 5000, payload: { n: 3 } }),
      ]);
      const rows = await store.db.selectFrom("jobs").selectAll().where("queue", "=", queue).execute();
      expect(rows).toHaveLength(1);
      expect(rows[0]).toMatchObject({ run_at: now + 1000, payload: JSON.stringify({ n: 2 }) });
      // Removed while held (a timer source deleted during its run): rescheduling brings nothing back.
      await store.db.deleteFrom("jobs").where("unique_key", "=", uniqueKey).execute();
      const current = again as NonNullable<typeof again>;
      await writeTogether(store, [store.jobs.rescheduleWrite(current, { runAt: now, payload: { n: 4 } })]);
      expect(await store.db.selectFrom("jobs").selectAll().where("queue", "=", queue).execute()).toEqual([]);
    });

    it("a second job with the same unique key is not enqueued", async () => {
      const queue = freshQueue();
      const uniqueKey = `${queue}:tick`;
      expect(await store.jobs.enqueue({ queue, payload: 1, uniqueKey })).toMatch(/^job_/);
      expect(await store.jobs.enqueue({ queue, payload: 2, uniqueKey })).toBeNull();
      const claimed = await store.jobs.claimDue({ queue, limit: 10, leaseMs: 1000 });
      expect(claimed.map((job) => job.payload)).toEqual([1]);
    });

    it("claims respect the limit and leave the rest for the next claim", async () => {
      const queue = freshQueue();
      for (let n = 0; n < 5; n++) await store.jobs.enqueue({ queue, payload: n });
      const first = await store.jobs.claimDue({ queue, limit: 3, leaseMs: 60_000 });
      const second = await store.jobs.claimDue({ queue, limit: 3, leaseMs: 60_000 });
      expect(first).toHaveLength(3);
      expect(second).toHaveLength(2);
      expect(new Set([...first, ...second].map((job) => job.payload))).toEqual(new Set([0, 1, 2, 3, 4]));
    });

    it("a capped claim takes the oldest due jobs within each group's cap, past a full group's backlog", async () => {
      const queue = freshQueue();
      const now = Date.now();
      const enqueue = (runAt: number, group: string | undefined, payload: string) =>
        store.jobs.enqueue({ queue, payload, runAt, ...(group ? { groupKey: group } : {}) });
      // "full" holds its cap (2) and has the oldest backlog; "left-out" is excluded by the claimer.
      for (let n = 0; n < 2; n++)
        await store.jobs.enqueue({
          queue,
          payload: `full-leased-${n}`,
          runAt: now - 100_000 + n,
          groupKey: "full",
          claim: { leaseToken: `token-${n}`, leaseMs: 60_000 },
        });
      for (let n = 0; n < 30; n++) await enqueue(now - 90_000 + n, "full", `full-${n}`);
      await enqueue(now - 50_000, "left-out", "left-out-0");
      for (let n = 0; n < 3; n++) await enqueue(now - 40_000 + n, "open", `open-${n}`);
      await enqueue(now - 30_000, undefined, "ungrouped");
      await enqueue(now + 60_000, "later", "not-due");

      const claimed = await store.jobs.claimDue({
        queue,
        limit: 10,
        leaseMs: 60_000,
        groupLimit: 2,
        excludeGroups: ["left-out"],
      });
      expect(claimed.map((job) => job.payload)).toEqual(["open-0", "open-1", "ungrouped"]);
    });

    it("a capped claim finds the other groups' jobs behind a full group's long backlog", async () => {
      const queue = freshQueue();
      const now = Date.now();
      const leased = (group: string, n: number, runAt: number) =>
        store.jobs.enqueue({
          queue,
          payload: `${group}-leased-${n}`,
          runAt,
          groupKey: group,
          claim: { leaseToken: `token-${group}-${n}`, leaseMs: 60_000 },
        });
      // "full" holds its cap (2) and has a backlog of 1,100 due jobs; every other group's jobs are
      // behind them. (A claim that read only so many due jobs in order would find none of them.)
      await leased("full", 0, now - 100_000);
      await leased("full", 1, now - 100_000);
      const backlog = Array.from({ length: 1100 }, (_, n) => ({
        queue,
        payload: `full-${n}`,
        runAt: now - 90_000 + n,
        groupKey: "full",
      }));
      await store.jobs.enqueueMany(backlog);
      await leased("half", 0, now - 50_000);
      const jobs: NewJob[] = [
        { queue, payload: "left-out-0", runAt: now - 45_000, groupKey: "left-out" },
        ...[0, 1, 2].map((n) => ({ queue, payload: `half-${n}`, runAt: now - 40_000 + n, groupKey: "half" })),
        ...[0, 1].map((n) => ({ queue, payload: `open-${n}`, runAt: now - 30_000 + n, groupKey: "open" })),
        { queue, payload: "ungrouped", runAt: now - 20_000 },
        { queue, payload: "retried-later", runAt: now + 60_000, groupKey: "failing" },
      ];
      await store.jobs.enqueueMany(jobs);

      const { jobs: claimed, nextRunAt } = await store.jobs.claimDueThenNext({
        queue,
        limit: 10,
        leaseMs: 60_000,
        groupLimit: 2,
        excludeGroups: ["left-out"],
      });
      expect(claimed.map((job) => job.payload)).toEqual(["half-0", "open-0", "open-1", "ungrouped"]);
      // On PostgreSQL the next due time comes with the claim: the backlog's first job, still due.
      expect(nextRunAt).toBe(dialect.name === "postgres" ? now - 90_000 : undefined);
      // A second claim finds nothing more: every group with due jobs is at its cap or left out.
      const again = await store.jobs.claimDue({
        queue,
        limit: 10,
        leaseMs: 60_000,
        groupLimit: 2,
        excludeGroups: ["left-out"],
      });
      expect(again).toEqual([]);
    });

    it("a capped claim reads on past a group that fills up among the jobs it read", async () => {
      const queue = freshQueue();
      const now = Date.now();
      /** `count` jobs of `group`, named after it, due one ms apart from `since` ms ago. */
      const enqueueGroup = async (group: string, count: number, since: number) => {
        for (let n = 0; n < count; n++)
          await store.jobs.enqueue({
            queue,
            payload: `${group}-${n}`,
            runAt: now - since + n,
            groupKey: group,
          });
      };
      // 12 of "busy" first: more than a claim of 5 takes, fewer than PostgreSQL's window of 4 × 5.
      await enqueueGroup("busy", 12, 20_000);
      await enqueueGroup("quiet", 5, 10_000);
      const first = await store.jobs.claimDue({ queue, limit: 5, leaseMs: 60_000, groupLimit: 3 });
      expect(first.map((job) => job.payload)).toEqual(["busy-0", "busy-1", "busy-2", "quiet-0", "quiet-1"]);
      // Both groups are now short of their cap by 0 and 1: one more of "quiet", none of "busy".
      const second = await store.jobs.claimDue({ queue, limit: 5, leaseMs: 60_000, groupLimit: 3 });
      expect(second.map((job) => job.payload)).toEqual(["quiet-2"]);
      // An ended job frees its place: the group's oldest due job takes it.
      expect(await store.jobs.complete(first[0] as NonNullable<(typeof first)[0]>)).toBe(true);
      const third = await store.jobs.claimDue({ queue, limit: 5, leaseMs: 60_000, groupLimit: 3 });
      expect(third.map((job) => job.payload)).toEqual(["busy-3"]);
    });

    it("a claim of named groups takes only their due jobs, within their caps, in claim order", async () => {
      const queue = freshQueue();
      const now = Date.now();
      const leased = (group: string, n: number) =>
        store.jobs.enqueue({
          queue,
          payload: `${group}-leased-${n}`,
          runAt: now - 100_000 + n,
          groupKey: group,
          claim: { leaseToken: `token-${group}-${n}`, leaseMs: 60_000 },
        });
      // "full" holds its cap (2) and has a backlog; "half" holds one place of two.
      await leased("full", 0);
      await leased("full", 1);
      await leased("half", 0);
      const due = (group: string | undefined, count: number, since: number): NewJob[] =>
        Array.from({ length: count }, (_, n) => ({
          queue,
          payload: `${group ?? "ungrouped"}-${n}`,
          runAt: now - since + n,
          ...(group ? { groupKey: group } : {}),
        }));
      await store.jobs.enqueueMany([
        ...due("full", 50, 90_000),
        ...due("other", 2, 80_000),
        ...due(undefined, 1, 70_000),
        ...due("left-out", 1, 60_000),
        ...due("half", 3, 50_000),
        ...due("open", 2, 40_000),
        { queue, payload: "later-0", runAt: now + 60_000, groupKey: "later" },
      ]);
      const named = ["open", "full", "half", "left-out", "later", "open", "unknown"];
      const claim = (limit: number) =>
        store.jobs.claimDueThenNext({
          queue,
          limit,
          leaseMs: 60_000,
          groupLimit: 2,
          excludeGroups: ["left-out"],
          onlyGroups: named,
        });
      const first = await claim(2);
      expect(first.jobs.map((job) => job.payload)).toEqual(["half-0", "open-0"]);
      // On PostgreSQL the queue's next due time comes with it, whatever groups the claim named.
      expect(first.nextRunAt).toBe(dialect.name === "postgres" ? now - 90_000 : undefined);
      const second = await claim(10);
      expect(second.jobs.map((job) => job.payload)).toEqual(["open-1"]);
      // The groups not named are left for a claim of the whole queue, which takes them.
      const whole = await store.jobs.claimDue({ queue, limit: 10, leaseMs: 60_000, groupLimit: 2 });
      expect(whole.map((job) => job.payload)).toEqual(["other-0", "other-1", "ungrouped-0", "left-out-0"]);
      // Without a cap too: only the named groups' jobs.
      const uncapped = freshQueue();
      await store.jobs.enqueueMany([
        { queue: uncapped, payload: "a-0", groupKey: "a", runAt: now - 2 },
        { queue: uncapped, payload: "b-0", groupKey: "b", runAt: now - 1 },
        { queue: uncapped, payload: "none", runAt: now - 3 },
      ]);
      const onlyB = await store.jobs.claimDue({
        queue: uncapped,
        limit: 10,
        leaseMs: 60_000,
        onlyGroups: ["b"],
      });
      expect(onlyB.map((job) => job.payload)).toEqual(["b-0"]);
      const none = await store.jobs.claimDue({ queue: uncapped, limit: 10, leaseMs: 60_000, onlyGroups: [] });
      expect(none).toEqual([]);
    });

    it("releasing every lease makes claimed jobs claimable at once, and the old claims lose them", async () => {
      const queue = freshQueue();
      await store.jobs.enqueue({ queue, payload: "held" });
      const [held] = await store.jobs.claimDue({ queue, limit: 1, leaseMs: 3_600_000 });
      expect(held).toBeDefined();
      expect(await store.jobs.releaseAllLeases()).toBeGreaterThanOrEqual(1);
      const [again] = await store.jobs.claimDue({ queue, limit: 1, leaseMs: 1000 });
      expect(again?.id).toBe(held?.id);
      expect(await store.jobs.complete(held as NonNullable<typeof held>)).toBe(false);
      expect(await store.jobs.complete(again as NonNullable<typeof again>)).toBe(true);
    });

    it("opening the store again finds the schema migrated and the data intact", async () => {
      const queue = freshQueue();
      await store.jobs.enqueue({ queue, payload: "kept" });
      const reopened = await openStore(database);
      try {
        const [job] = await reopened.jobs.claimDue({ queue, limit: 1, leaseMs: 1000 });
        expect(job?.payload).toBe("kept");
      } finally {
        await reopened.close();
      }
    });
    it("takeTurn starts a held job once its group has room: started jobs and turns waiting ahead count, on any claim", async () => {
      const queue = freshQueue();
      const now = Date.now();
      const hold = async (runAt: number, group: string) => {
        const leaseToken = `token-${runAt}-${group}`;
        const id = await store.jobs.enqueue({
          queue,
          payload: null,
          runAt,
          groupKey: group,
          claim: { leaseToken, leaseMs: 60_000, waitsForTurn: true },
        });
        return { id: id as string, leaseToken };
      };
      const turn = (lease: { id: string; leaseToken: string }, limit = 1, at = now) =>
        store.jobs.takeTurn(lease, { queue, groupKey: "w", limit, now: at });
      const first = await hold(now - 3000, "w");
      await hold(now - 2500, "other");
      const second = await hold(now - 1000, "w");
      // The first waits ahead of the second; a job of another group counts for nothing.
      expect(await turn(second)).toBe("waiting");
      expect(await turn(second, 2)).toBe("started");
      expect(await turn(first)).toBe("waiting");
      expect(await turn(first, 2)).toBe("started");
      // A started job stays started; a job waiting for its turn counts no attempt.
      expect(await turn(first)).toBe("started");
      const third = await hold(now - 500, "w");
      const attempts = async (id: string) =>
        (await store.db.selectFrom("jobs").select("attempts").where("id", "=", id).executeTakeFirstOrThrow())
          .attempts;
      expect(await attempts(third.id)).toBe(0);
      expect(await turn(third, 2)).toBe("waiting");
      expect(await store.jobs.complete(first)).toBe(true);
      expect(await turn(third, 2)).toBe("started");
      expect(await attempts(third.id)).toBe(1);
      // Once their leases have expired they hold nothing.
      const fourth = await hold(now, "w");
      expect(await turn(fourth, 1)).toBe("waiting");
      expect(await turn(fourth, 1, now + 120_000)).toBe("started");
      // A lease that no longer holds its job (taken over, or the job gone) is told so.
      expect(await turn({ id: fourth.id, leaseToken: "another" })).toBe("lost");
      expect(await store.jobs.complete(fourth)).toBe(true);
      expect(await turn(fourth)).toBe("lost");
    });

    it("a held job waiting for its turn takes its group's room from capped claims", async () => {
      const queue = freshQueue();
      const now = Date.now();
      await store.jobs.enqueue({ queue, payload: "free", runAt: now - 1000, groupKey: "w" });
      await store.jobs.enqueue({
        queue,
        payload: "held",
        runAt: now,
        groupKey: "w",
        claim: { leaseToken: "held", leaseMs: 60_000, waitsForTurn: true },
      });
      expect(await store.jobs.claimDue({ queue, limit: 10, leaseMs: 60_000, groupLimit: 1 })).toEqual([]);
      const [free] = await store.jobs.claimDue({ queue, limit: 10, leaseMs: 60_000, groupLimit: 2 });
      expect(free?.payload).toBe("free");
    });
  });
}

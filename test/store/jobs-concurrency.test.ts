/**
 * Two claimers with their own connection pools (as two server processes have) draining one queue
 * on PostgreSQL: `FOR UPDATE SKIP LOCKED` must hand each job to exactly one of them, and a claim
 * with a cap per group (`groupLimit`) must keep every group within its cap across both. The
 * pauses (`letTimePass`) are the simulated workers' own time: a job's work, a claimer's back-off
 * on an empty queue, the jitter that lets commits interleave. None waits for a condition.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore, type Store } from "../../src/store/store.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { heldAnswer } from "../support/recorder.js";
import { letTimePass } from "../support/wait.js";

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
    await first.transaction(async (tx) => {
      for (let n = 0; n < total; n++) await first.jobs.enqueue({ queue, payload: n }, tx);
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

  it("claimers with a cap per group never hold more of a group than its cap together, and take each group's jobs in order", async () => {
    const queue = "capped";
    const groups = ["a", "b", "c"];
    const cap = 2;
    const perGroup = 40;
    const [first] = stores;
    if (!first) throw new Error("no store");
    await first.transaction(async (tx) => {
      for (let n = 0; n < perGroup; n++)
        for (const group of groups)
          await first.jobs.enqueue({ queue, payload: n, groupKey: group, runAt: n }, tx);
    });

    const inFlight = new Map<string, number>();
    let highest = 0;
    const started = new Map<string, number[]>();
    await Promise.all(
      stores.flatMap((store) =>
        [0, 1, 2].map(async () => {
          for (let idle = 0; idle < 50; ) {
            const jobs = await store.jobs.claimDue({ queue, limit: 5, leaseMs: 60_000, groupLimit: cap });
            if (jobs.length === 0) {
              idle++;
              await letTimePass(5);
              continue;
            }
            idle = 0;
            await Promise.all(
              jobs.map(async (job) => {
                const group = job.groupKey ?? "";
                const now = (inFlight.get(group) ?? 0) + 1;
                inFlight.set(group, now);
                highest = Math.max(highest, now);
                started.set(group, [...(started.get(group) ?? []), job.payload as number]);
                await letTimePass(3);
                inFlight.set(group, (inFlight.get(group) ?? 1) - 1);
                expect(await store.jobs.complete(job)).toBe(true);
              }),
            );
          }
        }),
      ),
    );

    expect(highest).toBe(cap);
    for (const group of groups) {
      const order = started.get(group) ?? [];
      expect(order).toHaveLength(perGroup);
      // Two at a time, in queue order: each job starts at most one place before its turn.
      for (const [index, n] of order.entries()) expect(Math.abs(n - index)).toBeLessThan(cap);
    }
  });

  it("with a cap of 1 kept in a column, a group's jobs run one at a time in queue order across claimers", async () => {
    const queue = "fifo";
    const [first] = stores;
    if (!first) throw new Error("no store");
    // workflows.concurrency holds the cap; a group with no row there gets 1.
    await first.transaction(async (tx) => {
      for (let n = 0; n < 30; n++)
        await first.jobs.enqueue({ queue, payload: n, groupKey: "wf_none", runAt: n }, tx);
    });
    const order: number[] = [];
    let running = 0;
    let overlapped = false;
    await Promise.all(
      stores.flatMap((store) =>
        [0, 1].map(async () => {
          for (let idle = 0; idle < 50; ) {
            const jobs = await store.jobs.claimDue({
              queue,
              limit: 5,
              leaseMs: 60_000,
              groupLimit: { table: "workflows", idColumn: "id", limitColumn: "concurrency" },
            });
            if (jobs.length === 0) {
              idle++;
              await letTimePass(2);
              continue;
            }
            idle = 0;
            for (const job of jobs) {
              running++;
              if (running > 1) overlapped = true;
              order.push(job.payload as number);
              await letTimePass(2);
              running--;
              await store.jobs.complete(job);
            }
          }
        }),
      ),
    );
    expect(overlapped).toBe(false);
    expect(order).toEqual(Array.from({ length: 30 }, (_, n) => n));
  });

  it("a turn and a claim never both take a group's last room, however the holders' commits interleave", async () => {
    const queue = "turns";
    const [first, second] = stores;
    if (!first || !second) throw new Error("no store");
    const cap = { table: "workflows", idColumn: "id", limitColumn: "concurrency" } as const;
    // The job due first commits last: the later one, committed first, found nothing ahead of it.
    const commitEarly = heldAnswer();
    const early = first.transaction(async (tx) => {
      const id = await first.jobs.enqueue(
        {
          queue,
          payload: "early",
          runAt: Date.now() - 1000,
          groupKey: "wf_turns",
          claim: { leaseToken: "early", leaseMs: 60_000, waitsForTurn: true },
        },
        tx,
      );
      await commitEarly.held;
      return id as string;
    });
    const late = await second.jobs.enqueue({
      queue,
      payload: "late",
      groupKey: "wf_turns",
      claim: { leaseToken: "late", leaseMs: 60_000, waitsForTurn: true },
    });
    const turn = (store: Store, id: string, leaseToken: string) =>
      store.jobs.takeTurn({ id, leaseToken }, { queue, groupKey: "wf_turns", limit: 1 });
    expect(await turn(second, late as string, "late")).toBe("started");
    commitEarly.release();
    const earlyId = await early;
    expect(await turn(first, earlyId, "early")).toBe("waiting");
    expect(await second.jobs.complete({ id: late as string, leaseToken: "late" })).toBe(true);
    expect(await turn(first, earlyId, "early")).toBe("started");
    expect(await first.jobs.complete({ id: earlyId, leaseToken: "early" })).toBe(true);

    // Many at once: held jobs queued from both stores (each commit a little late, so they become
    // visible out of their order) waiting for their turns, and free ones taken by capped claims.
    let running = 0;
    let most = 0;
    const work = async (store: Store, lease: { id: string; leaseToken: string }) => {
      running++;
      most = Math.max(most, running);
      await letTimePass(2);
      running--;
      expect(await store.jobs.complete(lease)).toBe(true);
    };
    const holders = stores.flatMap((store, index) =>
      Array.from({ length: 12 }, async (_, n) => {
        const leaseToken = `held-${index}-${n}`;
        await letTimePass(Math.random() * 40);
        const id = (await store.transaction(async (tx) => {
          const queued = await store.jobs.enqueue(
            {
              queue,
              payload: leaseToken,
              groupKey: "wf_turns",
              claim: { leaseToken, leaseMs: 60_000, waitsForTurn: true },
            },
            tx,
          );
          await letTimePass(Math.random() * 5);
          return queued;
        })) as string;
        while ((await turn(store, id, leaseToken)) !== "started") {
          await letTimePass(1);
        }
        await work(store, { id, leaseToken });
      }),
    );
    await first.jobs.enqueueMany(
      Array.from({ length: 12 }, (_, n) => ({ queue, payload: n, groupKey: "wf_turns" })),
    );
    const claimers = stores.map(async (store) => {
      for (let idle = 0; idle < 100; ) {
        const jobs = await store.jobs.claimDue({ queue, limit: 5, leaseMs: 60_000, groupLimit: cap });
        if (jobs.length === 0) {
          idle++;
          await letTimePass(2);
          continue;
        }
        idle = 0;
        for (const job of jobs) await work(store, job);
      }
    });
    await Promise.all([...holders, ...claimers]);
    expect(await first.db.selectFrom("jobs").select("id").where("queue", "=", queue).execute()).toEqual([]);
    expect(most).toBe(1);
  });
});

/**
 * When a job's end wakes the claim loop (SQLite, one store): an end wakes a claim, since it frees
 * a place; an end whose worker said no due job waits for it (`noneWaiting`) does not, unless the
 * loop was full. An announcement of new jobs wakes one, unless the worker says it can take none
 * of the announced groups. The polls are an hour apart, so every claim after the first is a wake's.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ClaimLoop, createClaimLoop } from "../../src/core/workers/claim-loop.js";
import type { ClaimedJob } from "../../src/store/jobs/contract.js";
import { openStore, type Store } from "../../src/store/store.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { holdsThroughout, letTimePass, waitUntil } from "../support/wait.js";

const sqlite = dialects.find((dialect) => dialect.name === "sqlite") as NonNullable<(typeof dialects)[0]>;

describe("the claim loop's wake-ups when a job ends", () => {
  let database: TestDatabase;
  let store: Store;
  const loops: ClaimLoop[] = [];
  let queueCount = 0;

  beforeAll(async () => {
    database = await sqlite.create();
    store = await openStore(database);
  });
  afterEach(async () => {
    await Promise.all(loops.splice(0).map((loop) => loop.stop()));
  });
  afterAll(async () => {
    await store?.close();
    await database?.cleanup();
  });

  /**
   * A loop of `concurrency` on a fresh queue whose claims are counted; each claimed job runs
   * `work` and is completed. Resolves once its first claim (at start) is done.
   */
  const startLoop = async (
    concurrency: number,
    work: (loop: ClaimLoop, job: ClaimedJob) => Promise<void>,
    options: {
      claimable?: (groups: readonly string[]) => boolean;
      excludeGroups?: () => readonly string[];
      groupLimit?: number;
      pollMs?: number;
    } = {},
  ) => {
    const { claimable, excludeGroups, groupLimit, pollMs = 3_600_000 } = options;
    const queue = `wakes-${++queueCount}`;
    const counted: Store = {
      ...store,
      jobs: {
        ...store.jobs,
        claimDueThenNext: (options) => {
          claims.count++;
          claims.onlyGroups.push(options.onlyGroups);
          return store.jobs.claimDueThenNext(options);
        },
        nextRunAt: async (queue) => {
          const next = await store.jobs.nextRunAt(queue);
          claims.nextRunAtLooks++;
          return next;
        },
      },
    };
    const claims = { count: 0, onlyGroups: [] as (readonly string[] | undefined)[], nextRunAtLooks: 0 };
    const ended: string[] = [];
    const loop: ClaimLoop = createClaimLoop(
      {
        store: counted,
        queue,
        topic: `${queue}:new`,
        concurrency,
        pollMs,
        ...(groupLimit ? { groupLimit } : {}),
      },
      {
        ...(claimable ? { claimable } : {}),
        ...(excludeGroups ? { excludeGroups } : {}),
        claimed(jobs) {
          for (const job of jobs)
            void loop.run(job, async () => {
              await work(loop, job);
              await store.jobs.complete(job);
              ended.push(job.payload as string);
            });
        },
      },
    );
    for (const payload of ["a", "b"].slice(0, concurrency === 1 ? 1 : 2))
      await store.jobs.enqueue({ queue, payload });
    loop.start();
    loops.push(loop);
    await waitUntil("the first claim", () => claims.count >= 1);
    return { claims, ended, queue, topic: `${queue}:new` };
  };

  /**
   * The loop sleeps an hour between polls and a wake claims at once, but nothing marks a wake that
   * did not come: the window shows that no claim was made in it, and the count is still `count`.
   */
  const noClaimWithin = async (claims: { count: number }, count: number, ms: number) => {
    await holdsThroughout(`still ${count} claim(s)`, () => claims.count === count, ms, 10);
    expect(claims.count).toBe(count);
  };

  /**
   * Puts a due job behind a group at its cap of 1 ("stuck": another claimer holds its lease) and
   * wakes the loop, whose claim finds it held back: the loop's next claims woken by
   * announcements naming groups are targeted. `claimed` says when that claim was made.
   */
  const holdBack = async (
    queue: string,
    topic: string,
    claimed: () => boolean,
    looksAtNextRunAt: () => number,
  ) => {
    await store.jobs.enqueue({
      queue,
      payload: "stuck-leased",
      groupKey: "stuck",
      claim: { leaseToken: "elsewhere", leaseMs: 60_000 },
    });
    await store.jobs.enqueue({ queue, payload: "stuck-0", groupKey: "stuck" });
    const looks = looksAtNextRunAt();
    store.notifier.publish(topic);
    await waitUntil("the claim that finds stuck-0 held back", claimed);
    // On SQLite the loop asks for the next due time after the claim, then sleeps.
    await waitUntil("the loop's look at the next due time", () => looksAtNextRunAt() > looks);
  };

  it("an end wakes a claim; an end that no due job waits for does not", async () => {
    const { claims, ended } = await startLoop(4, async (loop, job) => {
      if (job.payload === "a") loop.noneWaiting(job);
      // b keeps its place a while: only a's end could wake a claim meanwhile.
      else await letTimePass(300);
    });
    await waitUntil("job a to end", () => ended.includes("a"));
    await noClaimWithin(claims, 1, 150);
    await waitUntil("job b to end", () => ended.includes("b"));
    await waitUntil("a second claim", () => claims.count === 2);
  });

  it("an end that no due job waits for still wakes a claim when the loop was full", async () => {
    const { claims, ended } = await startLoop(1, async (loop, job) => {
      loop.noneWaiting(job);
    });
    await waitUntil("job a to end", () => ended.includes("a"));
    await waitUntil("a second claim", () => claims.count === 2);
  });

  it("an announcement of new jobs wakes a claim unless the worker can take none of its groups", async () => {
    const { claims, ended, topic } = await startLoop(4, async (loop, job) => loop.noneWaiting(job), {
      claimable: (groups) => groups.includes("open"),
    });
    await waitUntil("jobs a and b to end", () => ended.length === 2);
    await noClaimWithin(claims, 1, 150);
    store.notifier.publish(topic, ["full"]);
    await noClaimWithin(claims, 1, 150);
    store.notifier.publish(topic, ["full", "open"]);
    await waitUntil("a claim for the open group", () => claims.count === 2);
    // Groups not named (another node's announcement): a claim, whatever the worker says.
    store.notifier.publish(topic);
    await waitUntil("a claim for an announcement without groups", () => claims.count === 3);
  });

  it("while due jobs are held back, a claim woken only by announcements naming groups takes those groups", async () => {
    const { claims, ended, queue, topic } = await startLoop(
      4,
      async (loop, job) => {
        if (job.payload !== "slow") loop.noneWaiting(job);
        // Time is the point: "slow" holds its group's place a while.
        else await letTimePass(200);
      },
      // Polls 1.5 s apart: the look at the whole queue that a job come due without an announcement waits for.
      { groupLimit: 1, pollMs: 1_500 },
    );
    await waitUntil("jobs a and b to end", () => ended.length === 2);
    // Nothing due waits: an announcement naming a group wakes a claim of the whole queue.
    await store.jobs.enqueue({ queue, payload: "f-0", groupKey: "f" });
    store.notifier.publish(topic, ["f"]);
    await waitUntil("f-0 to end", () => ended.includes("f-0"));
    expect(claims.onlyGroups).toEqual([undefined, undefined]);
    await holdBack(
      queue,
      topic,
      () => claims.count === 3,
      () => claims.nextRunAtLooks,
    );
    // New jobs of "g" announced: a claim of "g" alone takes them.
    await store.jobs.enqueue({ queue, payload: "g-0", groupKey: "g" });
    store.notifier.publish(topic, ["g"]);
    await waitUntil("g-0 to end", () => ended.includes("g-0"));
    expect(claims.onlyGroups.slice(2)).toEqual([undefined, ["g"]]);
    // A job of another group that came due without an announcement (a retry's time, say), while
    // announcements of "g" keep waking the loop: the next look at the whole queue claims it, at
    // the latest a poll after the last one.
    const since = claims.count;
    await store.jobs.enqueue({ queue, payload: "h-0", groupKey: "h" });
    const announcing = setInterval(() => store.notifier.publish(topic, ["g"]), 20);
    try {
      await waitUntil("h-0 to end", () => ended.includes("h-0"));
    } finally {
      clearInterval(announcing);
    }
    const looks = claims.onlyGroups.slice(since);
    expect(looks[0]).toEqual(["g"]);
    expect(looks.filter((groups) => groups === undefined)).toHaveLength(1);
    // An announcement without groups (another node's) and a job's end each wake a whole look.
    const before = claims.count;
    store.notifier.publish(topic);
    await waitUntil("a claim for the announcement", () => claims.count === before + 1);
    expect(claims.onlyGroups.at(-1)).toBeUndefined();
    await store.jobs.enqueue({ queue, payload: "slow", groupKey: "s" });
    store.notifier.publish(topic, ["s"]);
    await waitUntil("slow to end", () => ended.includes("slow"));
    await waitUntil("the claim its end woke", () => claims.count === before + 3);
    expect(claims.onlyGroups.slice(before)).toEqual([undefined, ["s"], undefined]);
  });

  it("while due jobs are held back, an announcement naming only groups left out makes no claim", async () => {
    const left = new Set<string>(["x"]);
    const { claims, ended, queue, topic } = await startLoop(4, async (loop, job) => loop.noneWaiting(job), {
      excludeGroups: () => [...left],
      groupLimit: 1,
      pollMs: 60_000,
    });
    await waitUntil("jobs a and b to end", () => ended.length === 2);
    await holdBack(
      queue,
      topic,
      () => claims.count === 2,
      () => claims.nextRunAtLooks,
    );
    // "x" is left out of every claim (at its cap here, say): announcing it alone costs no claim.
    await store.jobs.enqueue({ queue, payload: "x-0", groupKey: "x" });
    store.notifier.publish(topic, ["x"]);
    await noClaimWithin(claims, 2, 200);
    // Announced with a group that is not left out, a claim of both: x-0 still stays.
    await store.jobs.enqueue({ queue, payload: "g-0", groupKey: "g" });
    store.notifier.publish(topic, ["x", "g"]);
    await waitUntil("g-0 to end", () => ended.includes("g-0"));
    expect(claims.onlyGroups.slice(2)).toEqual([["x", "g"]]);
    expect(ended).not.toContain("x-0");
    // No longer left out: the next announcement's claim takes it.
    left.clear();
    store.notifier.publish(topic, ["x"]);
    await waitUntil("x-0 to end", () => ended.includes("x-0"));
  });
});

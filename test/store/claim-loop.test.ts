/**
 * The claim loop's leases across nodes, on PostgreSQL with two stores (two connection pools, as
 * two server processes have): a run that outlasts its lease keeps its job because the heartbeat
 * renews it, and a job whose holder stopped renewing (a node that died) is taken by the other node
 * once its lease is over. Short leases (400 ms) keep the test quick; the server's are 6 s.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { type ClaimLoop, createClaimLoop } from "../../src/core/workers/claim-loop.js";
import type { ClaimedJob } from "../../src/store/jobs/contract.js";
import { openStore, type Store } from "../../src/store/store.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { letTimePass, waitUntil } from "../support/wait.js";

const postgres = dialects.find((dialect) => dialect.name === "postgres");
const LEASE = 400;

describe.skipIf(!postgres || !isAvailable(postgres))("the claim loop's leases on postgres", () => {
  let database: TestDatabase;
  let stores: Store[] = [];
  const loops: ClaimLoop[] = [];

  beforeAll(async () => {
    database = await (postgres as NonNullable<typeof postgres>).create();
    stores = [await openStore(database), await openStore(database)];
  });
  afterEach(async () => {
    await Promise.all(loops.splice(0).map((loop) => loop.stop()));
  });
  afterAll(async () => {
    await Promise.all(stores.map((store) => store.close()));
    await database?.cleanup();
  });

  /** A loop on `store` that runs each claimed job with `work` and records who ran what. */
  const startLoop = (
    store: Store,
    queue: string,
    ran: string[],
    work: (job: ClaimedJob) => Promise<void>,
  ) => {
    const loop: ClaimLoop = createClaimLoop(
      { store, queue, topic: `${queue}:new`, concurrency: 4, pollMs: 100, leaseMs: LEASE },
      {
        claimed(jobs) {
          for (const job of jobs) {
            ran.push(job.payload as string);
            void loop.run(job, () => work(job));
          }
        },
      },
    );
    loop.start();
    loops.push(loop);
    return loop;
  };

  const enqueue = (store: Store, queue: string, payload: string) =>
    store.transaction((tx) => store.jobs.enqueue({ queue, payload }, tx));

  it("a run four leases long keeps its job: the other node never runs it", async () => {
    const [a, b] = stores as [Store, Store];
    const queue = "long-run";
    const ranOnA: string[] = [];
    const ranOnB: string[] = [];
    let finished = false;
    startLoop(a, queue, ranOnA, async (job) => {
      // Time is the point: the run outlasts four leases, renewed meanwhile.
      await letTimePass(LEASE * 4);
      expect(await a.jobs.complete(job)).toBe(true);
      finished = true;
    });
    await enqueue(a, queue, "long");
    await waitUntil("the run on A", () => ranOnA.length === 1, 5000, 20);
    startLoop(b, queue, ranOnB, async (job) => {
      await b.jobs.complete(job);
    });
    await waitUntil("the run on A to finish", () => finished, 10_000, 20);
    expect(ranOnA).toEqual(["long"]);
    expect(ranOnB).toEqual([]);
  });

  it("a job whose holder stopped renewing is run by the other node once its lease is over", async () => {
    const [a, b] = stores as [Store, Store];
    const queue = "dead-holder";
    await enqueue(a, queue, "orphan");
    // Node A claims it and dies: nothing renews the lease.
    const [claimed] = await a.jobs.claimDue({ queue, limit: 1, leaseMs: LEASE });
    expect(claimed?.payload).toBe("orphan");
    const claimedAt = Date.now();
    const ranOnB: string[] = [];
    let tookOverAt = 0;
    startLoop(b, queue, ranOnB, async (job) => {
      tookOverAt = Date.now();
      expect(await b.jobs.complete(job)).toBe(true);
    });
    await waitUntil("B to take the job over", () => tookOverAt > 0, 10_000, 20);
    expect(ranOnB).toEqual(["orphan"]);
    // Not before the lease ended, and soon after (a poll of 100 ms, with room for a busy machine).
    expect(tookOverAt - claimedAt).toBeGreaterThanOrEqual(LEASE - 20);
    expect(tookOverAt - claimedAt).toBeLessThan(LEASE + 2_000);
    // A's completion fails: the job was no longer A's.
    expect(await a.jobs.complete(claimed as ClaimedJob)).toBe(false);
  });
});

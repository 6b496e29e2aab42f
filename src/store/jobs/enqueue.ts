/** Adding jobs, in the caller's transaction or as writes committed with the caller's own. */
import type { StoreConnection } from "../dialect/dialect.js";
import { prepared } from "../prepared.js";
import type { Executor } from "../schema.js";
import type { StoreTransaction } from "../transaction.js";
import { insertWrites, type Write } from "../write.js";
import type { NewJob } from "./contract.js";
import { newJobId } from "./job-id.js";

/** A job, unless one with its unique key exists: its id if it was inserted. */
const insertJob = prepared<
  {
    id: string;
    queue: string;
    unique_key: string | null;
    group_key: string | null;
    payload: string;
    state: "queued";
    run_at: number;
    attempts: number;
    lease_token: string | null;
    locked_until: number | null;
    created_at: number;
  },
  { id: string }
>(
  (creator, job) =>
    creator
      .insertInto("jobs")
      .values(job)
      .onConflict((conflict) => conflict.column("unique_key").doNothing())
      .returning("id"),
  { reusePlan: true },
);

/** Adds `job`, in `tx` when given; its id, or null if its `uniqueKey` exists. */
export async function enqueue(
  store: StoreConnection,
  job: NewJob,
  tx: StoreTransaction | undefined,
): Promise<string | null> {
  const now = Date.now();
  const [row] = await insertJob.execute(
    store,
    {
      id: newJobId(),
      queue: job.queue,
      unique_key: job.uniqueKey ?? null,
      group_key: job.groupKey ?? null,
      payload: JSON.stringify(job.payload ?? null),
      state: "queued",
      run_at: job.runAt ?? now,
      attempts: job.claim && !job.claim.waitsForTurn ? 1 : 0,
      lease_token: job.claim?.leaseToken ?? null,
      locked_until: job.claim ? now + job.claim.leaseMs : null,
      created_at: now,
    },
    tx === undefined ? {} : { in: tx },
  );
  return row?.id ?? null;
}

/** The writes that add `jobs` (without unique keys or claims), 500 to a statement. */
export function enqueueWrites(jobs: readonly NewJob[]): Write[] {
  const now = Date.now();
  const rows = jobs.map((job) => ({
    id: newJobId(),
    queue: job.queue,
    unique_key: null,
    group_key: job.groupKey ?? null,
    payload: JSON.stringify(job.payload ?? null),
    state: "queued" as const,
    run_at: job.runAt ?? now,
    attempts: 0,
    created_at: now,
  }));
  return insertWrites("jobs", rows, 500);
}

/** Adds many jobs (without unique keys or claims) inside `executor`. */
export async function enqueueMany(executor: Executor, jobs: readonly NewJob[]): Promise<void> {
  for (const write of enqueueWrites(jobs)) await write(executor).execute();
}

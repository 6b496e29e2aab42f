/**
 * A delivery's outcome written together with the lease of its webhook's next due job
 * (store/jobs/contract.ts `takeNext`), so that a webhook with a backlog drains without a claim
 * per delivery. On PostgreSQL the next job's delivery and webhook are read in the same statement
 * too: the next send starts without another round trip. On SQLite, in process, the worker reads
 * them as it reads a claimed job's.
 */
import type { ClaimedJob, DeliveryRow } from "../../store/jobs/contract.js";
import type { Store } from "../../store/store.js";
import type { Write } from "../../store/write-together.js";

export type { DeliveryRow } from "../../store/jobs/contract.js";

/** The job taken, and on PostgreSQL its delivery's row (absent if the delivery is gone). */
export interface TakenNext {
  readonly job: ClaimedJob;
  readonly row?: DeliveryRow;
}

/**
 * Commits `writes` (the finished delivery's outcome and its job's end) and leases the webhook's
 * next due job, all or none. Returns the job taken, or undefined when the webhook has none due.
 * With `together`, it may commit with other hand-offs ending meanwhile (PostgreSQL).
 */
export async function writeAndTakeNext(
  store: Store,
  writes: readonly Write[],
  finished: ClaimedJob,
  leaseMs: number,
  now: number,
  together = false,
): Promise<TakenNext | undefined> {
  const job = await store.jobs.takeNext(finished, { writes, leaseMs, now, readAlong: "delivery", together });
  if (!job) return undefined;
  return job.readAlong ? { job, row: job.readAlong } : { job };
}

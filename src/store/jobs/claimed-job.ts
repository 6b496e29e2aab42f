/** A job row as its claimer holds it, and the order claims hand jobs out in. */
import type { JobsTable } from "../schema.js";
import type { ClaimedJob } from "./contract.js";

/** Claimed rows as their claimer holds them, oldest due first (the order claims take them). */
export function claimedInOrder(rows: readonly JobsTable[]): ClaimedJob[] {
  return rows.map(toClaimedJob).sort(inClaimOrder);
}

/** Oldest due first, then by id: the order a claim takes jobs in. */
export function inClaimOrder(a: ClaimedJob, b: ClaimedJob): number {
  return a.runAt - b.runAt || a.id.localeCompare(b.id);
}

/** A job row as its claimer holds it. */
export function toClaimedJob(row: JobsTable): ClaimedJob {
  return {
    id: row.id,
    leaseToken: row.lease_token ?? "",
    queue: row.queue,
    payload: JSON.parse(row.payload),
    uniqueKey: row.unique_key,
    groupKey: row.group_key,
    runAt: Number(row.run_at),
    attempts: row.attempts,
    lockedUntil: Number(row.locked_until),
    lastError: row.last_error,
  };
}

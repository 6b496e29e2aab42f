/**
 * Claimed jobs whose work failed on the database (it went away, or its disk is full). Left alone,
 * each would wait out its lease (up to minutes) before any worker claims it again; kept here, they
 * go back to the queue, due at once, as soon as the database answers again.
 */
import { databaseFailure } from "../../store/database-errors.js";
import type { JobQueue, Lease } from "../../store/jobs/contract.js";

/** A held job: its lease, and when it was due (it goes back due then; now when unknown). */
type HeldJob = Lease & { readonly runAt?: number };

export interface StrandedJobs {
  /** Keeps the job if `error` is a database failure; says whether it did. */
  keepIfStranded(job: HeldJob, error: unknown): boolean;
  /** Puts the kept jobs back in the queue; throws (keeping the rest) while the database is still away. */
  release(): Promise<void>;
}

export function createStrandedJobs(jobs: JobQueue): StrandedJobs {
  const stranded: HeldJob[] = [];
  return {
    keepIfStranded(job, error) {
      if (databaseFailure(error) === undefined) return false;
      stranded.push(job);
      return true;
    },
    async release() {
      while (stranded.length > 0) {
        const job = stranded[0] as HeldJob;
        await jobs.fail(job, { error: "the database was unavailable", retryAt: job.runAt ?? Date.now() });
        stranded.shift();
      }
    },
  };
}

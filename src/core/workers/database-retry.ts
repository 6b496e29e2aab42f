/**
 * A worker's write after work it cannot undo (a delivery already sent): when the database is
 * unreachable or full, the write is tried again until it succeeds, the worker stops, or the job's
 * claim is about to expire. So a delivery sent during a database outage is recorded once the
 * database is back, instead of being sent again when its lease runs out.
 */
import { databaseFailure } from "../../store/database-errors.js";

export interface DatabaseRetryOptions {
  /** Epoch ms after which no attempt starts (the claim's lease end, less a margin). */
  readonly until: number;
  /** False once the worker is stopping: give up, the lease expires and the job is claimed again. */
  readonly keepTrying: () => boolean;
  /** Told of the first failure (not of each retry). */
  readonly onFirstFailure: (error: unknown) => void;
  readonly intervalMs?: number;
}

export async function retryWhileDatabaseRecovers<T>(
  write: () => Promise<T>,
  options: DatabaseRetryOptions,
): Promise<T> {
  const intervalMs = options.intervalMs ?? 500;
  for (let failures = 0; ; failures++) {
    try {
      return await write();
    } catch (error) {
      const retry =
        databaseFailure(error) !== undefined &&
        options.keepTrying() &&
        Date.now() + intervalMs < options.until;
      if (!retry) throw error;
      if (failures === 0) options.onFirstFailure(error);
      await new Promise((resolve) => setTimeout(resolve, intervalMs));
    }
  }
}

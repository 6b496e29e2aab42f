/**
 * A failed job's end, while its lease still holds it: due again at its retry time, or kept as
 * failed for inspection when it has none.
 */
import { sql } from "kysely";
import { prepared } from "../prepared.js";
import { preparedWrite, type Write } from "../write.js";
import type { Lease } from "./contract.js";

/** Errors are kept to this many characters. */
const MAX_ERROR_LENGTH = 4000;

const released = (state: "failed" | "queued") =>
  prepared(
    (creator, end: { id: string; token: string; error: string; runAt?: number }) =>
      creator
        .updateTable("jobs")
        .set({
          state,
          run_at: end.runAt ?? sql`run_at`,
          lease_token: null,
          locked_until: null,
          last_error: end.error,
        })
        .where("id", "=", end.id)
        .where("lease_token", "=", end.token),
    { reusePlan: true },
  );
const failed = released("failed");
const retried = released("queued");

export function failWrite(lease: Lease, failure: { error: string; retryAt: number | null }): Write {
  const key = { id: lease.id, token: lease.leaseToken };
  const error = failure.error.slice(0, MAX_ERROR_LENGTH);
  return failure.retryAt === null
    ? preparedWrite(failed, { ...key, error })
    : preparedWrite(retried, { ...key, error, runAt: failure.retryAt });
}

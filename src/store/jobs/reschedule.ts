/** A recurring job's next run: the held job queued again as a fresh one, in one write. */
import { prepared } from "../prepared.js";
import { preparedWrite, type Write } from "../write.js";
import type { Lease } from "./contract.js";

const rescheduled = prepared(
  (creator, next: { id: string; token: string; runAt: number; payload: string }) =>
    creator
      .updateTable("jobs")
      .set({
        payload: next.payload,
        state: "queued",
        run_at: next.runAt,
        attempts: 0,
        lease_token: null,
        locked_until: null,
        last_error: null,
      })
      .where("id", "=", next.id)
      .where("lease_token", "=", next.token),
  { reusePlan: true },
);

export function rescheduleWrite(
  lease: Lease,
  next: { readonly runAt: number; readonly payload: unknown },
): Write {
  return preparedWrite(rescheduled, {
    id: lease.id,
    token: lease.leaseToken,
    runAt: next.runAt,
    payload: JSON.stringify(next.payload ?? null),
  });
}

/** A waiting job made due sooner (a paused run resumed by a request), unless a claim holds it. */
import { prepared } from "../prepared.js";
import { preparedWrite, type Write } from "../write.js";

const woken = prepared(
  (creator, job: { id: string; runAt: number }) =>
    creator
      .updateTable("jobs")
      .set({ run_at: job.runAt })
      .where("id", "=", job.id)
      .where("lease_token", "is", null)
      .where("state", "=", "queued"),
  { reusePlan: true },
);

export function wakeWrite(jobId: string, runAt: number): Write {
  return preparedWrite(woken, { id: jobId, runAt });
}

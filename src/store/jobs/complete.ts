/** A finished job's end: its row removed, while its lease still holds it. */
import { prepared } from "../prepared.js";
import { preparedWrite, type Write } from "../write.js";
import type { Lease } from "./contract.js";

const completed = prepared(
  (creator, lease: { id: string; token: string }) =>
    creator.deleteFrom("jobs").where("id", "=", lease.id).where("lease_token", "=", lease.token),
  { reusePlan: true },
);

export function completeWrite(lease: Lease): Write {
  return preparedWrite(completed, { id: lease.id, token: lease.leaseToken });
}

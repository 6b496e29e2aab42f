/** A worker's heartbeat: many leases pushed out at once. */
import type { Kysely } from "kysely";
import type { DialectAdapter } from "../dialect/dialect.js";
import type { Database } from "../schema.js";
import type { Lease } from "./contract.js";

/** Pushes `leases` out by `leaseMs` from now, in one statement; the ids whose lease still held. */
export async function extendLeases(
  db: Kysely<Database>,
  dialect: DialectAdapter,
  leases: readonly Lease[],
  leaseMs: number,
): Promise<Set<string>> {
  if (leases.length === 0) return new Set();
  // A row matches only with its own current token: a lease another worker took has another one.
  let held = db
    .selectFrom("jobs")
    .select("id")
    .where(
      "id",
      "in",
      leases.map((lease) => lease.id),
    )
    .where("lease_token", "in", [...new Set(leases.map((lease) => lease.leaseToken))]);
  // On PostgreSQL a row another transaction has locked (a webhook being deleted, say) is left
  // for the next beat rather than waited for: a heartbeat never waits, so it never deadlocks.
  if (dialect.capabilities.skipLocked) held = held.forUpdate().skipLocked();
  const rows = await db
    .updateTable("jobs")
    .set({ locked_until: Date.now() + leaseMs })
    .where(dialect.idIn(held))
    .returning("id")
    .execute();
  return new Set(rows.map((row) => row.id));
}

/** The plain claim: up to `limit` due, unleased jobs of a queue, oldest due first, under a new lease. */
import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { DialectAdapter } from "../dialect/dialect.js";
import type { Database } from "../schema.js";
import { claimedInOrder } from "./claimed-job.js";
import type { ClaimedJob, ClaimOptions } from "./contract.js";

export async function claimDue(
  db: Kysely<Database>,
  dialect: DialectAdapter,
  options: ClaimOptions,
): Promise<ClaimedJob[]> {
  const { queue, limit, leaseMs, now = Date.now(), excludeGroups = [], onlyGroups } = options;
  let due = db
    .selectFrom("jobs")
    .select("id")
    .where("queue", "=", queue)
    .where("state", "=", "queued")
    .where("run_at", "<=", now)
    .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now)]))
    .orderBy("run_at")
    .orderBy("id")
    .limit(limit);
  if (excludeGroups.length > 0) {
    due = due.where((eb) =>
      eb.or([eb("group_key", "is", null), eb("group_key", "not in", [...excludeGroups])]),
    );
  }
  if (onlyGroups) due = due.where("group_key", "in", onlyGroups.length > 0 ? [...onlyGroups] : [null]);
  if (dialect.capabilities.skipLocked) due = due.forUpdate().skipLocked();
  const rows = await db
    .updateTable("jobs")
    .set({ lease_token: randomUUID(), locked_until: now + leaseMs, attempts: sql`attempts + 1` })
    .where(dialect.idIn(due))
    .returningAll()
    .execute();
  return claimedInOrder(rows);
}

/**
 * The hand-off: the next due job of a finished job's group leased in the statement that ends the
 * finished one, so the group's place passes on without a claim.
 */
import { randomUUID } from "node:crypto";
import { type Compilable, type Expression, type SqlBool, sql } from "kysely";
import type { DialectCapabilities } from "../dialect/capabilities.js";
import { prepared } from "../prepared.js";
import type { JobsTable } from "../schema.js";
import { preparedReturning, type ReturningWrite } from "../write.js";
import type { ClaimedJob } from "./contract.js";

/**
 * `id` is the one id `subquery` selects (it has `limit 1`), as `id = (…)`: one primary-key lookup
 * in any plan. SQLite builds a temporary table for `in (…)`, and PostgreSQL estimates
 * `= any(array(…))` at ten ids, so a plan kept for reuse (store/prepared.ts) could scan tables.
 */
const idIsFirst = (subquery: Expression<unknown>) => sql<SqlBool>`id = (${subquery})`;

type Take = {
  queue: string;
  group: string | null;
  now: number;
  id: string;
  token: string;
  lockedUntil: number;
};

/** The statement, with row locks that other claimers skip or without. */
const takeNextStatement = (skipLocked: boolean) =>
  prepared((creator, take: Take) => {
    let next = creator
      .selectFrom("jobs")
      .select("id")
      .where("queue", "=", take.queue)
      .where("group_key", "=", take.group)
      .where("state", "=", "queued")
      .where("run_at", "<=", take.now)
      .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", take.now)]))
      .where("id", "!=", take.id)
      .orderBy("run_at")
      .orderBy("id")
      // In the text, not a parameter: a plan made for any limit could sort the group's backlog.
      .limit(sql.lit(1));
    if (skipLocked) {
      // The finished job's row is locked first (a one-time filter, always true), so the hand-off
      // waits for it holding nothing: taking the next job first could deadlock with a webhook's
      // delete waiting for it.
      next = next
        .where(
          sql<SqlBool>`(select count(*) from (select from jobs as finished where finished.id = ${take.id} for update) as locked) >= 0`,
        )
        .forUpdate()
        .skipLocked();
    }
    return creator
      .updateTable("jobs")
      .set({ lease_token: take.token, locked_until: take.lockedUntil, attempts: sql`attempts + 1` })
      .where(idIsFirst(next))
      .returningAll() as unknown as Compilable<JobsTable>;
  });

const lockingTakeNext = takeNextStatement(true);
const plainTakeNext = takeNextStatement(false);

/** The write that leases the next due job of `lease`'s group; its row, if any, is the job. */
export function takeNextWrite(
  capabilities: DialectCapabilities,
  lease: ClaimedJob,
  leaseMs: number,
  now = Date.now(),
): ReturningWrite<JobsTable> {
  return preparedReturning(capabilities.skipLocked ? lockingTakeNext : plainTakeNext, {
    queue: lease.queue,
    group: lease.groupKey,
    now,
    id: lease.id,
    token: randomUUID(),
    lockedUntil: now + leaseMs,
  });
}

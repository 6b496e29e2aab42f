/** When a queue's next job is due: for a claimer that sleeps until then. */
import { type SqlBool, sql } from "kysely";
import type { StoreConnection } from "../dialect/dialect.js";
import { prepared } from "../prepared.js";

/**
 * The earliest due time of a queue's free jobs and the earliest end of its leases: two
 * subqueries, each the first entry of an index (jobs_due_in_order read in order past the leased
 * jobs, jobs_leased), so that asking costs the same with a backlog of a million as with none. Its
 * plan does not depend on the queue. Exported for the plan tests (test/store/jobs-plans.test.ts).
 */
export const nextDue = prepared(
  (creator, ask: { queue: string }) =>
    creator.selectNoFrom((eb) => [
      // A free job is asked for as `coalesce(locked_until, 0) = 0`, of which PostgreSQL keeps no
      // statistics, so every plan reads the due jobs in order to the first free one, whatever
      // the statistics say of the leased jobs.
      eb
        .selectFrom("jobs")
        .select("run_at")
        .where("queue", "=", ask.queue)
        .where(sql<SqlBool>`state = 'queued' and coalesce(locked_until, 0) = 0`)
        .orderBy("run_at")
        .limit(sql.lit(1))
        .as("free"),
      // Only a queued job holds a lease (every end of one clears it), so the state is not asked
      // for: with it, a kept plan could read the leases from the due jobs' index, a whole
      // backlog of them, instead of from jobs_leased.
      eb
        .selectFrom("jobs")
        .select("locked_until")
        .where("queue", "=", ask.queue)
        .where("locked_until", "is not", null)
        .orderBy("locked_until")
        .limit(sql.lit(1))
        .as("leased"),
    ]),
  { reusePlan: true },
);

/** What `nextDue` reads: the first due time of the free jobs and the first end of a lease. */
export interface NextDueRow {
  readonly free: unknown;
  readonly leased: unknown;
}

/** The earlier of a `nextDue` row's times, or null if it has neither. */
export function earliestOf(row: NextDueRow | undefined): number | null {
  const times = [row?.free, row?.leased].filter((time) => time !== null && time !== undefined).map(Number);
  return times.length === 0 ? null : Math.min(...times);
}

/** The earliest due time of `queue`'s waiting jobs, or null if none. */
export async function nextRunAt(store: StoreConnection, queue: string): Promise<number | null> {
  // A leased job is due again only when its lease expires, so it counts at its lease's end.
  const [row] = await nextDue.execute(store, { queue });
  return earliestOf(row);
}

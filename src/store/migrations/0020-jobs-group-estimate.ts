/**
 * On PostgreSQL, the planner is told that `jobs.group_key` has about one distinct value for every
 * two rows (a group is a webhook or a workflow; `n_distinct = -0.5`), whatever ANALYZE counts.
 *
 * The hand-off to a group's next job (store/jobs/take-next.ts) runs with a plan kept for
 * every group. After ANALYZE saw a backlog of one webhook (its jobs nearly every row, so two or
 * three distinct groups in all), that plan guessed half the due jobs were of any group asked
 * for, and read the due jobs in order filtering for the group, instead of the group's own jobs
 * (`jobs_group_due`): a healthy webhook's every delivery read the other's whole backlog, 6 to
 * 7 ms of the database's time each with 20,000 waiting (bench/RESULTS.md). With the estimate
 * fixed, a group is a few rows, and the group's index is the plan. The setting is read by the
 * table's next ANALYZE (autovacuum's, where it runs); until then nothing changes. SQLite keeps no
 * such statistics: nothing to do there.
 */
import { type Kysely, PostgresAdapter, sql } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table jobs alter column group_key set (n_distinct = -0.5)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table jobs alter column group_key reset (n_distinct)`.execute(db);
}

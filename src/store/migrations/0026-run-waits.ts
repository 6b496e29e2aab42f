/**
 * Runs that wait (issue 45): `$.flow.delay`, `$.flow.suspend` and `$.flow.rerun` leave a run's row
 * `paused` or `suspended` with its job due at `resume_at`. `wait_seq` numbers the run's waits, so a
 * resume or cancel URL (bound to one wait) works once; `job_id` is the job a resume makes due now.
 */
import type { Kysely } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  // One column a statement: SQLite adds no more at once.
  await db.schema
    .alterTable("workflow_runs")
    .addColumn("wait_seq", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("workflow_runs").addColumn("resume_at", "bigint").execute();
  await db.schema.alterTable("workflow_runs").addColumn("job_id", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("workflow_runs").dropColumn("job_id").execute();
  await db.schema.alterTable("workflow_runs").dropColumn("resume_at").execute();
  await db.schema.alterTable("workflow_runs").dropColumn("wait_seq").execute();
}

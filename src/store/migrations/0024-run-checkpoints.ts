/**
 * Steps are checkpoints (issue 45): a run's row says which step it goes on from (`next_step`),
 * so an attempt that was interrupted, or a retry, starts there; `holder` is the lease token of the
 * attempt that may write the run, so an attempt that lost its lease cannot overwrite the one
 * that took the run over.
 */
import type { Kysely } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  // One column a statement: SQLite adds no more at once.
  await db.schema
    .alterTable("workflow_runs")
    .addColumn("next_step", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable("workflow_runs").addColumn("holder", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("workflow_runs").dropColumn("holder").execute();
  await db.schema.alterTable("workflow_runs").dropColumn("next_step").execute();
}

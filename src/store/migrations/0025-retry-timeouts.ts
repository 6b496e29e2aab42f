/**
 * A workflow's `retry_timeouts` (issue 45): as Pipedream's auto-retry, a run that failed by a
 * time-out or by running out of memory is retried only when its workflow asks.
 */
import type { Kysely } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("workflows")
    .addColumn("retry_timeouts", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("workflows").dropColumn("retry_timeouts").execute();
}

/**
 * Bulk replays (issue 45): a row per bulk replay of a workflow's runs, which its pacer (a job of
 * the `workflow_replay` queue) advances batch by batch: the runs it covers (a filter, and no run
 * newer than `upto_id`), how far it got (`cursor`), and its replays still queued or running
 * (`in_flight`). Deleted with its workflow.
 */
import type { Kysely } from "kysely";
import { ownedBy } from "./columns.js";
import { createAccountOwnedTable } from "./tables.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await createAccountOwnedTable(db, "workflow_replays")
    .addColumn("workflow_id", "text", ownedBy("workflows.id"))
    // JSON: { statuses, failed_step, since, until }.
    .addColumn("filter", "text", (col) => col.notNull())
    .addColumn("upto_id", "text", (col) => col.notNull())
    .addColumn("from_failed_step", "integer", (col) => col.notNull())
    .addColumn("max_in_flight", "integer", (col) => col.notNull())
    .addColumn("total", "integer", (col) => col.notNull())
    .addColumn("queued", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("skipped", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("cursor", "text")
    // JSON: the ids of its replays queued or running when the pacer last looked.
    .addColumn("in_flight", "text", (col) => col.notNull().defaultTo("[]"))
    // Bumped by each step of the pacer, which writes only over the revision it read.
    .addColumn("revision", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("finished_at", "bigint")
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("workflow_replays").execute();
}

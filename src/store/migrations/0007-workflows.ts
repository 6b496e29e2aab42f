/**
 * Workflows (`p_…`) and their runs (`wr_…`). A workflow is also an emitter: its events live in
 * the events table under its id, sequenced by the counters on its row, as a source's are.
 */
import type { Kysely } from "kysely";
import { createdAndUpdated, lastEventCursor } from "./columns.js";
import { createIndex } from "./indexes.js";
import { createAccountOwnedTable, createIdKeyedTable, dropTables } from "./tables.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await createAccountOwnedTable(db, "workflows")
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("active", "integer", (col) => col.notNull())
    // JSON: the normalized document (steps pinned to saved components, secret values sealed).
    .addColumn("document", "text", (col) => col.notNull())
    .addColumn("trigger_type", "text", (col) => col.notNull())
    .addColumn("endpoint_id", "text", (col) => col.unique())
    // The source whose events run the workflow (trigger source or uses); owned when the workflow made it.
    .addColumn("trigger_source_id", "text")
    .addColumn("owns_trigger_source", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("concurrency", "integer", (col) => col.notNull())
    .addColumn("retries", "integer", (col) => col.notNull())
    .addColumn("timeout_seconds", "integer", (col) => col.notNull())
    // The compiled evaluator of the steps' {{ expressions }}, or null when there are none.
    .addColumn("expressions_bundle", "text")
    .addColumn("expressions_hash", "text")
    .addColumn("max_events", "integer", (col) => col.notNull())
    .$call(lastEventCursor)
    .addColumn("event_count", "integer", (col) => col.notNull().defaultTo(0))
    .$call(createdAndUpdated)
    .addUniqueConstraint("workflows_account_name", ["account_id", "name"])
    .execute();

  await createIdKeyedTable(db, "workflow_runs")
    .addColumn("workflow_id", "text", (col) => col.notNull())
    .addColumn("account_id", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    // JSON: { event, context }.
    .addColumn("trigger", "text", (col) => col.notNull())
    // JSON: the step records of the latest attempt.
    .addColumn("steps", "text", (col) => col.notNull())
    .addColumn("error", "text")
    .addColumn("exit", "text")
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("replay_of", "text")
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("started_at", "bigint")
    .addColumn("finished_at", "bigint")
    .execute();
  await createIndex(db, "workflow_runs_workflow", "workflow_runs", ["workflow_id", "id"]);
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ["workflow_runs", "workflows"]);
}

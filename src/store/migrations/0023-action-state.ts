/**
 * `$.service.db` in actions (issue 45): the key-value state of a workflow's step, and of an action
 * run on its own (`POST /v1/actions/run`), which keeps one per account and component key. Each
 * goes with what owns it: deleting the workflow or the account deletes its state.
 */
import type { Kysely } from "kysely";
import { ownedBy } from "./columns.js";
import { dropTables } from "./tables.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("workflow_step_state")
    .addColumn("workflow_id", "text", ownedBy("workflows.id"))
    .addColumn("step", "text", (col) => col.notNull())
    .addColumn("key", "text", (col) => col.notNull())
    // JSON of the value.
    .addColumn("value", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("workflow_step_state_pk", ["workflow_id", "step", "key"])
    .execute();
  await db.schema
    .createTable("action_state")
    .addColumn("account_id", "text", ownedBy("accounts.id"))
    .addColumn("component_key", "text", (col) => col.notNull())
    .addColumn("key", "text", (col) => col.notNull())
    // JSON of the value.
    .addColumn("value", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("action_state_pk", ["account_id", "component_key", "key"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ["action_state", "workflow_step_state"]);
}

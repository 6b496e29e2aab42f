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
  await createStateTable(db, "workflow_step_state", ["workflow_id", "workflows.id"], "step");
  await createStateTable(db, "action_state", ["account_id", "accounts.id"], "component_key");
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ["action_state", "workflow_step_state"]);
}

/** A row per owner, scope and key, with the value's JSON; deleted with its owner. */
async function createStateTable<DB>(db: Kysely<DB>, table: string, owner: [string, string], scope: string) {
  const [column, reference] = owner;
  await db.schema
    .createTable(table)
    .addColumn(column, "text", ownedBy(reference))
    .addColumn(scope, "text", (col) => col.notNull())
    .addColumn("key", "text", (col) => col.notNull())
    // JSON of the value.
    .addColumn("value", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint(`${table}_pk`, [column, scope, "key"])
    .execute();
}

/** Accounts, API keys, webhooks, the jobs table and installation metadata. */
import type { Kysely } from "kysely";
import { createdAndUpdated, createdUsedRevoked } from "./columns.js";
import { createIndex } from "./indexes.js";
import { createAccountOwnedTable, createIdKeyedTable, dropTables } from "./tables.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await createIdKeyedTable(db, "accounts")
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("is_admin", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .execute();

  await createAccountOwnedTable(db, "api_keys")
    .addColumn("key_hash", "text", (col) => col.notNull().unique())
    .addColumn("key_prefix", "text", (col) => col.notNull())
    .addColumn("name", "text")
    .$call(createdUsedRevoked)
    .execute();
  await createIndex(db, "api_keys_account", "api_keys", ["account_id"]);

  await createAccountOwnedTable(db, "webhooks")
    .addColumn("url", "text", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("active", "integer", (col) => col.notNull().defaultTo(1))
    .addColumn("signing_secret", "text", (col) => col.notNull())
    .$call(createdAndUpdated)
    .execute();
  await createIndex(db, "webhooks_account_id", "webhooks", ["account_id", "id"]);

  await createIdKeyedTable(db, "jobs")
    .addColumn("queue", "text", (col) => col.notNull())
    .addColumn("unique_key", "text", (col) => col.unique())
    .addColumn("payload", "text", (col) => col.notNull())
    .addColumn("state", "text", (col) => col.notNull().defaultTo("queued"))
    .addColumn("run_at", "bigint", (col) => col.notNull())
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("lease_token", "text")
    .addColumn("locked_until", "bigint")
    .addColumn("last_error", "text")
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .execute();
  await createIndex(db, "jobs_due", "jobs", ["queue", "state", "run_at"]);

  await db.schema
    .createTable("meta")
    .addColumn("key", "text", (col) => col.primaryKey())
    .addColumn("value", "text", (col) => col.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ["meta", "jobs", "webhooks", "api_keys", "accounts"]);
}

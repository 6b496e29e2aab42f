/** Data stores (`ds_…`): account-level key-value stores that `data_store` props share. */
import type { Kysely } from "kysely";
import { ownedBy } from "./columns.js";
import { createAccountOwnedTable, dropTables } from "./tables.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await createAccountOwnedTable(db, "data_stores")
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addUniqueConstraint("data_stores_account_name", ["account_id", "name"])
    .execute();
  await db.schema
    .createTable("data_store_records")
    .addColumn("store_id", "text", ownedBy("data_stores.id"))
    .addColumn("key", "text", (col) => col.notNull())
    // JSON of the value.
    .addColumn("value", "text", (col) => col.notNull())
    // Epoch ms after which the record is gone; null: it does not expire.
    .addColumn("expires_at", "bigint")
    .addColumn("updated_at", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("data_store_records_pk", ["store_id", "key"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ["data_store_records", "data_stores"]);
}

/**
 * How the migrations start and drop tables that many of them have alike. Shipped migrations call
 * these, so what one emits never changes.
 */
import type { Kysely } from "kysely";
import { ownedBy } from "./columns.js";

/** Starts a table whose primary key is `id`, a prefixed, time-ordered id (store/row-ids.ts). */
export function createIdKeyedTable<DB>(db: Kysely<DB>, table: string) {
  return db.schema.createTable(table).addColumn("id", "text", (col) => col.primaryKey());
}

/**
 * Starts the table of a resource an account owns: `id`, the primary key, then `account_id`, the
 * account, whose deletion deletes the row. The caller adds the table's own columns after these.
 */
export function createAccountOwnedTable<DB>(db: Kysely<DB>, table: string) {
  return createIdKeyedTable(db, table).addColumn("account_id", "text", ownedBy("accounts.id"));
}

/** Drops the tables one by one in the order given: a table before those it references. */
export async function dropTables<DB>(db: Kysely<DB>, tables: string[]): Promise<void> {
  for (const table of tables) {
    await db.schema.dropTable(table).execute();
  }
}

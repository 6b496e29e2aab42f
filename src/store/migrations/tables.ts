/** Table steps that many migrations share. */
import type { Kysely } from "kysely";
import { idAndAccount } from "./columns.js";

/**
 * Starts the table of a kind of resource an account owns: `id`, its primary key, and `account_id`
 * (columns.ts), then the caller's own columns.
 */
export function createAccountOwnedTable<DB>(db: Kysely<DB>, table: string) {
  return db.schema.createTable(table).$call(idAndAccount);
}

/** Drops the tables one by one in the order given: a table before those it references. */
export async function dropTables<DB>(db: Kysely<DB>, tables: string[]): Promise<void> {
  for (const table of tables) {
    await db.schema.dropTable(table).execute();
  }
}

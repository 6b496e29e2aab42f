/**
 * Imports of Pipedream-layout packages run as jobs: the request that starts one returns at once,
 * and the import's progress (each component published, skipped or failed) is kept here, so any
 * node can answer for it and a client can follow a long import without holding a request open.
 */
import type { Kysely } from "kysely";
import { createIndex } from "./indexes.js";
import { createAccountOwnedTable } from "./tables.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await createAccountOwnedTable(db, "registry_imports")
    .addColumn("registry", "text", (col) => col.notNull())
    .addColumn("source", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("total", "integer", (col) => col.notNull())
    .addColumn("report", "text", (col) => col.notNull())
    .addColumn("error", "text")
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("heartbeat_at", "bigint", (col) => col.notNull())
    .addColumn("finished_at", "bigint")
    .execute();
  await createIndex(db, "registry_imports_account", "registry_imports", ["account_id", "id"]);
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("registry_imports").execute();
}

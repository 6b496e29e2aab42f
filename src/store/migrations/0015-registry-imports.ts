/**
 * Imports of Pipedream-layout packages run as jobs: the request that starts one returns at once,
 * and the import's progress (each component published, skipped or failed) is kept here, so any
 * node can answer for it and a client can follow a long import without holding a request open.
 */
import type { Kysely } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("registry_imports")
    .addColumn("id", "text", (col) => col.primaryKey())
    .addColumn("account_id", "text", (col) => col.notNull().references("accounts.id").onDelete("cascade"))
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
  await db.schema
    .createIndex("registry_imports_account")
    .on("registry_imports")
    .columns(["account_id", "id"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("registry_imports").execute();
}

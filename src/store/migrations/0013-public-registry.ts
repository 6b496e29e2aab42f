/**
 * The server's public registry: a saved component of its publisher's account listed under a
 * key and version that every account can find and deploy. The key names one publisher's
 * component for good; versions only go up; a deprecated version stays for the sources using it.
 */
import type { Kysely } from "kysely";
import { ownedBy } from "./columns.js";
import { createIndex } from "./indexes.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("public_components")
    .addColumn("key", "text", (col) => col.notNull())
    .addColumn("version", "text", (col) => col.notNull())
    .addColumn("account_id", "text", ownedBy("accounts.id"))
    .addColumn("component_id", "text", (col) => col.notNull().references("components.id"))
    .addColumn("app", "text", (col) => col.notNull())
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("description", "text", (col) => col.notNull())
    .addColumn("published_at", "bigint", (col) => col.notNull())
    .addColumn("deprecated_at", "bigint")
    .addPrimaryKeyConstraint("public_components_pk", ["key", "version"])
    .execute();
  await createIndex(db, "public_components_app", "public_components", ["app"]);
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("public_components").execute();
}

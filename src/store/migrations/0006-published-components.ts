/** Published components: a saved component listed under its key and version in its account. */
import type { Kysely } from "kysely";
import { ownedBy } from "./columns.js";
import { createIndex } from "./indexes.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("published_components")
    .addColumn("account_id", "text", ownedBy("accounts.id"))
    .addColumn("key", "text", (col) => col.notNull())
    .addColumn("version", "text", (col) => col.notNull())
    .addColumn("component_id", "text", (col) => col.notNull().references("components.id"))
    .addColumn("published_at", "bigint", (col) => col.notNull())
    // One component per key and version: publishing other code under a taken version is a conflict.
    .addPrimaryKeyConstraint("published_components_pk", ["account_id", "key", "version"])
    .execute();
  await createIndex(db, "published_components_component", "published_components", [
    "account_id",
    "component_id",
  ]);
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("published_components").execute();
}

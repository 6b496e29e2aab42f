/**
 * Limits held across nodes (store/jobs/, core/delivery/rate-slots.ts): an index of the jobs in
 * flight per queue, which a claim counts per group against the group's cap, and one row per
 * rate-limited key (a webhook) holding the time of its next free send.
 */
import type { Kysely } from "kysely";
import { createIndex } from "./indexes.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await createIndex(db, "jobs_leased", "jobs", ["queue", "locked_until"]);
  await db.schema
    .createTable("rate_slots")
    .addColumn("key", "text", (column) => column.primaryKey())
    .addColumn("next_at", "bigint", (column) => column.notNull())
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("rate_slots").execute();
  await db.schema.dropIndex("jobs_leased").execute();
}

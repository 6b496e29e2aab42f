/** Saved components, deployed sources, their events, logs and key-value state. */
import type { Kysely } from "kysely";
import { createdAndUpdated, emitterSequenceKey, lastEventCursor } from "./columns.js";
import { createIndex } from "./indexes.js";
import { createAccountOwnedTable, dropTables } from "./tables.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await createAccountOwnedTable(db, "components")
    .addColumn("key", "text")
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("version", "text")
    .addColumn("type", "text", (col) => col.notNull())
    .addColumn("description", "text")
    .addColumn("code", "text", (col) => col.notNull())
    .addColumn("code_hash", "text", (col) => col.notNull())
    .addColumn("bundle", "text", (col) => col.notNull())
    .addColumn("bundle_hash", "text", (col) => col.notNull())
    .addColumn("lock", "text", (col) => col.notNull())
    .addColumn("definition", "text", (col) => col.notNull())
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .execute();
  await createIndex(db, "components_account_key", "components", ["account_id", "key"]);
  await createIndex(db, "components_account_hash", "components", ["account_id", "code_hash"]);

  await createAccountOwnedTable(db, "sources")
    .addColumn("component_id", "text", (col) => col.notNull().references("components.id"))
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("name_slug", "text", (col) => col.notNull())
    .addColumn("configured_props", "text", (col) => col.notNull())
    .addColumn("active", "integer", (col) => col.notNull().defaultTo(1))
    .addColumn("endpoint_id", "text", (col) => col.unique())
    .addColumn("timeout_seconds", "integer", (col) => col.notNull())
    .addColumn("max_events", "integer", (col) => col.notNull())
    .addColumn("dedupe_state", "text")
    .$call(lastEventCursor)
    .addColumn("last_log_ms", "bigint", (col) => col.notNull().defaultTo(0))
    .addColumn("last_log_seq", "integer", (col) => col.notNull().defaultTo(0))
    .$call(createdAndUpdated)
    .addUniqueConstraint("sources_account_slug", ["account_id", "name_slug"])
    .execute();

  await db.schema
    .createTable("events")
    .$call(emitterSequenceKey)
    .addColumn("account_id", "text", (col) => col.notNull())
    .addColumn("channel", "text")
    .addColumn("event_key", "text")
    .addColumn("summary", "text")
    .addColumn("payload", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("events_pk", ["emitter_id", "ms", "seq"])
    .execute();

  await db.schema
    .createTable("emitter_logs")
    .$call(emitterSequenceKey)
    .addColumn("invocation_id", "text", (col) => col.notNull())
    .addColumn("level", "text", (col) => col.notNull())
    .addColumn("message", "text", (col) => col.notNull())
    .addColumn("ts", "bigint", (col) => col.notNull())
    .addPrimaryKeyConstraint("emitter_logs_pk", ["emitter_id", "ms", "seq"])
    .execute();

  await db.schema
    .createTable("kv")
    .addColumn("emitter_id", "text", (col) => col.notNull())
    .addColumn("key", "text", (col) => col.notNull())
    .addColumn("value", "text", (col) => col.notNull())
    .addPrimaryKeyConstraint("kv_pk", ["emitter_id", "key"])
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, ["kv", "emitter_logs", "events", "sources", "components"]);
}

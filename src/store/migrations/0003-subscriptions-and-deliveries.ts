/** Subscriptions (emitter → webhook), deliveries with their attempts, webhook delivery state, job groups. */
import type { Kysely } from "kysely";
import { createdAndUpdated } from "./columns.js";
import { createIndex } from "./indexes.js";
import { createAccountOwnedTable, createIdKeyedTable, dropTables } from "./tables.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await createAccountOwnedTable(db, "subscriptions")
    .addColumn("emitter_id", "text", (col) => col.notNull())
    .addColumn("listener_id", "text", (col) => col.notNull())
    .addColumn("event_name", "text", (col) => col.notNull().defaultTo(""))
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addUniqueConstraint("subscriptions_unique", ["emitter_id", "listener_id", "event_name"])
    .execute();
  await createIndex(db, "subscriptions_listener", "subscriptions", ["listener_id"]);
  await createIndex(db, "subscriptions_account", "subscriptions", ["account_id", "id"]);

  await db.schema.alterTable("webhooks").addColumn("rate_limit", "integer").execute();
  await db.schema.alterTable("webhooks").addColumn("previous_secret", "text").execute();
  await db.schema.alterTable("webhooks").addColumn("previous_secret_expires_at", "bigint").execute();
  await db.schema.alterTable("webhooks").addColumn("disabled_reason", "text").execute();
  await db.schema.alterTable("webhooks").addColumn("failing_since", "bigint").execute();

  await createIdKeyedTable(db, "deliveries")
    .addColumn("account_id", "text", (col) => col.notNull())
    .addColumn("webhook_id", "text", (col) => col.notNull())
    .addColumn("emitter_id", "text", (col) => col.notNull())
    .addColumn("event_id", "text", (col) => col.notNull())
    .addColumn("channel", "text")
    .addColumn("payload", "text", (col) => col.notNull())
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("attempts", "integer", (col) => col.notNull().defaultTo(0))
    .addColumn("last_status_code", "integer")
    .addColumn("last_error", "text")
    .addColumn("last_latency_ms", "integer")
    .addColumn("next_attempt_at", "bigint")
    .$call(createdAndUpdated)
    .execute();
  await createIndex(db, "deliveries_webhook", "deliveries", ["webhook_id", "id"]);
  await createIndex(db, "deliveries_status", "deliveries", ["status", "created_at"]);

  await db.schema
    .createTable("delivery_attempts")
    .addColumn("delivery_id", "text", (col) => col.notNull())
    .addColumn("attempt", "integer", (col) => col.notNull())
    .addColumn("at", "bigint", (col) => col.notNull())
    .addColumn("status_code", "integer")
    .addColumn("latency_ms", "integer", (col) => col.notNull())
    .addColumn("error", "text")
    .addColumn("response_body", "text")
    .addPrimaryKeyConstraint("delivery_attempts_pk", ["delivery_id", "attempt"])
    .execute();

  // A job may belong to a group (a webhook): claimers can leave out the groups they are busy with.
  await db.schema.alterTable("jobs").addColumn("group_key", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("jobs").dropColumn("group_key").execute();
  await dropTables(db, ["delivery_attempts", "deliveries"]);
  for (const column of [
    "failing_since",
    "disabled_reason",
    "previous_secret_expires_at",
    "previous_secret",
    "rate_limit",
  ]) {
    await db.schema.alterTable("webhooks").dropColumn(column).execute();
  }
  await db.schema.dropTable("subscriptions").execute();
}

/**
 * Columns that many tables share: groups added in the order those tables have always had them, and
 * the owning foreign key. Shipped migrations call these, so what one emits never changes: another
 * shape is another helper.
 */
import type { ColumnBuilderCallback, CreateTableBuilder } from "kysely";

/** A column naming a row of another table (`"table.column"`): deleting that row deletes this one. */
export function ownedBy(reference: string): ColumnBuilderCallback {
  return (col) => col.notNull().references(reference).onDelete("cascade");
}

/** `created_at` and `updated_at`, epoch milliseconds. */
export function createdAndUpdated<TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) {
  return table
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("updated_at", "bigint", (col) => col.notNull());
}

/** `created_at` and `expires_at`, epoch milliseconds: a session or token that ends at a set time. */
export function createdAndExpires<TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) {
  return table
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("expires_at", "bigint", (col) => col.notNull());
}

/** `last_event_ms` and `last_event_seq`, 0 at first: the id of the emitter's last event, which the next follows. */
export function lastEventCursor<TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) {
  return table
    .addColumn("last_event_ms", "bigint", (col) => col.notNull().defaultTo(0))
    .addColumn("last_event_seq", "integer", (col) => col.notNull().defaultTo(0));
}

/** The id of a row an emitter appended (an event, a log line): `emitter_id`, `ms` and `seq`. */
export function emitterSequenceKey<TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) {
  return table
    .addColumn("emitter_id", "text", (col) => col.notNull())
    .addColumn("ms", "bigint", (col) => col.notNull())
    .addColumn("seq", "integer", (col) => col.notNull());
}

/** A credential's `created_at`, then `last_used_at` and `revoked_at`, null until it is used or revoked. */
export function createdUsedRevoked<TB extends string, C extends string>(table: CreateTableBuilder<TB, C>) {
  return table
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addColumn("last_used_at", "bigint")
    .addColumn("revoked_at", "bigint");
}

/** Each source counts its stored events and log lines, so retention trims only when over the limit. */
import { type Kysely, sql } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable("sources")
    .addColumn("event_count", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable("sources")
    .addColumn("log_count", "integer", (col) => col.notNull().defaultTo(0))
    .execute();
  await sql`update sources set
    event_count = (select count(*) from events where events.emitter_id = sources.id),
    log_count = (select count(*) from emitter_logs where emitter_logs.emitter_id = sources.id)`.execute(db);
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sources").dropColumn("log_count").execute();
  await db.schema.alterTable("sources").dropColumn("event_count").execute();
}

/**
 * An OAuth connection started from the connect link page carries the hash of the connect token
 * that started it: the callback spends that token when it connects the account, as the keys form
 * does, so one token connects one account whichever way.
 */
import type { Kysely } from "kysely";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("oauth_connections").addColumn("connect_token_hash", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("oauth_connections").dropColumn("connect_token_hash").execute();
}

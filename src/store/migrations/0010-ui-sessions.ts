/**
 * Web UI sessions: signing in with an API key opens a session whose token lives only in an
 * httpOnly cookie. The row keeps the key it came from, so revoking the key ends the session.
 * Numbered 0010 to leave 0008/0009 to migrations being written in parallel.
 */
import type { Kysely } from "kysely";
import { createdAndExpires, ownedBy } from "./columns.js";
import { createIndex } from "./indexes.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("ui_sessions")
    // SHA-256 of the cookie's token: a leaked database does not leak live sessions.
    .addColumn("token_hash", "text", (col) => col.primaryKey())
    .addColumn("api_key_id", "text", ownedBy("api_keys.id"))
    .$call(createdAndExpires)
    .execute();
  await createIndex(db, "ui_sessions_api_key", "ui_sessions", ["api_key_id"]);
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("ui_sessions").execute();
}

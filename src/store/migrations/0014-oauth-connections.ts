/**
 * OAuth connections (`oac_…`): one attempt to connect an account of an OAuth app, from the start
 * (its `state`, kept as a hash, and its PKCE verifier, sealed) to the callback's outcome. A state
 * is used once and expires.
 */
import type { Kysely } from "kysely";
import { createdAndUpdated } from "./columns.js";
import { createAccountOwnedTable } from "./tables.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await createAccountOwnedTable(db, "oauth_connections")
    .addColumn("app", "text", (col) => col.notNull())
    .addColumn("name", "text")
    // Sealed JSON of the app's custom fields given at the start.
    .addColumn("fields", "text", (col) => col.notNull())
    // SHA-256 of the state: the database never holds a usable state.
    .addColumn("state_hash", "text", (col) => col.notNull().unique())
    // The PKCE verifier, sealed; null when the app does not use PKCE.
    .addColumn("code_verifier", "text")
    .addColumn("redirect_uri", "text", (col) => col.notNull())
    .addColumn("opener_origin", "text", (col) => col.notNull())
    // On start: the connected account to reconnect (null: a new one). On success: the one connected.
    .addColumn("connected_account_id", "text")
    // pending → exchanging → connected | failed
    .addColumn("status", "text", (col) => col.notNull())
    .addColumn("error", "text")
    .addColumn("expires_at", "bigint", (col) => col.notNull())
    .$call(createdAndUpdated)
    .execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable("oauth_connections").execute();
}

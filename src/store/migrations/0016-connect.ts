/**
 * Pipedream Connect: projects (`proj_…`) of an account, their end users (one internal account per
 * project, environment and external user id, so every resource of an end user is isolated the way
 * accounts are), OAuth clients for the client-credentials grant with their short-lived access
 * tokens, and connect tokens (`ctok_…`) for one end user's browser. Secrets and tokens are stored
 * only as SHA-256 hashes. (After 0015, written in parallel.)
 */
import type { Kysely } from "kysely";
import { createdAndExpires, createdAndUpdated, createdUsedRevoked, ownedBy } from "./columns.js";
import { createIndex } from "./indexes.js";
import { createAccountOwnedTable, dropTables } from "./tables.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await createAccountOwnedTable(db, "connect_projects")
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("app_name", "text")
    .addColumn("support_email", "text")
    .$call(createdAndUpdated)
    .execute();
  await createIndex(db, "connect_projects_account", "connect_projects", ["account_id", "id"]);

  await db.schema
    .createTable("connect_end_users")
    // The end user's own internal account: its connected accounts, triggers and webhooks live there.
    .addColumn("account_id", "text", (col) => col.primaryKey().references("accounts.id").onDelete("cascade"))
    .addColumn("project_id", "text", ownedBy("connect_projects.id"))
    .addColumn("environment", "text", (col) => col.notNull())
    .addColumn("external_user_id", "text", (col) => col.notNull())
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .addUniqueConstraint("connect_end_users_external", ["project_id", "environment", "external_user_id"])
    .execute();

  await createAccountOwnedTable(db, "oauth_clients")
    .addColumn("name", "text")
    .addColumn("secret_hash", "text", (col) => col.notNull())
    .$call(createdUsedRevoked)
    .execute();
  await createIndex(db, "oauth_clients_account", "oauth_clients", ["account_id", "id"]);

  await db.schema
    .createTable("oauth_access_tokens")
    .addColumn("token_hash", "text", (col) => col.primaryKey())
    .addColumn("client_id", "text", ownedBy("oauth_clients.id"))
    .$call(createdAndExpires)
    .execute();
  await createIndex(db, "oauth_access_tokens_client", "oauth_access_tokens", ["client_id"]);

  await db.schema
    .createTable("connect_tokens")
    .addColumn("token_hash", "text", (col) => col.primaryKey())
    .addColumn("end_user_account_id", "text", ownedBy("connect_end_users.account_id"))
    // JSON: the origins a browser may use it from; null for any.
    .addColumn("allowed_origins", "text")
    .addColumn("success_redirect_uri", "text")
    .addColumn("error_redirect_uri", "text")
    .$call(createdAndExpires)
    // Set once the token connected an account: it is spent.
    .addColumn("used_at", "bigint")
    .execute();
  await createIndex(db, "connect_tokens_end_user", "connect_tokens", ["end_user_account_id"]);
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await dropTables(db, [
    "connect_tokens",
    "oauth_access_tokens",
    "oauth_clients",
    "connect_end_users",
    "connect_projects",
  ]);
}

/**
 * Apps (the auth half of an app: its type, keys fields or OAuth settings), connected accounts
 * (`apn_…`, credentials sealed under the master key) and dynamic props (`dyp_…`, the props a
 * component's additionalProps produced for one configuration).
 */
import type { Kysely } from "kysely";
import { createdAndUpdated } from "./columns.js";
import { createIndex } from "./indexes.js";
import { createAccountOwnedTable, dropTables } from "./tables.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable("apps")
    // "" for an app registered for the whole server, else the account that registered it.
    .addColumn("owner", "text", (col) => col.notNull())
    .addColumn("slug", "text", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("auth_type", "text", (col) => col.notNull())
    // JSON: keys fields, or the OAuth settings without the client secret.
    .addColumn("definition", "text", (col) => col.notNull())
    // The OAuth client secret, sealed; null for other apps.
    .addColumn("client_secret", "text")
    .$call(createdAndUpdated)
    .addPrimaryKeyConstraint("apps_pk", ["owner", "slug"])
    .execute();

  await createAccountOwnedTable(db, "connected_accounts")
    .addColumn("app", "text", (col) => col.notNull())
    .addColumn("name", "text", (col) => col.notNull())
    .addColumn("auth_type", "text", (col) => col.notNull())
    // JSON of the $auth fields (and OAuth tokens), sealed under the master key.
    .addColumn("credentials", "text", (col) => col.notNull())
    .addColumn("healthy", "integer", (col) => col.notNull())
    .addColumn("error", "text")
    .addColumn("expires_at", "bigint")
    .addColumn("last_refreshed_at", "bigint")
    .$call(createdAndUpdated)
    .execute();
  await createIndex(db, "connected_accounts_account_app", "connected_accounts", ["account_id", "app"]);

  await createAccountOwnedTable(db, "dynamic_props")
    .addColumn("component_id", "text", (col) => col.notNull())
    // JSON: the props additionalProps returned (PropDefinition[]).
    .addColumn("props", "text", (col) => col.notNull())
    .addColumn("created_at", "bigint", (col) => col.notNull())
    .execute();
  // A source deployed with dynamic props keeps them (JSON: PropDefinition[]), merged over its component's.
  await db.schema.alterTable("sources").addColumn("dynamic_props", "text").execute();
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable("sources").dropColumn("dynamic_props").execute();
  await dropTables(db, ["dynamic_props", "connected_accounts", "apps"]);
}

/**
 * Connected accounts (`apn_…`, Pipedream's id): one account's credentials for one app. The
 * credentials are sealed with the master key at rest; no view, log line or error carries them.
 * An account reaches only its own connected accounts (another's is not found). A connected
 * account that a source or workflow uses cannot be deleted unless forced.
 */
// Kysely here, not in the store: owns connected_accounts; sources and workflows are read to see who uses one.
import type { Selectable } from "kysely";
import type { ConnectedAccountsTable } from "../../store/schema.js";
import type { CoreContext } from "../context.js";
import { ConflictError, InvalidInputError } from "../errors.js";
import { newId } from "../ids.js";
import { ownedRow } from "../owned-rows.js";
import { type Page, type PageRequest, readQueryPage } from "../pagination.js";
import { optionalText } from "../validation.js";
import { type AppDefinition, checkFields, checkSlug } from "./app-definition.js";
import { resolveApp } from "./app-registry.js";

const MAX_NAME_LENGTH = 200;
const CONNECTED_ACCOUNTS = { table: "connected_accounts", name: "connected account", prefix: "apn" } as const;

export interface ConnectedAccount {
  readonly id: string;
  readonly accountId: string;
  readonly app: string;
  readonly name: string;
  readonly authType: string;
  readonly healthy: boolean;
  readonly error: string | null;
  readonly expiresAt: number | null;
  readonly lastRefreshedAt: number | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface ConnectedAccountInput {
  readonly app?: unknown;
  readonly name?: unknown;
  readonly fields?: unknown;
}

/** A connected account as core uses it, from its row (the credentials stay sealed, out of it). */
export function toConnectedAccount(row: Selectable<ConnectedAccountsTable>): ConnectedAccount {
  return {
    id: row.id,
    accountId: row.account_id,
    app: row.app,
    name: row.name,
    authType: row.auth_type,
    healthy: row.healthy === 1,
    error: row.error,
    expiresAt: row.expires_at === null ? null : Number(row.expires_at),
    lastRefreshedAt: row.last_refreshed_at === null ? null : Number(row.last_refreshed_at),
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

export async function createConnectedAccount(
  context: CoreContext,
  accountId: string,
  input: ConnectedAccountInput,
): Promise<ConnectedAccount> {
  const slug = checkSlug(input.app, "app");
  const app = await resolveApp(context.store.db, accountId, slug);
  if (app.authType === "oauth") {
    throw new InvalidInputError(
      `app '${slug}' is an OAuth app: connect it with POST /v1/connected_accounts/oauth (sluice connections connect --app ${slug})`,
      "oauth_app",
    );
  }
  const fields = checkFields(app, input.fields);
  const name = optionalText(input.name, "name", MAX_NAME_LENGTH)?.trim() || app.name;
  const id = await insertConnectedAccount(context, accountId, { app, name, fields });
  return getConnectedAccount(context, accountId, id);
}

/**
 * Stores a new, healthy connected account of a keys (or no-auth) app, its checked fields sealed;
 * answers its id.
 */
export async function insertConnectedAccount(
  context: CoreContext,
  accountId: string,
  account: { app: AppDefinition; name: string; fields: Record<string, unknown> },
): Promise<string> {
  const now = Date.now();
  const id = newId("apn");
  await context.store.db
    .insertInto("connected_accounts")
    .values({
      id,
      account_id: accountId,
      app: account.app.slug,
      name: account.name,
      auth_type: account.app.authType,
      credentials: context.secrets.encrypt(JSON.stringify(account.fields)),
      healthy: 1,
      error: null,
      expires_at: null,
      last_refreshed_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return id;
}

export async function getConnectedAccount(
  context: CoreContext,
  accountId: string,
  id: string,
): Promise<ConnectedAccount> {
  const row = await ownedRow(context.store.db, CONNECTED_ACCOUNTS, accountId, id);
  return toConnectedAccount(row);
}

export function listConnectedAccounts(
  context: CoreContext,
  accountId: string,
  request: PageRequest & { app?: string },
): Promise<Page<ConnectedAccount>> {
  const app = request.app === undefined ? undefined : checkSlug(request.app, "app");
  let owned = context.store.db
    .selectFrom("connected_accounts")
    .selectAll()
    .where("account_id", "=", accountId);
  if (app !== undefined) owned = owned.where("app", "=", app);
  return readQueryPage(request, owned, toConnectedAccount);
}

export interface ConnectedAccountUpdate {
  readonly name?: unknown;
  readonly fields?: unknown;
}

/**
 * Renames a connected account and/or replaces a keys account's credentials ("reconnect" it):
 * the new fields are checked against the app as on create, sealed, and replace the old ones
 * entirely; the account is healthy again. An OAuth account is reconnected through its OAuth flow
 * (`POST /v1/connected_accounts/oauth` with `connected_account_id`), not with fields.
 */
export async function updateConnectedAccount(
  context: CoreContext,
  accountId: string,
  id: string,
  input: ConnectedAccountUpdate,
): Promise<ConnectedAccount> {
  const current = await getConnectedAccount(context, accountId, id);
  if (input.name === undefined && input.fields === undefined) {
    throw new InvalidInputError("name or fields is required: the new name, or the app's fields to replace");
  }
  const changes: { name?: string; credentials?: string; healthy?: number; error?: null } = {};
  if (input.name !== undefined) {
    const name = optionalText(input.name, "name", MAX_NAME_LENGTH)?.trim();
    if (!name) throw new InvalidInputError("name must be a non-empty string");
    changes.name = name;
  }
  if (input.fields !== undefined) {
    const app = await resolveApp(context.store.db, accountId, current.app);
    if (current.authType === "oauth" || app.authType === "oauth") {
      throw new InvalidInputError(
        `connected account ${current.id} is an OAuth account: reconnect it with POST /v1/connected_accounts/oauth and connected_account_id`,
        "oauth_app",
      );
    }
    const fields = checkFields(app, input.fields);
    changes.credentials = context.secrets.encrypt(JSON.stringify(fields));
    changes.healthy = 1;
    changes.error = null;
  }
  await context.store.db
    .updateTable("connected_accounts")
    .set({ ...changes, updated_at: Date.now() })
    .where("id", "=", current.id)
    .execute();
  return getConnectedAccount(context, accountId, id);
}

/** The sources and workflows of the account whose configured props name the connected account. */
export async function usersOf(context: CoreContext, accountId: string, id: string): Promise<string[]> {
  const pattern = `%"${id}"%`;
  // Where each keeps its configured props: a source's column, a workflow's document.
  const holders = [
    ["sources", "configured_props"],
    ["workflows", "document"],
  ] as const;
  const ids: string[] = [];
  for (const [table, column] of holders) {
    const rows = await context.store.db
      .selectFrom(table)
      .select("id")
      .where("account_id", "=", accountId)
      .where(column, "like", pattern)
      .execute();
    ids.push(...rows.map((row) => row.id));
  }
  return ids;
}

export async function deleteConnectedAccount(
  context: CoreContext,
  accountId: string,
  id: string,
  force: boolean,
): Promise<string> {
  const account = await getConnectedAccount(context, accountId, id);
  if (!force) {
    const users = await usersOf(context, accountId, account.id);
    if (users.length > 0) {
      throw new ConflictError(
        "connected_account_in_use",
        `Connected account ${account.id} is used by ${users.join(", ")}; change their app prop first, or delete with force=true`,
      );
    }
  }
  await context.store.db.deleteFrom("connected_accounts").where("id", "=", account.id).execute();
  return account.id;
}

/** The unsealed `$auth` of a connected account of the account (404 when it is not one of its own). */
export async function credentialsOf(
  context: CoreContext,
  accountId: string,
  id: string,
): Promise<{ account: ConnectedAccount; auth: Record<string, unknown> }> {
  const row = await ownedRow(context.store.db, CONNECTED_ACCOUNTS, accountId, id);
  const auth = JSON.parse(context.secrets.decrypt(row.credentials)) as Record<string, unknown>;
  return { account: toConnectedAccount(row), auth };
}

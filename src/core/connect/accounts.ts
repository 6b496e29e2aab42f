/**
 * Connected accounts in Pipedream Connect's shape: each belongs to an end user of a project's
 * environment (it lives in the end user's account), and shows the end user's `external_id` and
 * its `app`. The project owner's app registrations apply (fields checked, names shown).
 * Credentials are in a response only when a server-side caller asks (`include_credentials`).
 */
// Kysely here, not in the store: plain reads of connected_accounts, scoped to a project's end users.
import { type AppDefinition, checkFields, checkSlug } from "../apps/app-definition.js";
import { resolveApp } from "../apps/app-registry.js";
import {
  type ConnectedAccount,
  credentialsOf,
  deleteConnectedAccount,
  getConnectedAccount,
  insertConnectedAccount,
  toConnectedAccount,
} from "../apps/connected-accounts.js";
import type { CoreContext } from "../context.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { looksLikeId } from "../ids.js";
import { type Page, type PageRequest, readQueryPage } from "../pagination.js";
import { optionalText } from "../validation.js";
import type { EndUser, Environment } from "./end-users.js";
import type { Project } from "./projects.js";

const MAX_NAME_LENGTH = 200;

/** A connected account of an end user, with its app as the project owner sees it. */
export interface EndUserAccount {
  readonly account: ConnectedAccount;
  readonly externalId: string;
  readonly app: AppDefinition;
  /** Only when a server-side caller asked for them. */
  readonly credentials?: Record<string, unknown>;
}

/** The accounts with their apps, each app resolved once as the project owner sees it. */
async function viewsOf(
  context: CoreContext,
  ownerAccountId: string,
  accounts: readonly ConnectedAccount[],
  externalIds: ReadonlyMap<string, string>,
  withCredentials: boolean,
): Promise<EndUserAccount[]> {
  const apps = new Map<string, AppDefinition>();
  const views: EndUserAccount[] = [];
  for (const account of accounts) {
    let app = apps.get(account.app);
    if (app === undefined) {
      app = await resolveApp(context.store.db, ownerAccountId, account.app);
      apps.set(account.app, app);
    }
    const credentials = withCredentials
      ? (await credentialsOf(context, account.accountId, account.id)).auth
      : undefined;
    const externalId = externalIds.get(account.accountId) ?? "";
    views.push({ account, externalId, app, ...(credentials === undefined ? {} : { credentials }) });
  }
  return views;
}

export interface AccountListRequest extends PageRequest {
  readonly app?: string;
}

/** The connected accounts of one end user, or of every end user of the environment. */
export async function listConnectAccounts(
  context: CoreContext,
  project: Project,
  environment: Environment,
  endUser: EndUser | null,
  request: AccountListRequest,
  withCredentials: boolean,
): Promise<{ items: EndUserAccount[]; pageInfo: Page<unknown>["pageInfo"] }> {
  const app = request.app === undefined || request.app === "" ? undefined : checkSlug(request.app, "app");
  let scoped = context.store.db
    .selectFrom("connected_accounts")
    .innerJoin("connect_end_users", "connect_end_users.account_id", "connected_accounts.account_id")
    .selectAll("connected_accounts")
    .select("connect_end_users.external_user_id")
    .where("connect_end_users.project_id", "=", project.id)
    .where("connect_end_users.environment", "=", environment);
  if (endUser !== null) scoped = scoped.where("connected_accounts.account_id", "=", endUser.accountId);
  if (app !== undefined) scoped = scoped.where("connected_accounts.app", "=", app);
  const externalIds = new Map<string, string>();
  const page = await readQueryPage(
    request,
    scoped,
    (row) => {
      externalIds.set(row.account_id, row.external_user_id);
      return toConnectedAccount(row);
    },
    "connected_accounts.id",
  );
  return {
    items: await viewsOf(context, project.accountId, page.items, externalIds, withCredentials),
    pageInfo: page.pageInfo,
  };
}

/**
 * A connected account of an end user of the environment (of `endUser` alone when given). Any
 * other id, another environment's or project's included, is not found.
 */
export async function findConnectAccount(
  context: CoreContext,
  project: Project,
  environment: Environment,
  endUser: EndUser | null,
  id: string,
): Promise<{ account: ConnectedAccount; externalId: string }> {
  const row = looksLikeId(id, "apn")
    ? await context.store.db
        .selectFrom("connected_accounts")
        .innerJoin("connect_end_users", "connect_end_users.account_id", "connected_accounts.account_id")
        .selectAll("connected_accounts")
        .select("connect_end_users.external_user_id")
        .where("connected_accounts.id", "=", id)
        .where("connect_end_users.project_id", "=", project.id)
        .where("connect_end_users.environment", "=", environment)
        .executeTakeFirst()
    : undefined;
  if (!row || (endUser !== null && row.account_id !== endUser.accountId)) {
    throw new NotFoundError("account", id);
  }
  return { account: toConnectedAccount(row), externalId: row.external_user_id };
}

export async function getConnectAccount(
  context: CoreContext,
  project: Project,
  environment: Environment,
  endUser: EndUser | null,
  id: string,
  withCredentials: boolean,
): Promise<EndUserAccount> {
  const { account, externalId } = await findConnectAccount(context, project, environment, endUser, id);
  const [view] = await viewsOf(
    context,
    project.accountId,
    [account],
    new Map([[account.accountId, externalId]]),
    withCredentials,
  );
  if (!view) throw new NotFoundError("account", id);
  return view;
}

/** Deletes the account, as Pipedream does, even when a deployed trigger uses it (its runs then fail). */
export async function deleteConnectAccount(
  context: CoreContext,
  project: Project,
  environment: Environment,
  endUser: EndUser | null,
  id: string,
): Promise<void> {
  const { account } = await findConnectAccount(context, project, environment, endUser, id);
  await deleteConnectedAccount(context, account.accountId, account.id, true);
}

export interface KeysAccountInput {
  readonly app_slug?: unknown;
  /** Pipedream's name: a JSON string of the app's fields. */
  readonly cfmap_json?: unknown;
  readonly name?: unknown;
  /** An existing account of the same end user and app to reconnect: its credentials are replaced. */
  readonly account_id?: unknown;
}

/**
 * Connects a keys (or no-auth) app for the end user: the fields are checked against the app as
 * the project owner registered it, then sealed. With `account_id`, reconnects that account.
 */
export async function connectKeysAccount(
  context: CoreContext,
  project: Project,
  endUser: EndUser,
  input: KeysAccountInput,
): Promise<EndUserAccount> {
  const slug = checkSlug(input.app_slug, "app_slug");
  const app = await resolveApp(context.store.db, project.accountId, slug);
  if (app.authType === "oauth") {
    throw new InvalidInputError(
      `app '${slug}' connects with OAuth: open the connect link page, which runs its authorization flow`,
      "oauth_app",
    );
  }
  let parsed: unknown = {};
  if (input.cfmap_json !== undefined && input.cfmap_json !== null && input.cfmap_json !== "") {
    if (typeof input.cfmap_json !== "string") {
      throw new InvalidInputError("cfmap_json must be a JSON string of the app's fields", "invalid_fields");
    }
    try {
      parsed = JSON.parse(input.cfmap_json);
    } catch {
      throw new InvalidInputError("cfmap_json is not valid JSON", "invalid_fields");
    }
  }
  const fields = checkFields(app, parsed);
  const name = optionalText(input.name, "name", MAX_NAME_LENGTH)?.trim() || app.name;
  let id: string;
  if (input.account_id !== undefined && input.account_id !== null && input.account_id !== "") {
    const existing = await getConnectedAccount(context, endUser.accountId, String(input.account_id));
    if (existing.app !== slug) {
      throw new InvalidInputError(
        `account ${existing.id} is for app '${existing.app}', not '${slug}'`,
        "invalid_app",
      );
    }
    id = existing.id;
    const credentials = context.secrets.encrypt(JSON.stringify(fields));
    await context.store.db
      .updateTable("connected_accounts")
      .set({ credentials, healthy: 1, error: null, updated_at: Date.now() })
      .where("id", "=", id)
      .execute();
  } else {
    id = await insertConnectedAccount(context, endUser.accountId, { app, name, fields });
  }
  return getConnectAccount(context, project, endUser.environment, endUser, id, false);
}

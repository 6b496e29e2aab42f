/**
 * Registered apps: an admin registers apps for the whole server, an account its own. An account's
 * own registration of a slug takes precedence over the server's; a slug nobody registers is an
 * open keys app (see app-definition.ts). Registering a slug again replaces its definition.
 */
// Kysely here, not in the store: reads and writes only its own table (apps).
import type { AppsTable, Executor } from "../../store/schema.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { type AppDefinition, type AppField, checkSlug, implicitApp } from "./app-definition.js";
import { type OAuthSettings, storedOAuthSettings } from "./oauth-settings.js";

/** The `owner` of a server-wide app. */
const SERVER = "";

export function ownerOf(app: AppDefinition, accountId: string): string {
  return app.scope === "server" ? SERVER : accountId;
}

/**
 * Registers (or replaces) an app. `sealedClientSecret`: the OAuth client secret already sealed, null
 * to remove it, undefined to keep the one registered. Returns the app as registered.
 */
export async function registerApp(
  db: Executor,
  accountId: string,
  app: AppDefinition,
  sealedClientSecret?: string | null,
): Promise<AppDefinition> {
  const now = Date.now();
  const definition = JSON.stringify({
    fields: app.fields,
    ...(app.oauth ? { oauth: storedOAuthSettings(app.oauth) } : {}),
  });
  const secret = app.authType === "oauth" ? sealedClientSecret : null;
  await db
    .insertInto("apps")
    .values({
      owner: ownerOf(app, accountId),
      slug: app.slug,
      name: app.name,
      auth_type: app.authType,
      definition,
      client_secret: secret ?? null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) =>
      conflict.columns(["owner", "slug"]).doUpdateSet({
        name: app.name,
        auth_type: app.authType,
        definition,
        ...(secret === undefined ? {} : { client_secret: secret }),
        updated_at: now,
      }),
    )
    .execute();
  const row = await db
    .selectFrom("apps")
    .select(["owner", "slug", "name", "auth_type", "definition", "client_secret"])
    .where("owner", "=", ownerOf(app, accountId))
    .where("slug", "=", app.slug)
    .executeTakeFirstOrThrow();
  return toApp(row);
}

/** The columns an app is read from. */
type AppRow = Omit<AppsTable, "created_at" | "updated_at">;

const APP_COLUMNS = ["owner", "slug", "name", "auth_type", "definition", "client_secret"] as const;

function toApp(row: AppRow): AppDefinition {
  const parsed = JSON.parse(row.definition) as {
    fields?: AppField[] | null;
    oauth?: Omit<OAuthSettings, "hasClientSecret">;
  };
  const authType = row.auth_type === "none" || row.auth_type === "oauth" ? row.auth_type : "keys";
  return {
    slug: row.slug,
    name: row.name,
    authType,
    fields: parsed.fields ?? [],
    oauth:
      authType === "oauth" && parsed.oauth
        ? { ...parsed.oauth, hasClientSecret: row.client_secret !== null }
        : null,
    scope: row.owner === SERVER ? "server" : "account",
  };
}

/**
 * The row an account sees under a slug: its own, else the server's. A Connect end user's account
 * registers no apps: it sees those of its project's owner, so its OAuth connections and refreshes
 * use the owner's client.
 */
async function visibleRow(db: Executor, accountId: string, slug: string): Promise<AppRow | undefined> {
  const rows = await db
    .selectFrom("apps")
    .select(APP_COLUMNS)
    .where("slug", "=", slug)
    .where((eb) =>
      eb.or([
        eb("owner", "in", [SERVER, accountId]),
        eb(
          "owner",
          "in",
          eb
            .selectFrom("connect_end_users")
            .innerJoin("connect_projects", "connect_projects.id", "connect_end_users.project_id")
            .select("connect_projects.account_id")
            .where("connect_end_users.account_id", "=", accountId),
        ),
      ]),
    )
    .execute();
  return rows.find((candidate) => candidate.owner !== SERVER) ?? rows[0];
}

/**
 * The OAuth app an account sees under a slug, with its client secret still sealed (null for a
 * public client). Throws when the slug is not a registered oauth app.
 */
export async function resolveOAuthApp(
  db: Executor,
  accountId: string,
  slug: string,
): Promise<{ app: AppDefinition & { oauth: OAuthSettings }; sealedClientSecret: string | null }> {
  const row = await visibleRow(db, accountId, checkSlug(slug, "app"));
  const app = row ? toApp(row) : implicitApp(slug);
  if (app.authType !== "oauth" || app.oauth === null || !row) {
    throw new InvalidInputError(
      `app '${slug}' is not an OAuth app (its auth_type is "${app.authType}"${app.scope === "implicit" ? ": nobody registered it" : ""}); register it with auth_type "oauth" first`,
      "not_an_oauth_app",
    );
  }
  return { app: { ...app, oauth: app.oauth }, sealedClientSecret: row.client_secret };
}

/** The app an account sees under a slug: its own, else the server's, else an open keys app. */
export async function resolveApp(db: Executor, accountId: string, slug: string): Promise<AppDefinition> {
  const row = await visibleRow(db, accountId, slug);
  return row ? toApp(row) : implicitApp(slug);
}

/** A registered app (404 when neither the account nor the server registered it). */
export async function getRegisteredApp(
  db: Executor,
  accountId: string,
  slug: string,
): Promise<AppDefinition> {
  const app = await resolveApp(db, accountId, checkSlug(slug));
  if (app.scope === "implicit") throw new NotFoundError("registered app", slug);
  return app;
}

/** Every app the account sees: the server's and its own (its own replaces a server app of the same slug). */
export async function listApps(db: Executor, accountId: string): Promise<AppDefinition[]> {
  const rows = await db
    .selectFrom("apps")
    .select(APP_COLUMNS)
    .where("owner", "in", [SERVER, accountId])
    .orderBy("slug")
    .execute();
  const bySlug = new Map<string, AppDefinition>();
  for (const row of rows) {
    if (row.owner === SERVER && bySlug.has(row.slug)) continue;
    bySlug.set(row.slug, toApp(row));
  }
  return [...bySlug.values()];
}

/** Removes the account's own registration of the slug, or (admin, `server`) the server's. */
export async function unregisterApp(
  db: Executor,
  accountId: string,
  slug: string,
  scope: "server" | "account",
): Promise<void> {
  const result = await db
    .deleteFrom("apps")
    .where("owner", "=", scope === "server" ? SERVER : accountId)
    .where("slug", "=", checkSlug(slug))
    .executeTakeFirst();
  if (Number(result.numDeletedRows) === 0) throw new NotFoundError("registered app", slug);
}

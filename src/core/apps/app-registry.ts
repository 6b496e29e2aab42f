/**
 * Registered apps: an admin registers apps for the whole server, an account its own. An account's
 * own registration of a slug takes precedence over the server's; a slug nobody registers is an
 * open keys app (see app-definition.ts). Registering a slug again replaces its definition.
 */
import type { Executor } from "../../store/schema.js";
import { NotFoundError } from "../errors.js";
import { type AppDefinition, type AppField, checkSlug, implicitApp } from "./app-definition.js";

/** The `owner` of a server-wide app. */
const SERVER = "";

export function ownerOf(app: AppDefinition, accountId: string): string {
  return app.scope === "server" ? SERVER : accountId;
}

export async function registerApp(db: Executor, accountId: string, app: AppDefinition): Promise<void> {
  const now = Date.now();
  const definition = JSON.stringify({ fields: app.fields });
  await db
    .insertInto("apps")
    .values({
      owner: ownerOf(app, accountId),
      slug: app.slug,
      name: app.name,
      auth_type: app.authType,
      definition,
      client_secret: null,
      created_at: now,
      updated_at: now,
    })
    .onConflict((conflict) =>
      conflict.columns(["owner", "slug"]).doUpdateSet({
        name: app.name,
        auth_type: app.authType,
        definition,
        updated_at: now,
      }),
    )
    .execute();
}

interface AppRow {
  owner: string;
  slug: string;
  name: string;
  auth_type: string;
  definition: string;
}

function toApp(row: AppRow): AppDefinition {
  const parsed = JSON.parse(row.definition) as { fields?: AppField[] | null };
  return {
    slug: row.slug,
    name: row.name,
    authType: row.auth_type === "none" ? "none" : "keys",
    fields: parsed.fields ?? [],
    scope: row.owner === SERVER ? "server" : "account",
  };
}

/** The app an account sees under a slug: its own, else the server's, else an open keys app. */
export async function resolveApp(db: Executor, accountId: string, slug: string): Promise<AppDefinition> {
  const rows = await db
    .selectFrom("apps")
    .select(["owner", "slug", "name", "auth_type", "definition"])
    .where("slug", "=", slug)
    .where("owner", "in", [SERVER, accountId])
    .execute();
  const row = rows.find((candidate) => candidate.owner === accountId) ?? rows[0];
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
    .select(["owner", "slug", "name", "auth_type", "definition"])
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

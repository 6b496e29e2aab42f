/**
 * Finding components by key across registries: deploy by key (the account's own key first, then
 * the public registry) and search (`q`, `app`, `type` over the private, public or both
 * registries). A public component deployed by another account is copied into that account as a
 * saved component of its own (same code, bundle and lock; nothing is compiled again), so a
 * deploy keeps running whatever its publisher later unpublishes or deprecates.
 */
// Kysely here, not in the store: plain reads of the component tables by key.
import semver from "semver";
import type { ComponentsTable } from "../../store/schema.js";
import type { CoreContext } from "../context.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { newId } from "../ids.js";
import { type Page, type PageRequest, readPage } from "../pagination.js";
import { parseRef, resolvePublished } from "./published.js";
import { findPublic, toPublic } from "./registry.js";
import {
  getComponent,
  SAVED_COMPONENT_COLUMNS,
  type SavedComponent,
  toSavedComponent,
} from "./saved-components.js";

/**
 * The component `ref` (`key` or `key@version`) names for this account: its own first (with
 * `savedKeys`, the newest saved under that key and version, as deploys find them; without, its
 * published key, as action runs find them), else the public registry's (copied into the
 * account). NotFoundError when neither has it.
 */
export async function componentForKey(
  context: CoreContext,
  accountId: string,
  ref: string,
  options: { readonly savedKeys: boolean },
): Promise<SavedComponent> {
  if (ref.startsWith("sc_")) return getComponent(context, accountId, ref);
  const own = await ownComponent(context, accountId, ref, options.savedKeys);
  if (own instanceof NotFoundError) {
    // Its published versions, when it has some, say more than the generic message.
    const published = await findPublic(context, ref);
    if (published === undefined) throw own;
    return adoptComponent(context, accountId, published.componentId);
  }
  if (own !== undefined) return own;
  const published = await findPublic(context, ref);
  if (published === undefined) {
    const error = new NotFoundError("component", ref);
    error.message = `No published component '${ref}' in this account or in the public registry; find one with: sluice search`;
    throw error;
  }
  return adoptComponent(context, accountId, published.componentId);
}

/** With `savedKeys`, the newest component saved under the key (published ones are saved too). */
async function ownComponent(
  context: CoreContext,
  accountId: string,
  ref: string,
  savedKeys: boolean,
): Promise<SavedComponent | NotFoundError | undefined> {
  if (!savedKeys) {
    try {
      return (await resolvePublished(context, accountId, ref)).component;
    } catch (error) {
      if (error instanceof NotFoundError)
        return error.message.includes("published versions") ? error : undefined;
      throw error;
    }
  }
  const { key, version } = parseRef(ref);
  let query = context.store.db
    .selectFrom("components")
    .select(SAVED_COMPONENT_COLUMNS)
    .where("account_id", "=", accountId)
    .where("key", "=", key);
  if (version !== undefined) query = query.where("version", "=", version);
  const row = await query.orderBy("id", "desc").executeTakeFirst();
  return row === undefined ? undefined : toSavedComponent(row);
}

/** The account's copy of a saved component of another account (made once, found again by hash). */
export async function adoptComponent(
  context: CoreContext,
  accountId: string,
  componentId: string,
): Promise<SavedComponent> {
  const original = await context.store.db
    .selectFrom("components")
    .selectAll()
    .where("id", "=", componentId)
    .executeTakeFirstOrThrow();
  if (original.account_id === accountId) return toSavedComponent(original);
  const existing = await context.store.db
    .selectFrom("components")
    .select(SAVED_COMPONENT_COLUMNS)
    .where("account_id", "=", accountId)
    .where("code_hash", "=", original.code_hash)
    .where("bundle_hash", "=", original.bundle_hash)
    .orderBy("id", "desc")
    .executeTakeFirst();
  if (existing !== undefined) return toSavedComponent(existing);
  const copy: ComponentsTable = {
    ...original,
    id: newId("sc"),
    account_id: accountId,
    created_at: Date.now(),
  };
  await context.store.db.insertInto("components").values(copy).execute();
  return toSavedComponent(copy);
}

export type RegistryChoice = "public" | "private" | "all";

export interface ComponentSearch extends PageRequest {
  /** Words to find in the key, name or description (case-insensitive). */
  readonly q?: string;
  /** An app slug: components whose key starts with `<app>-` or that have an app prop of it. */
  readonly app?: string;
  readonly type?: string;
  /** `private`: the account's published components; `public`: the server's registry; `all` (default): both. */
  readonly registry?: string;
}

export interface SearchResult {
  /** The saved component (`sc_…`): the cursor. */
  readonly id: string;
  readonly key: string;
  readonly version: string;
  readonly registry: "public" | "private";
  readonly app: string | null;
  readonly type: "source" | "action";
  readonly name: string;
  readonly description: string | null;
  readonly publishedAt: number;
  readonly deprecated: boolean;
}

/** Matching components, the latest version of each key, newest first; paged by `id`. */
export async function searchComponents(
  context: CoreContext,
  accountId: string,
  search: ComponentSearch,
): Promise<Page<SearchResult>> {
  const registry = search.registry ?? "all";
  if (registry !== "public" && registry !== "private" && registry !== "all") {
    throw new InvalidInputError("registry must be public, private or all", "invalid_registry");
  }
  if (search.type !== undefined && search.type !== "source" && search.type !== "action") {
    throw new InvalidInputError("type must be source or action", "invalid_type");
  }
  const found = [
    ...(registry === "public" ? [] : await privateLatest(context, accountId)),
    ...(registry === "private" ? [] : await publicLatest(context)),
  ].filter((result) => matches(result, search));
  found.sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
  return readPage(search, {
    async rows(cursor, order, limit) {
      const after =
        cursor === null
          ? found
          : found.filter((r) => (cursor.op === "<" ? r.id < cursor.id : r.id > cursor.id));
      return (order === "desc" ? after : [...after].reverse()).slice(0, limit);
    },
    async count() {
      return found.length;
    },
  });
}

async function publicLatest(context: CoreContext): Promise<SearchResult[]> {
  const rows = await context.store.db
    .selectFrom("public_components")
    .selectAll()
    .where("deprecated_at", "is", null)
    .execute();
  return latestByKey(
    rows.map(toPublic).map((row) => ({
      id: row.componentId,
      key: row.key,
      version: row.version,
      registry: "public" as const,
      app: row.app,
      type: row.type,
      name: row.name,
      description: row.description,
      publishedAt: row.publishedAt,
      deprecated: false,
    })),
  );
}

async function privateLatest(context: CoreContext, accountId: string): Promise<SearchResult[]> {
  const rows = await context.store.db
    .selectFrom("published_components")
    .innerJoin("components", "components.id", "published_components.component_id")
    .select([
      "published_components.key",
      "published_components.version",
      "published_components.published_at",
      "components.id",
      "components.type",
      "components.name",
      "components.description",
      "components.definition",
    ])
    .where("published_components.account_id", "=", accountId)
    .execute();
  return latestByKey(
    rows.map((row) => {
      const apps = (JSON.parse(row.definition) as SavedComponent["definition"]).props.flatMap((prop) =>
        prop.type === "app" && prop.app !== undefined ? [prop.app] : [],
      );
      return {
        id: row.id,
        key: row.key,
        version: row.version,
        registry: "private" as const,
        app: apps[0] ?? (row.key.includes("-") ? (row.key.split("-")[0] ?? null) : null),
        type: row.type === "action" ? ("action" as const) : ("source" as const),
        name: row.name,
        description: row.description,
        publishedAt: Number(row.published_at),
        deprecated: false,
      };
    }),
  );
}

/** One result per key: its highest semantic version, else its most recently published. */
function latestByKey(results: readonly SearchResult[]): SearchResult[] {
  const byKey = new Map<string, SearchResult>();
  for (const result of results) {
    const current = byKey.get(result.key);
    if (current === undefined || newer(result, current)) byKey.set(result.key, result);
  }
  return [...byKey.values()];
}

function newer(a: SearchResult, b: SearchResult): boolean {
  const validA = semver.valid(a.version) !== null;
  const validB = semver.valid(b.version) !== null;
  if (validA && validB && a.version !== b.version) return semver.gt(a.version, b.version);
  if (validA !== validB) return validA;
  return a.publishedAt > b.publishedAt;
}

function matches(result: SearchResult, search: ComponentSearch): boolean {
  if (search.type !== undefined && result.type !== search.type) return false;
  if (search.app !== undefined && search.app !== "" && result.app !== search.app) return false;
  const words = (search.q ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const text = `${result.key} ${result.name} ${result.description ?? ""}`.toLowerCase();
  return words.every((word) => text.includes(word));
}

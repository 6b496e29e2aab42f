/**
 * The apps a Connect project offers (`GET /v1/connect/apps`): the apps registered for the server
 * and by the project's account, and the apps its components use (an app nobody registered is an
 * open keys app). Paged by name slug, in Pipedream's `{data, page_info}` shape.
 */
// Kysely here, not in the store: it hands the database to the app registry's reads.
import { type AppDefinition, checkSlug } from "../apps/app-definition.js";
import { listApps, resolveApp } from "../apps/app-registry.js";
import { searchComponents } from "../components/lookup.js";
import type { CoreContext } from "../context.js";
import { InvalidInputError } from "../errors.js";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type PageInfo } from "../pagination.js";

export interface AppListRequest {
  readonly q?: string;
  readonly limit?: number;
  readonly after?: string;
  readonly before?: string;
  readonly sort_direction?: string;
  readonly has_components?: boolean;
  readonly has_actions?: boolean;
  readonly has_triggers?: boolean;
}

/** Which kinds of components use each app slug. */
async function componentKinds(context: CoreContext, accountId: string) {
  const kinds = new Map<string, Set<"source" | "action">>();
  let after: string | undefined;
  for (;;) {
    const page = await searchComponents(context, accountId, {
      limit: MAX_PAGE_SIZE,
      ...(after ? { after } : {}),
    });
    for (const item of page.items) {
      if (item.app === null) continue;
      const set = kinds.get(item.app) ?? new Set();
      set.add(item.type);
      kinds.set(item.app, set);
    }
    if (page.items.length < MAX_PAGE_SIZE || page.pageInfo.end_cursor === null) break;
    after = page.pageInfo.end_cursor;
  }
  return kinds;
}

export async function listConnectApps(
  context: CoreContext,
  accountId: string,
  request: AppListRequest,
): Promise<{ items: AppDefinition[]; pageInfo: PageInfo }> {
  const limit = request.limit ?? DEFAULT_PAGE_SIZE;
  if (request.after !== undefined && request.before !== undefined) {
    throw new InvalidInputError("Pass either after or before, not both");
  }
  const kinds = await componentKinds(context, accountId);
  const bySlug = new Map<string, AppDefinition>();
  for (const app of await listApps(context.store.db, accountId)) bySlug.set(app.slug, app);
  for (const slug of kinds.keys()) {
    if (!bySlug.has(slug)) bySlug.set(slug, await resolveApp(context.store.db, accountId, slug));
  }
  const words = (request.q ?? "").toLowerCase().split(/\s+/).filter(Boolean);
  const matching = [...bySlug.values()].filter((app) => {
    const used = kinds.get(app.slug);
    if (request.has_components && !used) return false;
    if (request.has_actions && !used?.has("action")) return false;
    if (request.has_triggers && !used?.has("source")) return false;
    const text = `${app.slug} ${app.name}`.toLowerCase();
    return words.every((word) => text.includes(word));
  });
  const descending = request.sort_direction === "desc";
  matching.sort((a, b) => (a.slug < b.slug ? -1 : a.slug > b.slug ? 1 : 0) * (descending ? -1 : 1));
  const before = (a: string, b: string) => (descending ? a > b : a < b);
  let items: AppDefinition[];
  if (request.before !== undefined) {
    const cursor = request.before;
    const earlier = matching.filter((app) => before(app.slug, cursor));
    items = earlier.slice(Math.max(0, earlier.length - limit));
  } else {
    const cursor = request.after;
    items = matching.filter((app) => cursor === undefined || before(cursor, app.slug)).slice(0, limit);
  }
  return {
    items,
    pageInfo: {
      total_count: matching.length,
      count: items.length,
      start_cursor: items[0]?.slug ?? null,
      end_cursor: items.at(-1)?.slug ?? null,
    },
  };
}

/** An app by slug: registered, or the open keys app of a slug nobody registered. */
export async function getConnectApp(
  context: CoreContext,
  accountId: string,
  slug: string,
): Promise<AppDefinition> {
  return resolveApp(context.store.db, accountId, checkSlug(slug, "app_id"));
}

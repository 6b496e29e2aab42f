/**
 * Published components: a saved component (an action or a source) listed in its account under its
 * `key` and `version`, as `pd publish` does on Pipedream. Publishing a new version keeps the older
 * ones; a key and version name one component for good, so publishing other code under a taken
 * version is a conflict ("bump the version"). `key` alone means the latest version: the highest
 * semantic version, else the most recently published.
 */
// Kysely here, not in the store: reads and writes only its own table (published_components).
import semver from "semver";
import type { PublishedComponentsTable } from "../../store/schema.js";
import type { CoreContext } from "../context.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.js";
import { type Page, type PageRequest, readQueryPage } from "../pagination.js";
import {
  type ComponentInput,
  getComponent,
  type SavedComponent,
  saveComponent,
  toSavedComponent,
} from "./saved-components.js";

export interface PublishInput extends ComponentInput {
  /** Publish a component already saved (`sc_…`) instead of code. */
  readonly component_id?: unknown;
}

export interface PublishedComponent {
  /** The saved component's `sc_` id (also the list cursor). */
  readonly id: string;
  readonly key: string;
  readonly version: string;
  readonly publishedAt: number;
  readonly component: SavedComponent;
}

/** Keys as Pipedream writes them (`helper_functions-base64-decode-string`): no spaces, `@` or `/`. */
const KEY_PATTERN = /^[A-Za-z0-9][A-Za-z0-9_.-]*$/;
const MAX_KEY_LENGTH = 200;
const MAX_VERSION_LENGTH = 100;

/** Saves the code (or takes a saved component) and publishes it under its key and version. */
export async function publishComponent(
  context: CoreContext,
  accountId: string,
  input: PublishInput,
): Promise<PublishedComponent> {
  const component =
    typeof input.component_id === "string" && input.component_id !== ""
      ? await getComponent(context, accountId, input.component_id)
      : await saveComponent(context, accountId, input);
  const { key, version } = publishableName(component);
  for (let attempt = 0; attempt < 2; attempt++) {
    const existing = await findVersion(context, accountId, key, version);
    if (existing) return sameOrConflict(context, existing, component);
    try {
      const publishedAt = Date.now();
      await context.store.db
        .insertInto("published_components")
        .values({
          account_id: accountId,
          key,
          version,
          component_id: component.id,
          published_at: publishedAt,
        })
        .execute();
      return { id: component.id, key, version, publishedAt, component };
    } catch (error) {
      // Another publish of the same key and version won the race: read it and decide again.
      if (!/unique|duplicate/i.test(String((error as Error).message))) throw error;
    }
  }
  throw new ConflictError("publish_conflict", `${key}@${version} is being published concurrently; try again`);
}

/** Unpublishes every version of a key, or one (`key@version`); returns the versions removed. */
export async function unpublish(context: CoreContext, accountId: string, ref: string): Promise<string[]> {
  const { key, version } = parseRef(ref);
  let rows = context.store.db
    .selectFrom("published_components")
    .select("version")
    .where("account_id", "=", accountId)
    .where("key", "=", key);
  if (version !== undefined) rows = rows.where("version", "=", version);
  const versions = (await rows.execute()).map((row) => row.version);
  if (versions.length === 0) throw notPublished(ref, []);
  let removal = context.store.db
    .deleteFrom("published_components")
    .where("account_id", "=", accountId)
    .where("key", "=", key);
  if (version !== undefined) removal = removal.where("version", "=", version);
  await removal.execute();
  return sortVersions(versions.map((v) => ({ version: v, published_at: 0 }))).map((row) => row.version);
}

/**
 * The published component `ref` names: `key@version`, or `key` for its latest version. Throws
 * NotFoundError, saying how to publish, when there is none.
 */
export async function resolvePublished(
  context: CoreContext,
  accountId: string,
  ref: string,
): Promise<PublishedComponent> {
  const { key, version } = parseRef(ref);
  const versions = await listVersions(context, accountId, key);
  const row = version === undefined ? versions[0] : versions.find((r) => r.version === version);
  if (!row) throw notPublished(ref, versions);
  return loadPublished(context, row);
}

/** Every published version of the key, latest first. */
export async function listVersions(
  context: CoreContext,
  accountId: string,
  key: string,
): Promise<PublishedComponentsTable[]> {
  const rows = await context.store.db
    .selectFrom("published_components")
    .selectAll()
    .where("account_id", "=", accountId)
    .where("key", "=", key)
    .execute();
  return sortVersions(rows);
}

/** The account's published components, every version, newest component first (optionally one key's). */
export function listPublished(
  context: CoreContext,
  accountId: string,
  page: PageRequest & { readonly key?: string },
): Promise<Page<PublishedComponent>> {
  // Every published row has its component (a foreign key), so the join leaves the count as it is.
  let owned = context.store.db
    .selectFrom("published_components")
    .innerJoin("components", "components.id", "published_components.component_id")
    .selectAll("components")
    .select([
      "published_components.key as published_key",
      "published_components.version as published_version",
      "published_components.published_at",
    ])
    .where("published_components.account_id", "=", accountId);
  if (page.key !== undefined && page.key !== "")
    owned = owned.where("published_components.key", "=", page.key);
  return readQueryPage(
    page,
    owned,
    (row) => ({
      id: row.id,
      key: row.published_key,
      version: row.published_version,
      publishedAt: Number(row.published_at),
      component: toSavedComponent(row),
    }),
    "published_components.component_id",
  );
}

/** `key@version` or `key`. */
export function parseRef(ref: string): { key: string; version?: string } {
  const at = ref.lastIndexOf("@");
  if (at > 0) return { key: ref.slice(0, at), version: ref.slice(at + 1) };
  return { key: ref };
}

function publishableName(component: SavedComponent): { key: string; version: string } {
  const { key, version } = component;
  if (key === null || key === "") {
    throw new InvalidInputError(
      `${component.name} has no key: add key: "<app>-<name>" to the component to publish it`,
      "invalid_component",
    );
  }
  if (key.length > MAX_KEY_LENGTH || !KEY_PATTERN.test(key)) {
    throw new InvalidInputError(
      `The key '${key}' cannot be published: use letters, digits, '-', '_' and '.', starting with a letter or digit (at most ${MAX_KEY_LENGTH} characters)`,
      "invalid_component",
    );
  }
  if (version === null || version.trim() === "") {
    throw new InvalidInputError(
      `${key} has no version: add version: "0.0.1" to the component to publish it`,
      "invalid_component",
    );
  }
  if (version.length > MAX_VERSION_LENGTH || /[\s@/]/.test(version)) {
    throw new InvalidInputError(
      `The version '${version}' cannot be published: no spaces, '@' or '/' (at most ${MAX_VERSION_LENGTH} characters)`,
      "invalid_component",
    );
  }
  return { key, version };
}

async function findVersion(
  context: CoreContext,
  accountId: string,
  key: string,
  version: string,
): Promise<PublishedComponentsTable | undefined> {
  return context.store.db
    .selectFrom("published_components")
    .selectAll()
    .where("account_id", "=", accountId)
    .where("key", "=", key)
    .where("version", "=", version)
    .executeTakeFirst();
}

async function sameOrConflict(
  context: CoreContext,
  existing: PublishedComponentsTable,
  component: SavedComponent,
): Promise<PublishedComponent> {
  if (existing.component_id !== component.id) {
    throw new ConflictError(
      "version_exists",
      `${existing.key}@${existing.version} is already published with different code; bump the version (version: "…" in the component) and publish again`,
    );
  }
  return loadPublished(context, existing, component);
}

async function loadPublished(
  context: CoreContext,
  row: PublishedComponentsTable,
  component?: SavedComponent,
): Promise<PublishedComponent> {
  return {
    id: row.component_id,
    key: row.key,
    version: row.version,
    publishedAt: Number(row.published_at),
    component: component ?? (await getComponent(context, row.account_id, row.component_id)),
  };
}

function notPublished(ref: string, versions: readonly { version: string }[]): NotFoundError {
  const error = new NotFoundError("published component", ref);
  error.message =
    versions.length > 0
      ? `No published component '${ref}' in this account; its published versions: ${versions.map((row) => row.version).join(", ")}`
      : `No published component '${ref}' in this account; publish it with: sluice publish FILE`;
  return error;
}

/** Latest first: semantic versions by precedence, above other versions; then the newest published. */
function sortVersions<T extends { version: string; published_at: number }>(rows: readonly T[]): T[] {
  return [...rows].sort((a, b) => {
    const validA = semver.valid(a.version) !== null;
    const validB = semver.valid(b.version) !== null;
    if (validA && validB) {
      const order = semver.rcompare(a.version, b.version);
      if (order !== 0) return order;
    } else if (validA !== validB) {
      return validA ? -1 : 1;
    }
    return Number(b.published_at) - Number(a.published_at);
  });
}

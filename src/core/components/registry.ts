/**
 * The server's public registry, under Pipedream's rules: the key is `<app_slug>-<kebab-name>`, each
 * version semver and greater than the ones before. A key belongs to the account that first
 * published it (or an admin). A deprecated version keeps running where it is deployed (each
 * deploy runs the account's own copy) but is not offered for new deploys.
 */
// Kysely here, not in the store: plain reads and writes of the component tables.
import semver from "semver";
import type { PublicComponentsTable } from "../../store/schema.js";
import type { Account } from "../accounts/accounts.js";
import type { CoreContext } from "../context.js";
import { ConflictError, ForbiddenError, InvalidInputError, NotFoundError } from "../errors.js";
import { type PublishInput, parseRef } from "./published.js";
import { getComponent, type SavedComponent, saveComponent } from "./saved-components.js";

export interface PublicComponent {
  readonly key: string;
  readonly version: string;
  /** The publisher's account. */
  readonly accountId: string;
  /** The publisher's saved component (`sc_…`). */
  readonly componentId: string;
  readonly app: string;
  readonly type: "source" | "action";
  readonly name: string;
  readonly description: string;
  readonly publishedAt: number;
  readonly deprecatedAt: number | null;
}

export interface PublicPublishResult {
  readonly published: PublicComponent;
  /** False when this key and version were already published with the same code (nothing changed). */
  readonly created: boolean;
  readonly component: SavedComponent;
}

/** Pipedream's key rule: an app slug (letters, digits, `_`), a dash, then kebab-case words. */
const PUBLIC_KEY = /^([a-z0-9][a-z0-9_]*)-([a-z0-9]+(?:-[a-z0-9]+)*)$/;
const MAX_KEY_LENGTH = 200;

/** Publishes code (or a saved component) of `account` in the public registry. */
export async function publishPublic(
  context: CoreContext,
  account: Pick<Account, "id" | "isAdmin">,
  input: PublishInput,
): Promise<PublicPublishResult> {
  const component =
    typeof input.component_id === "string" && input.component_id !== ""
      ? await getComponent(context, account.id, input.component_id)
      : await saveComponent(context, account.id, input);
  const rules = checkPublicRules(component);
  const versions = await versionsOf(context, rules.key);
  const same = versions.find((row) => row.version === rules.version);
  if (same !== undefined) {
    if (await sameCode(context, same.component_id, component)) {
      return { published: toPublic(same), created: false, component };
    }
    throw new ConflictError(
      "version_exists",
      `${rules.key}@${rules.version} is already in the public registry with other code; bump the version and publish again`,
    );
  }
  const owner = versions[0]?.account_id;
  if (owner !== undefined && owner !== account.id && !account.isAdmin) {
    throw new ConflictError(
      "key_taken",
      `The key '${rules.key}' belongs to another account in the public registry; choose another key`,
    );
  }
  const highest = versions.map((row) => row.version).sort(semver.rcompare)[0];
  if (highest !== undefined && !semver.gt(rules.version, highest)) {
    throw new ConflictError(
      "version_not_greater",
      `The version ${rules.version} of ${rules.key} must be greater than ${highest}, the highest already published`,
    );
  }
  const row: PublicComponentsTable = {
    key: rules.key,
    version: rules.version,
    account_id: owner ?? account.id,
    component_id: component.id,
    app: rules.app,
    type: component.type,
    name: rules.name,
    description: rules.description,
    published_at: Date.now(),
    deprecated_at: null,
  };
  try {
    await context.store.db.insertInto("public_components").values(row).execute();
  } catch (error) {
    if (!/unique|duplicate/i.test(String((error as Error).message))) throw error;
    throw new ConflictError(
      "publish_conflict",
      `${rules.key}@${rules.version} is being published concurrently; try again`,
    );
  }
  return { published: toPublic(row), created: true, component };
}

/**
 * What each public rule says of the component; throws InvalidInputError with the rule's code
 * (`invalid_key`, `invalid_version`, `missing_name`, `missing_description`) for the first broken.
 * A saved component always has a name (a nameless one is refused as `invalid_component` when it
 * is saved), so `missing_name` is a guard, not a path users reach.
 */
export function checkPublicRules(component: SavedComponent): {
  key: string;
  version: string;
  app: string;
  name: string;
  description: string;
} {
  const key = component.key ?? "";
  const match = PUBLIC_KEY.exec(key);
  if (key.length > MAX_KEY_LENGTH || match === null) {
    throw new InvalidInputError(
      `The key '${key}' cannot be published publicly: a public key is <app_slug>-<kebab-name>, such as helper_functions-base64-decode (lower case, at most ${MAX_KEY_LENGTH} characters)`,
      "invalid_key",
    );
  }
  const app = match[1] ?? "";
  const apps = component.definition.props.flatMap((prop) =>
    prop.type === "app" && prop.app !== undefined ? [prop.app] : [],
  );
  if (apps.length > 0 && !apps.includes(app)) {
    throw new InvalidInputError(
      `The key '${key}' must start with the slug of the component's app: ${apps.map((slug) => `${slug}-…`).join(" or ")}`,
      "invalid_key",
    );
  }
  const version = component.version ?? "";
  if (semver.valid(version) !== version || version === "") {
    throw new InvalidInputError(
      `The version '${version}' of ${key} is not a semantic version (such as 0.0.1): public components need one`,
      "invalid_version",
    );
  }
  if (component.name.trim() === "") {
    throw new InvalidInputError(`${key} has no name: public components need one`, "missing_name");
  }
  const description = component.description?.trim() ?? "";
  if (description === "") {
    throw new InvalidInputError(
      `${key} has no description: public components need one (description: "…")`,
      "missing_description",
    );
  }
  return { key, version, app, name: component.name, description };
}

/** Every version of a public key, latest first. */
export async function versionsOf(context: CoreContext, key: string): Promise<PublicComponentsTable[]> {
  const rows = await context.store.db
    .selectFrom("public_components")
    .selectAll()
    .where("key", "=", key)
    .execute();
  return rows.sort((a, b) => semver.rcompare(a.version, b.version));
}

/**
 * The public component `ref` names for a new deploy: `key@version`, or `key` for its latest
 * version that is not deprecated. Undefined when the registry has no such key or version.
 * Throws InvalidInputError('component_deprecated') for a deprecated version.
 */
export async function findPublic(context: CoreContext, ref: string): Promise<PublicComponent | undefined> {
  const { key, version } = parseRef(ref);
  const rows = await versionsOf(context, key);
  if (version === undefined) {
    const latest = rows.find((row) => row.deprecated_at === null);
    if (latest === undefined && rows.length > 0) throw deprecated(key, rows[0]?.version ?? "", undefined);
    return latest === undefined ? undefined : toPublic(latest);
  }
  const row = rows.find((candidate) => candidate.version === version);
  if (row === undefined) return undefined;
  if (row.deprecated_at !== null) {
    const latest = rows.find((candidate) => candidate.deprecated_at === null);
    throw deprecated(key, version, latest?.version);
  }
  return toPublic(row);
}

/** A public key (latest, deprecated included) or key@version, with every version; 404 when absent. */
export async function readPublic(
  context: CoreContext,
  ref: string,
): Promise<{ published: PublicComponent; versions: PublicComponent[] }> {
  const { key, version } = parseRef(ref);
  const rows = (await versionsOf(context, key)).map(toPublic);
  const published =
    version === undefined
      ? (rows.find((row) => row.deprecatedAt === null) ?? rows[0])
      : rows.find((row) => row.version === version);
  if (published === undefined) throw notInRegistry(ref);
  return { published, versions: rows };
}

/** Unpublishes every version of a key, or one; only its publisher or an admin may. */
export async function unpublishPublic(
  context: CoreContext,
  account: Pick<Account, "id" | "isAdmin">,
  ref: string,
): Promise<{ key: string; versions: string[] }> {
  const { key, versions } = await ownedVersions(context, account, ref);
  await context.store.db
    .deleteFrom("public_components")
    .where("key", "=", key)
    .where("version", "in", versions)
    .execute();
  return { key, versions };
}

/** Deprecates (or, with `deprecated` false, restores) every version of a key, or one. */
export async function deprecatePublic(
  context: CoreContext,
  account: Pick<Account, "id" | "isAdmin">,
  ref: string,
  deprecated: boolean,
): Promise<{ key: string; versions: string[] }> {
  const { key, versions } = await ownedVersions(context, account, ref);
  await context.store.db
    .updateTable("public_components")
    .set({ deprecated_at: deprecated ? Date.now() : null })
    .where("key", "=", key)
    .where("version", "in", versions)
    .execute();
  return { key, versions };
}

async function ownedVersions(
  context: CoreContext,
  account: Pick<Account, "id" | "isAdmin">,
  ref: string,
): Promise<{ key: string; versions: string[] }> {
  const { key, version } = parseRef(ref);
  const rows = (await versionsOf(context, key)).filter(
    (row) => version === undefined || row.version === version,
  );
  if (rows.length === 0) throw notInRegistry(ref);
  if (!account.isAdmin && rows.some((row) => row.account_id !== account.id)) {
    throw new ForbiddenError(
      `Only the account that published ${key}, or an admin, can unpublish or deprecate it`,
      "not_publisher",
    );
  }
  return { key, versions: rows.map((row) => row.version) };
}

async function sameCode(
  context: CoreContext,
  componentId: string,
  component: SavedComponent,
): Promise<boolean> {
  if (componentId === component.id) return true;
  const row = await context.store.db
    .selectFrom("components")
    .select("code_hash")
    .where("id", "=", componentId)
    .executeTakeFirst();
  return row?.code_hash === component.codeHash;
}

export function toPublic(row: PublicComponentsTable): PublicComponent {
  return {
    key: row.key,
    version: row.version,
    accountId: row.account_id,
    componentId: row.component_id,
    app: row.app,
    type: row.type === "action" ? "action" : "source",
    name: row.name,
    description: row.description,
    publishedAt: Number(row.published_at),
    deprecatedAt: row.deprecated_at === null ? null : Number(row.deprecated_at),
  };
}

function notInRegistry(ref: string): NotFoundError {
  const error = new NotFoundError("public component", ref);
  error.message = `No component '${ref}' in the public registry; search it with: sluice search`;
  return error;
}

function deprecated(key: string, version: string, latest: string | undefined): InvalidInputError {
  return new InvalidInputError(
    `${key}@${version} is deprecated and not offered for new deploys` +
      (latest === undefined ? "" : `; deploy ${key}@${latest}, its latest version`),
    "component_deprecated",
  );
}

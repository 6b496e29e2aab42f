/**
 * Saved components (`sc_…`): code compiled into a bundle and described by the sandbox, immutable
 * and content-hashed. Saving the same code twice in an account returns the same component.
 */
// Kysely here, not in the store: reads and writes only its own table (components).
import { createHash } from "node:crypto";
import { CompileError } from "../../runtime/compile/compiler.js";
import type { ComponentDefinition } from "../../runtime/component-definition.js";
import { ComponentLoadError } from "../../runtime/sandbox/sandbox.js";
import type { ComponentsTable } from "../../store/schema.js";
import type { CoreContext } from "../context.js";
import { InvalidInputError, NotFoundError, UnavailableError } from "../errors.js";
import { newId } from "../ids.js";
import { type Page, type PageRequest, readQueryPage } from "../pagination.js";
import { checkDefinition } from "./props.js";

export interface SavedComponent {
  readonly id: string;
  readonly accountId: string;
  readonly key: string | null;
  readonly name: string;
  readonly version: string | null;
  readonly type: "source" | "action";
  readonly description: string | null;
  readonly code: string;
  readonly codeHash: string;
  readonly bundleHash: string;
  readonly lock: Record<string, string>;
  readonly definition: ComponentDefinition;
  readonly createdAt: number;
}

export interface ComponentInput {
  readonly component_code?: unknown;
  readonly component_url?: unknown;
  /** The file name the CLI read the code from (selects TypeScript for .ts). */
  readonly filename?: unknown;
}

/** The code of a save or deploy request: inline, or fetched from component_url. */
export async function codeFromInput(context: CoreContext, input: ComponentInput): Promise<string> {
  if (typeof input.component_code === "string" && input.component_code.trim() !== "")
    return input.component_code;
  if (input.component_code !== undefined && input.component_code !== null) {
    throw new InvalidInputError("component_code must be the component's source code, a non-empty string");
  }
  if (typeof input.component_url === "string" && input.component_url !== "") {
    return context.fetchCode(input.component_url);
  }
  throw new InvalidInputError("Pass component_code (the source code) or component_url (a URL to it)");
}

export async function saveComponent(
  context: CoreContext,
  accountId: string,
  input: ComponentInput,
): Promise<SavedComponent> {
  const code = await codeFromInput(context, input);
  const codeHash = createHash("sha256").update(code).digest("hex");
  const existing = await context.store.db
    .selectFrom("components")
    .select(SAVED_COMPONENT_COLUMNS)
    .where("account_id", "=", accountId)
    .where("code_hash", "=", codeHash)
    .orderBy("id", "desc")
    .executeTakeFirst();
  if (existing) return toSavedComponent(existing);

  const filename = typeof input.filename === "string" ? input.filename : undefined;
  let compiled: Awaited<ReturnType<CoreContext["compiler"]["compile"]>>;
  try {
    compiled = await context.compiler.compile({ code, filename });
  } catch (error) {
    if (error instanceof CompileError) throw new InvalidInputError(error.message, error.code);
    // Not the component's fault: the npm registry or the disk. Say so, rather than a bare 500.
    throw new UnavailableError(
      "compile_unavailable",
      `The component could not be compiled right now: ${(error as Error).message}. Check that the server reaches the npm registry, then try again.`,
    );
  }
  let definition: ComponentDefinition;
  try {
    definition = await context.sandbox.describe({
      componentId: `describe-${compiled.bundleHash.slice(0, 16)}`,
      bundleHash: compiled.bundleHash,
      bundle: compiled.bundle,
    });
  } catch (error) {
    if (error instanceof ComponentLoadError) throw new InvalidInputError(error.message, "invalid_component");
    throw error;
  }
  checkDefinition(definition);

  const component: SavedComponent = {
    id: newId("sc"),
    accountId,
    key: definition.key ?? null,
    name: definition.name,
    version: definition.version ?? null,
    type: definition.type,
    description: definition.description ?? null,
    code,
    codeHash,
    bundleHash: compiled.bundleHash,
    lock: { ...compiled.lock },
    definition,
    createdAt: Date.now(),
  };
  await context.store.db
    .insertInto("components")
    .values({
      id: component.id,
      account_id: accountId,
      key: component.key,
      name: component.name,
      version: component.version,
      type: component.type,
      description: component.description,
      code,
      code_hash: codeHash,
      bundle: compiled.bundle,
      bundle_hash: compiled.bundleHash,
      lock: JSON.stringify(component.lock),
      definition: JSON.stringify(definition),
      created_at: component.createdAt,
    })
    .execute();
  return component;
}

/** The account's component by `sc_` id, or the newest one saved under a key. */
export async function getComponent(
  context: CoreContext,
  accountId: string,
  keyOrId: string,
): Promise<SavedComponent> {
  let query = context.store.db
    .selectFrom("components")
    .select(SAVED_COMPONENT_COLUMNS)
    .where("account_id", "=", accountId);
  query = keyOrId.startsWith("sc_") ? query.where("id", "=", keyOrId) : query.where("key", "=", keyOrId);
  const row = await query.orderBy("id", "desc").executeTakeFirst();
  if (!row) throw new NotFoundError("component", keyOrId);
  return toSavedComponent(row);
}

/** The account's saved components, newest first (without their code, which can be large). */
export function listComponents(
  context: CoreContext,
  accountId: string,
  page: PageRequest,
): Promise<Page<SavedComponent>> {
  const owned = context.store.db
    .selectFrom("components")
    .select(SAVED_COMPONENT_COLUMNS)
    .where("account_id", "=", accountId);
  return readQueryPage(page, owned, toSavedComponent);
}

/** The bundle's code, read when a node must write the artifact it does not have yet. */
export async function loadBundle(context: CoreContext, componentId: string): Promise<string> {
  const row = await context.store.db
    .selectFrom("components")
    .select("bundle")
    .where("id", "=", componentId)
    .executeTakeFirstOrThrow();
  return row.bundle;
}

/**
 * Every column of a saved component but its bundle: the compiled module is read only to send it
 * to a runner that lacks it (`loadBundle`), not with every lookup (a workflow step's, say).
 */
export const SAVED_COMPONENT_COLUMNS = [
  "id",
  "account_id",
  "key",
  "name",
  "version",
  "type",
  "description",
  "code",
  "code_hash",
  "bundle_hash",
  "lock",
  "definition",
  "created_at",
] as const satisfies readonly Exclude<keyof ComponentsTable, "bundle">[];

export function toSavedComponent(row: Omit<ComponentsTable, "bundle">): SavedComponent {
  return {
    id: row.id,
    accountId: row.account_id,
    key: row.key,
    name: row.name,
    version: row.version,
    type: row.type === "action" ? "action" : "source",
    description: row.description,
    code: row.code,
    codeHash: row.code_hash,
    bundleHash: row.bundle_hash,
    lock: JSON.parse(row.lock) as Record<string, string>,
    definition: JSON.parse(row.definition) as ComponentDefinition,
    createdAt: Number(row.created_at),
  };
}

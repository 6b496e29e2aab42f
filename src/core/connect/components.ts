/**
 * The components a Connect project offers: the project owner's published components and the
 * server's public registry (the owner's own key first), in Pipedream's shapes: `component_type`
 * "trigger" or "action", `configurable_props` with the camelCase flags the SDK reads. An end user
 * runs a copy adopted into its own account, so its dynamic props and triggers stay its own.
 */
// Kysely here, not in the store: plain reads of components for Connect's listing.
import type { PropDefinition } from "../../runtime/component-definition.js";
import { adoptComponent, searchComponents } from "../components/lookup.js";
import { resolvePublished } from "../components/published.js";
import { findPublic } from "../components/registry.js";
import { getComponent, type SavedComponent } from "../components/saved-components.js";
import type { CoreContext } from "../context.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { PageInfo, PageRequest } from "../pagination.js";

export type ConnectComponentType = "trigger" | "action";

export interface ComponentListRequest extends PageRequest {
  readonly q?: string;
  readonly app?: string;
  readonly registry?: string;
  readonly component_type?: string;
}

/** A prop as Pipedream's `configurable_props` shows it (what Sluice keeps for diagnostics left out). */
export function configurableProp(prop: PropDefinition): Record<string, unknown> {
  const { extraKeys: _extraKeys, ...shown } = prop;
  return shown;
}

function sluiceType(type: string | undefined): "source" | "action" | undefined {
  if (type === undefined || type === "") return undefined;
  if (type === "trigger" || type === "source") return "source";
  if (type === "action") return "action";
  throw new InvalidInputError("component_type must be trigger or action", "invalid_type");
}

/** The project's components matching the request, newest first, with their props. */
export async function listConnectComponents(
  context: CoreContext,
  ownerAccountId: string,
  request: ComponentListRequest,
  only?: ConnectComponentType,
): Promise<{ items: SavedComponent[]; pageInfo: PageInfo }> {
  const type = only === undefined ? sluiceType(request.component_type) : sluiceType(only);
  const page = await searchComponents(context, ownerAccountId, {
    ...request,
    ...(type === undefined ? {} : { type }),
    registry: request.registry ?? "all",
  });
  const ids = page.items.map((item) => item.id);
  const rows =
    ids.length === 0
      ? []
      : await context.store.db
          .selectFrom("components")
          .select(["id", "account_id"])
          .where("id", "in", ids)
          .execute();
  const owners = new Map(rows.map((row) => [row.id, row.account_id]));
  const items: SavedComponent[] = [];
  for (const item of page.items) {
    const owner = owners.get(item.id);
    if (owner !== undefined) items.push(await getComponent(context, owner, item.id));
  }
  return { items, pageInfo: page.pageInfo };
}

/**
 * The component a key names for the project (the owner's published key first, then the public
 * registry's), at `version` or its latest. NotFoundError when neither has it.
 */
export async function findConnectComponent(
  context: CoreContext,
  ownerAccountId: string,
  key: unknown,
  version?: unknown,
): Promise<SavedComponent> {
  if (typeof key !== "string" || key === "") {
    throw new InvalidInputError("id is required: the component's key, such as slack-send-message");
  }
  if (version !== undefined && version !== null && version !== "" && typeof version !== "string") {
    throw new InvalidInputError("version must be a string, such as 0.0.1");
  }
  const ref = typeof version === "string" && version !== "" ? `${key}@${version}` : key;
  try {
    return (await resolvePublished(context, ownerAccountId, ref)).component;
  } catch (error) {
    if (!(error instanceof NotFoundError)) throw error;
  }
  const published = await findPublic(context, ref);
  if (published === undefined) {
    const error = new NotFoundError("component", ref);
    error.message = `No component '${ref}' in this project's registry (the account's published components and the public registry)`;
    throw error;
  }
  return getComponent(context, published.accountId, published.componentId);
}

/** The end user's own copy of the component (made once, found again by its hash). */
export async function componentForEndUser(
  context: CoreContext,
  ownerAccountId: string,
  endUserAccountId: string,
  key: unknown,
  version?: unknown,
  type?: ConnectComponentType,
): Promise<SavedComponent> {
  const component = await findConnectComponent(context, ownerAccountId, key, version);
  if (type === "action" && component.type !== "action") {
    throw new InvalidInputError(
      `${component.key ?? component.name} is a trigger: deploy it instead`,
      "not_an_action",
    );
  }
  if (type === "trigger" && component.type !== "source") {
    throw new InvalidInputError(
      `${component.key ?? component.name} is an action: run it instead`,
      "not_a_trigger",
    );
  }
  return adoptComponent(context, endUserAccountId, component.id);
}

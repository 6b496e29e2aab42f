/**
 * Deployed sources (`dc_…`) and their lifecycle, in the order of SPEC.md's state table:
 * deploy → activate on deploy; deactivate → replace → activate on update; deactivate on delete
 * or on `active: false`. Hooks run in the sandbox like `run`, and may $emit.
 */
// Kysely here, not in the store: plain reads and writes of its own tables; text search comes from the store.
import { randomBytes } from "node:crypto";
import type { Selectable } from "kysely";
import type { ComponentDefinition, PropDefinition } from "../../runtime/component-definition.js";
import type { SourcesTable } from "../../store/schema.js";
import { containsText } from "../../store/text-match.js";
import { checkAuthRefs } from "../apps/auth-refs.js";
import { ConfigurationError, loadDynamicProps, withDynamicProps } from "../components/dynamic-props.js";
import { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS } from "../components/invocation-limits.js";
import { componentForKey } from "../components/lookup.js";
import { configureProps } from "../components/props.js";
import { getComponent, type SavedComponent, saveComponent } from "../components/saved-components.js";
import type { CoreContext } from "../context.js";
import { resolveDataStoreRefs } from "../data-stores/data-store-props.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.js";
import { removeSubscriptionsOf } from "../fan-out/subscriptions.js";
import { newId } from "../ids.js";
import { type Page, type PageRequest, readPage } from "../pagination.js";
import { uniqueSlug } from "../slug.js";
import { type InvocationReport, invokeSource, loadRunnable, type RunnableSource } from "./invoker.js";
import { forgetRunnables } from "./runnable-cache.js";
import { mergeForUpdate, sealProps, unsealProps } from "./source-props.js";
import { cancelTicks, scheduleOf, scheduleTicks } from "./timers/timers.js";

export const DEFAULT_MAX_EVENTS = 10_000;
export const MAX_MAX_EVENTS = 1_000_000;

export interface SourceInput {
  readonly component_id?: unknown;
  readonly component_code?: unknown;
  readonly component_url?: unknown;
  readonly key?: unknown;
  readonly filename?: unknown;
  readonly name?: unknown;
  readonly configured_props?: unknown;
  readonly active?: unknown;
  readonly timeout_seconds?: unknown;
  readonly max_events?: unknown;
  /** A `dyp_` id from `POST /v1/components/props`: the additional props to deploy with. */
  readonly dynamic_props_id?: unknown;
}

export interface DeployedSource {
  readonly id: string;
  readonly accountId: string;
  readonly componentId: string;
  readonly componentKey: string | null;
  readonly name: string;
  readonly nameSlug: string;
  /** As stored: secret values sealed. */
  readonly storedProps: Record<string, unknown>;
  /** The component's definition, with the dynamic props it was deployed with. */
  readonly definition: ComponentDefinition;
  /** The additional props it was deployed with (`dynamic_props_id`), or null. */
  readonly dynamicProps: readonly PropDefinition[] | null;
  readonly active: boolean;
  readonly endpointId: string | null;
  readonly timeoutSeconds: number;
  readonly maxEvents: number;
  readonly createdAt: number;
  readonly updatedAt: number;
  /** Epoch ms of the newest event it emitted; null before the first. */
  readonly lastEventAt: number | null;
}

export async function deploySource(
  context: CoreContext,
  accountId: string,
  input: SourceInput,
): Promise<DeployedSource> {
  const component = await resolveComponent(context, accountId, input, true);
  if (!component) throw new InvalidInputError("Pass component_id, component_code, component_url or key");
  const additional = await loadDynamicProps(context, accountId, input.dynamic_props_id, component.id);
  const definition = withDynamicProps(checkDeployable(component), additional);
  const values = await resolveDataStoreRefs(
    context,
    accountId,
    definition,
    configureProps(definition, input.configured_props),
  );
  await checkAuthRefs(context, accountId, definition, values);
  const name = optionalName(input.name) ?? component.name;
  const now = Date.now();
  const id = newId("dc");
  await insertWithUniqueSlug(context, accountId, name, (nameSlug) =>
    context.store.db
      .insertInto("sources")
      .values({
        id,
        account_id: accountId,
        component_id: component.id,
        name,
        name_slug: nameSlug,
        configured_props: JSON.stringify(sealProps(definition, values, context.secrets)),
        dynamic_props: additional ? JSON.stringify(additional) : null,
        active: 1,
        endpoint_id: hasHttpInterface(definition) ? newEndpointId() : null,
        timeout_seconds:
          boundedInteger(input.timeout_seconds, "timeout_seconds", 1, MAX_TIMEOUT_SECONDS) ??
          DEFAULT_TIMEOUT_SECONDS,
        max_events: boundedInteger(input.max_events, "max_events", 1, MAX_MAX_EVENTS) ?? DEFAULT_MAX_EVENTS,
        created_at: now,
        updated_at: now,
      })
      .execute(),
  );
  const runnable = await mustLoadRunnable(context, id);
  for (const hook of ["deploy", "activate"] as const) {
    const report = await invokeSource(context, runnable, { method: hook });
    if (!report.result.ok) {
      await removeSource(context, id);
      throw hookFailed(hook, report, "the source was not deployed");
    }
  }
  await startTicks(context, runnable);
  return getSource(context, accountId, id);
}

export async function updateSource(
  context: CoreContext,
  accountId: string,
  ref: string,
  input: SourceInput,
): Promise<DeployedSource> {
  const current = await getSource(context, accountId, ref);
  const replacement = await resolveComponent(context, accountId, input, false);
  const component = replacement ?? (await getComponent(context, accountId, current.componentId));
  // Dynamic props: the ones given, else the current ones while the component stays the same.
  const given = await loadDynamicProps(context, accountId, input.dynamic_props_id, component.id);
  const additional = given ?? (component.id === current.componentId ? current.dynamicProps : null);
  const definition = withDynamicProps(checkDeployable(component), additional);
  const update = (input.configured_props ?? {}) as Record<string, unknown>;
  if (typeof update !== "object" || Array.isArray(update)) {
    throw new InvalidInputError("configured_props must be an object of prop values", "invalid_prop");
  }
  const known = new Set(definition.props.map((prop) => prop.name));
  const currentValues = Object.fromEntries(
    Object.entries(unsealProps(current.storedProps, context.secrets)).filter(([name]) => known.has(name)),
  );
  const values = await resolveDataStoreRefs(
    context,
    accountId,
    definition,
    configureProps(definition, mergeForUpdate(definition, currentValues, update)),
  );
  await checkAuthRefs(context, accountId, definition, values);
  const activeAfter = input.active === undefined ? current.active : parseBoolean(input.active, "active");
  const name = optionalName(input.name);
  const timeout = boundedInteger(input.timeout_seconds, "timeout_seconds", 1, MAX_TIMEOUT_SECONDS);
  const maxEvents = boundedInteger(input.max_events, "max_events", 1, MAX_MAX_EVENTS);

  // deactivate → replace → activate, each hook in the code it belongs to.
  if (current.active) {
    await cancelTicks(context.store.db, current.id);
    await runHookLogged(context, current.id, "deactivate");
  }
  const endpointId = hasHttpInterface(definition) ? (current.endpointId ?? newEndpointId()) : null;
  const changes = {
    component_id: component.id,
    configured_props: JSON.stringify(sealProps(definition, values, context.secrets)),
    dynamic_props: additional ? JSON.stringify(additional) : null,
    active: activeAfter ? 1 : 0,
    endpoint_id: endpointId,
    timeout_seconds: timeout ?? current.timeoutSeconds,
    max_events: maxEvents ?? current.maxEvents,
    updated_at: Date.now(),
  };
  if (name !== undefined && name !== current.name) {
    await insertWithUniqueSlug(context, accountId, name, (nameSlug) =>
      context.store.db
        .updateTable("sources")
        .set({ ...changes, name, name_slug: nameSlug })
        .where("id", "=", current.id)
        .execute(),
    );
  } else {
    await context.store.db.updateTable("sources").set(changes).where("id", "=", current.id).execute();
  }
  forgetRunnables(context);
  // Its next run imports the component afresh, as after a redeploy.
  context.sandbox.forgetInstance(current.id);
  if (activeAfter) {
    const runnable = await mustLoadRunnable(context, current.id);
    const report = await invokeSource(context, runnable, { method: "activate" });
    if (!report.result.ok) {
      await context.store.db.updateTable("sources").set({ active: 0 }).where("id", "=", current.id).execute();
      forgetRunnables(context);
      throw hookFailed("activate", report, "the source was updated but is now inactive");
    }
    await startTicks(context, runnable);
  }
  return getSource(context, accountId, current.id);
}

/**
 * Deletes the source. A source a workflow deployed as its trigger goes with the workflow: only
 * that workflow (`byWorkflow`) may delete it.
 */
export async function deleteSource(
  context: CoreContext,
  accountId: string,
  ref: string,
  byWorkflow?: string,
): Promise<string> {
  const source = await getSource(context, accountId, ref);
  const owner = await context.store.db
    .selectFrom("workflows")
    .select("id")
    .where("trigger_source_id", "=", source.id)
    .where("owns_trigger_source", "=", 1)
    .executeTakeFirst();
  if (owner && owner.id !== byWorkflow) {
    throw new ConflictError(
      "source_owned_by_workflow",
      `Source ${source.id} is the trigger of workflow ${owner.id}; change the workflow's trigger or delete the workflow`,
    );
  }
  await cancelTicks(context.store.db, source.id);
  if (source.active) await runHookLogged(context, source.id, "deactivate");
  await removeSource(context, source.id);
  return source.id;
}

/** Runs the source now, as a timer tick or a person pressing "Run now" would. */
export async function runSourceNow(
  context: CoreContext,
  accountId: string,
  ref: string,
): Promise<InvocationReport> {
  const source = await getSource(context, accountId, ref);
  if (!source.active)
    throw new ConflictError("source_inactive", `Source ${source.id} is inactive; activate it first`);
  const timer = source.definition.props.find((prop) => prop.type === "$.interface.timer");
  const schedule = timer
    ? (unsealProps(source.storedProps, context.secrets)[timer.name] as { intervalSeconds?: number })
    : undefined;
  const event = timer
    ? { timestamp: Math.floor(Date.now() / 1000), interval_seconds: schedule?.intervalSeconds ?? null }
    : {};
  return invokeSource(context, await mustLoadRunnable(context, source.id), {
    method: "run",
    event,
    notes: [{ ts: Date.now(), level: "info", message: "run now" }],
  });
}

/** The account's source by `dc_` id or by name slug; another account's is not found. */
export async function getSource(
  context: CoreContext,
  accountId: string,
  ref: string,
): Promise<DeployedSource> {
  const row = await context.store.db
    .selectFrom("sources")
    .innerJoin("components", "components.id", "sources.component_id")
    .selectAll("sources")
    .select(["components.definition", "components.key as component_key"])
    .where("sources.account_id", "=", accountId)
    .where(ref.startsWith("dc_") ? "sources.id" : "sources.name_slug", "=", ref)
    .executeTakeFirst();
  if (!row) throw new NotFoundError("source", ref);
  return toDeployedSource(row);
}

/** A page of sources; `q` keeps those whose name, id, component key or endpoint holds it (any case). */
export function listSources(
  context: CoreContext,
  accountId: string,
  page: PageRequest & { readonly q?: string },
): Promise<Page<DeployedSource>> {
  const words = (page.q ?? "").trim().toLowerCase();
  const holds = (column: string) => containsText(column, words);
  const owned = () => {
    const query = context.store.db
      .selectFrom("sources")
      .innerJoin("components", "components.id", "sources.component_id")
      .where("sources.account_id", "=", accountId);
    if (words === "") return query;
    return query.where((eb) =>
      eb.or([
        holds("sources.name"),
        holds("sources.id"),
        holds("components.key"),
        holds("sources.endpoint_id"),
      ]),
    );
  };
  return readPage(page, {
    async rows(cursor, order, limit) {
      let query = owned()
        .selectAll("sources")
        .select(["components.definition", "components.key as component_key"]);
      if (cursor) query = query.where("sources.id", cursor.op, cursor.id);
      return (await query.orderBy("sources.id", order).limit(limit).execute()).map(toDeployedSource);
    },
    async count() {
      const row = await owned()
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
  });
}

async function resolveComponent(
  context: CoreContext,
  accountId: string,
  input: SourceInput,
  required: boolean,
): Promise<SavedComponent | null> {
  if (typeof input.component_id === "string" && input.component_id !== "") {
    return getComponent(context, accountId, input.component_id);
  }
  if (input.component_code !== undefined || input.component_url !== undefined) {
    return saveComponent(context, accountId, input);
  }
  if (typeof input.key === "string" && input.key !== "") {
    return componentForKey(context, accountId, input.key, { savedKeys: true });
  }
  if (required) return null;
  return null;
}

function checkDeployable(component: SavedComponent): ComponentDefinition {
  if (component.type !== "source") {
    throw new InvalidInputError(
      `${component.name} is an action: actions run as workflow steps and are published, not deployed`,
      "not_a_source",
    );
  }
  return component.definition;
}

async function runHookLogged(context: CoreContext, sourceId: string, hook: "deactivate"): Promise<void> {
  const runnable = await loadRunnable(context, { id: sourceId });
  // A failed deactivate hook is logged with the source and does not block the change.
  if (runnable) await invokeSource(context, runnable, { method: hook });
}

/** A timer source's ticks start when it is activated. */
async function startTicks(context: CoreContext, source: RunnableSource): Promise<void> {
  const schedule = scheduleOf(source.definition, source.values);
  if (schedule) await scheduleTicks(context.store, source.id, schedule);
}

async function mustLoadRunnable(context: CoreContext, id: string): Promise<RunnableSource> {
  const runnable = await loadRunnable(context, { id });
  if (!runnable) throw new NotFoundError("source", id);
  return runnable;
}

async function removeSource(context: CoreContext, id: string): Promise<void> {
  await context.store.transaction(async (tx) => {
    const db = context.store.dbIn(tx);
    // The source's row first, locked, as a commit of its runs locks it before it writes
    // (core/sources/invocation-commit.ts): a commit under way finishes before the delete goes on (and its
    // events are deleted with the rest), a later one finds no source and keeps nothing. Without
    // it, on PostgreSQL a commit could store events between the deletes and the row's removal.
    if (context.store.capabilities.skipLocked) {
      await db.selectFrom("sources").select("id").where("id", "=", id).forUpdate().execute();
    }
    await db.deleteFrom("events").where("emitter_id", "=", id).execute();
    await db.deleteFrom("emitter_logs").where("emitter_id", "=", id).execute();
    await db.deleteFrom("kv").where("emitter_id", "=", id).execute();
    await cancelTicks(db, id);
    await removeSubscriptionsOf(db, id);
    await db.deleteFrom("sources").where("id", "=", id).execute();
  });
  forgetRunnables(context);
  context.sandbox.forgetInstance(id);
}

function hookFailed(hook: string, report: InvocationReport, consequence: string): InvalidInputError {
  const failure = report.result.failure;
  const configuration = /^ConfigurationError: ?/.exec(failure?.message ?? "");
  if (configuration && failure) {
    return new ConfigurationError(
      `the ${hook} hook: ${failure.message.slice(configuration[0].length)}; ${consequence}`,
    );
  }
  return new InvalidInputError(
    `The ${hook} hook failed (${failure?.reason ?? "error"}): ${failure?.message ?? "unknown error"}; ${consequence}`,
    "hook_failed",
  );
}

/** Inserts (or renames) with the first free slug of `name`: `name`, `name-1`, `name-2`, … */
async function insertWithUniqueSlug(
  context: CoreContext,
  accountId: string,
  name: string,
  write: (nameSlug: string) => Promise<unknown>,
): Promise<void> {
  for (let attempt = 0; attempt < 5; attempt++) {
    const taken = await context.store.db
      .selectFrom("sources")
      .select("name_slug")
      .where("account_id", "=", accountId)
      .execute();
    const slug = uniqueSlug(name, new Set(taken.map((row) => row.name_slug)));
    try {
      await write(slug);
      return;
    } catch (error) {
      // Another deploy took the same slug between the read and the write: read again.
      if (!/unique|duplicate/i.test(String((error as Error).message))) throw error;
    }
  }
  throw new ConflictError("name_taken", `Could not find a free name for '${name}'; try another name`);
}

function hasHttpInterface(definition: ComponentDefinition): boolean {
  return definition.props.some((prop) => prop.type === "$.interface.http");
}

/** Unguessable: 128 random bits. */
export function newEndpointId(): string {
  return randomBytes(16).toString("hex");
}

function optionalName(value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (typeof value !== "string") throw new InvalidInputError("name must be a string");
  if (value.length > 200) throw new InvalidInputError("name must be at most 200 characters");
  return value.trim();
}

function boundedInteger(value: unknown, field: string, min: number, max: number): number | undefined {
  if (value === undefined || value === null) return undefined;
  const number = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (typeof number !== "number" || !Number.isInteger(number) || number < min || number > max) {
    throw new InvalidInputError(`${field} must be an integer from ${min} to ${max}`);
  }
  return number;
}

function parseBoolean(value: unknown, field: string): boolean {
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  throw new InvalidInputError(`${field} must be true or false`);
}

function toDeployedSource(
  row: Selectable<SourcesTable> & { definition: string; component_key: string | null },
): DeployedSource {
  const dynamicProps =
    row.dynamic_props === null ? null : (JSON.parse(row.dynamic_props) as PropDefinition[]);
  return {
    id: row.id,
    accountId: row.account_id,
    componentId: row.component_id,
    componentKey: row.component_key,
    name: row.name,
    nameSlug: row.name_slug,
    storedProps: JSON.parse(row.configured_props) as Record<string, unknown>,
    definition: withDynamicProps(JSON.parse(row.definition) as ComponentDefinition, dynamicProps),
    dynamicProps,
    active: row.active === 1,
    endpointId: row.endpoint_id,
    timeoutSeconds: row.timeout_seconds,
    maxEvents: row.max_events,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
    lastEventAt: Number(row.last_event_ms) > 0 ? Number(row.last_event_ms) : null,
  };
}

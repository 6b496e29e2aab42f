/**
 * Dynamic props, on request from the API or the UI: a prop's async options
 * (`POST /v1/components/configure`) and a component's additionalProps (`POST /v1/components/props`),
 * run in the sandbox with the props configured so far and the account's connected accounts. The
 * shapes are Pipedream Connect's. additionalProps results are kept as `dyp_…` ids, which deploy,
 * update and run-action accept as `dynamic_props_id`.
 */
// Kysely here, not in the store: reads and writes only a source's cached dynamic props.
import type { ComponentDefinition, PropDefinition } from "../../runtime/component-definition.js";
import type { InvocationResult } from "../../runtime/sandbox/sandbox.js";
import { checkAuthRefs } from "../apps/auth-refs.js";
import type { CoreContext } from "../context.js";
import { dataStoreHandler } from "../data-stores/data-store-props.js";
import { InvalidInputError, NotFoundError, SluiceError } from "../errors.js";
import { looksLikeId, newId } from "../ids.js";
import { maskSecrets, runnerProps, secretStrings, unsealProps } from "../sources/source-props.js";
import { resolvePropRefs } from "./prop-refs.js";
import { checkDefinition } from "./props.js";
import { resolvePublished } from "./published.js";
import { getComponent, loadBundle, type SavedComponent } from "./saved-components.js";

const CONFIGURE_TIMEOUT_MS = 30_000;
const MAX_OPTIONS = 10_000;

/** A ConfigurationError thrown by options, additionalProps or a hook: its message is for the user. */
export class ConfigurationError extends SluiceError {
  readonly kind = "invalid";
  constructor(message: string) {
    super("configuration_error", message);
  }
}

export interface ConfigureInput {
  readonly id?: unknown;
  readonly prop_name?: unknown;
  readonly configured_props?: unknown;
  readonly dynamic_props_id?: unknown;
  readonly query?: unknown;
  readonly page?: unknown;
  readonly prev_context?: unknown;
}

interface Target {
  readonly component: SavedComponent;
  readonly definition: ComponentDefinition;
  readonly values: Record<string, unknown>;
}

/** The definition with the additional props merged in: they replace props of the same name. */
export function withDynamicProps(
  definition: ComponentDefinition,
  additional: readonly PropDefinition[] | null,
): ComponentDefinition {
  if (!additional || additional.length === 0) return definition;
  const names = new Set(additional.map((prop) => prop.name));
  return {
    ...definition,
    props: [...definition.props.filter((prop) => !names.has(prop.name)), ...additional],
  };
}

/** The additional props of a `dyp_` id of the account, for this component (404 otherwise). */
export async function loadDynamicProps(
  context: CoreContext,
  accountId: string,
  id: unknown,
  componentId: string,
): Promise<PropDefinition[] | null> {
  if (id === undefined || id === null || id === "") return null;
  if (typeof id !== "string") throw new InvalidInputError("dynamic_props_id must be a dyp_ id");
  const row = looksLikeId(id, "dyp")
    ? await context.store.db
        .selectFrom("dynamic_props")
        .select(["component_id", "props"])
        .where("id", "=", id)
        .where("account_id", "=", accountId)
        .executeTakeFirst()
    : undefined;
  if (!row) throw new NotFoundError("dynamic props", id);
  if (row.component_id !== componentId) {
    throw new InvalidInputError(
      `dynamic_props_id ${id} was made for another component (${row.component_id}); reload the props of ${componentId}`,
      "invalid_prop",
    );
  }
  return JSON.parse(row.props) as PropDefinition[];
}

/** The component named by `id`: a dc_ source (its configured props are the base), an sc_ id or a key. */
async function resolveTarget(
  context: CoreContext,
  accountId: string,
  input: ConfigureInput,
): Promise<Target> {
  const id = input.id;
  if (typeof id !== "string" || id === "") {
    throw new InvalidInputError(
      "id is required: a component key, a saved component id (sc_…) or a source id (dc_…)",
    );
  }
  let component: SavedComponent;
  let base: Record<string, unknown> = {};
  let deployed: PropDefinition[] | null = null;
  if (id.startsWith("dc_")) {
    const row = await context.store.db
      .selectFrom("sources")
      .select(["component_id", "configured_props", "dynamic_props"])
      .where("id", "=", id)
      .where("account_id", "=", accountId)
      .executeTakeFirst();
    if (!row) throw new NotFoundError("source", id);
    component = await getComponent(context, accountId, row.component_id);
    base = unsealProps(JSON.parse(row.configured_props) as Record<string, unknown>, context.secrets);
    deployed = row.dynamic_props === null ? null : (JSON.parse(row.dynamic_props) as PropDefinition[]);
  } else {
    try {
      component = await getComponent(context, accountId, id);
    } catch (error) {
      if (!(error instanceof NotFoundError) || id.startsWith("sc_")) throw error;
      component = (await resolvePublished(context, accountId, id)).component;
    }
  }
  const additional =
    (await loadDynamicProps(context, accountId, input.dynamic_props_id, component.id)) ?? deployed;
  const definition = withDynamicProps(component.definition, additional);
  const given = input.configured_props ?? {};
  if (typeof given !== "object" || given === null || Array.isArray(given)) {
    throw new InvalidInputError("configured_props must be an object of prop values", "invalid_prop");
  }
  const known = new Set(definition.props.map((prop) => prop.name));
  // Props the component does not (yet) declare are passed over: a form sends what it has.
  const values = Object.fromEntries(
    Object.entries({ ...base, ...(given as Record<string, unknown>) }).filter(
      ([name, value]) => known.has(name) && value !== undefined && value !== null,
    ),
  );
  await checkAuthRefs(context, accountId, definition, values);
  return { component, definition, values };
}

async function invokeConfigure(
  context: CoreContext,
  accountId: string,
  target: Target,
  method: "options" | "additionalProps",
  event: unknown,
): Promise<{ result: InvocationResult; secrets: string[] }> {
  // As in run: data_store props name their ds_ store, and this.<store> reaches it.
  const values = await resolvePropRefs(context, accountId, target.definition, target.values);
  const { component } = target;
  const result = await context.sandbox.invoke(
    {
      // One warm runner per account and component for configuration calls, apart from its deployments.
      componentId: `cfg_${accountId}_${component.id}`,
      bundleHash: component.bundleHash,
      bundle: () => loadBundle(context, component.id),
    },
    {
      method,
      event,
      props: runnerProps(target.definition, values, null),
      db: {},
      timeoutMs: CONFIGURE_TIMEOUT_MS,
      onDataStore: dataStoreHandler(context, target.definition, values),
    },
  );
  return { result, secrets: secretStrings(target.definition, values) };
}

function observationsOf(result: InvocationResult, secrets: readonly string[]) {
  return result.logs.map((line) => ({
    ts: line.ts,
    k: `console.${line.level}`,
    msg: maskSecrets(line.message, secrets),
  }));
}

/** Turns a failed configuration call into the error the user sees, or the `errors` entry. */
function failureOf(result: InvocationResult, secrets: readonly string[], where: string): string {
  const message = maskSecrets(result.failure?.message ?? "failed", secrets);
  const configuration = /^ConfigurationError: ?/.exec(message);
  if (configuration) throw new ConfigurationError(`${where}: ${message.slice(configuration[0].length)}`);
  const noOptions = /^NoOptionsError: ?/.exec(message);
  if (noOptions) throw new InvalidInputError(message.slice(noOptions[0].length), "no_options");
  return message;
}

/** `POST /v1/components/configure`: one page of a prop's options. */
export async function configureProp(context: CoreContext, accountId: string, input: ConfigureInput) {
  if (typeof input.prop_name !== "string" || input.prop_name === "") {
    throw new InvalidInputError("prop_name is required: the prop whose options to fetch");
  }
  const propName = input.prop_name;
  const target = await resolveTarget(context, accountId, input);
  const prop = target.definition.props.find((candidate) => candidate.name === propName);
  if (!prop && !target.definition.hasAdditionalProps) {
    const known = target.definition.props.map((candidate) => candidate.name).join(", ") || "none";
    throw new InvalidInputError(
      `the component has no prop '${propName}' (its props: ${known})`,
      "invalid_prop",
    );
  }
  if (prop && !prop.remoteOptions && prop.options === undefined) {
    throw new InvalidInputError(
      `prop '${propName}' has no options to fetch (it declares no options method)`,
      "no_options",
    );
  }
  if (input.page !== undefined && !(Number.isInteger(input.page) && (input.page as number) >= 0)) {
    throw new InvalidInputError("page must be an integer, 0 or more");
  }
  const { result, secrets } = await invokeConfigure(context, accountId, target, "options", {
    propName,
    page: input.page ?? 0,
    prevContext: input.prev_context ?? {},
    ...(typeof input.query === "string" ? { query: input.query } : {}),
    configuredProps: target.values,
  });
  const observations = observationsOf(result, secrets);
  if (!result.ok) {
    const message = failureOf(result, secrets, `prop '${propName}'`);
    return { options: null, stringOptions: null, context: null, errors: [message], observations };
  }
  const answer = (result.returnValue ?? {}) as { options?: unknown[]; context?: unknown };
  const options = (answer.options ?? []).slice(0, MAX_OPTIONS);
  const strings = options.length > 0 && options.every((option) => typeof option === "string");
  return {
    options: strings ? null : options.map(labelled),
    stringOptions: strings ? (options as string[]) : null,
    context: answer.context ?? null,
    errors: [] as string[],
    observations,
  };
}

function labelled(option: unknown): { label: string; value: unknown } {
  if (typeof option === "object" && option !== null && "value" in option) {
    const { label, value } = option as { label?: unknown; value: unknown };
    return { label: typeof label === "string" ? label : String(value), value };
  }
  return { label: String(option), value: option };
}

/** `POST /v1/components/props`: runs additionalProps, keeps the result as a `dyp_` id. */
export async function reloadComponentProps(context: CoreContext, accountId: string, input: ConfigureInput) {
  const target = await resolveTarget(context, accountId, { ...input, dynamic_props_id: undefined });
  if (!target.definition.hasAdditionalProps) {
    throw new InvalidInputError(
      `${target.component.name} has no additionalProps: its props are its configurable_props`,
      "no_dynamic_props",
    );
  }
  const { result, secrets } = await invokeConfigure(context, accountId, target, "additionalProps", {});
  const observations = observationsOf(result, secrets);
  if (!result.ok) {
    const message = failureOf(result, secrets, "additionalProps");
    return { dynamicProps: null, errors: [message], observations };
  }
  const additional = (result.returnValue ?? []) as PropDefinition[];
  checkDefinition({ ...target.component.definition, props: additional });
  const id = newId("dyp");
  await context.store.db
    .insertInto("dynamic_props")
    .values({
      id,
      account_id: accountId,
      component_id: target.component.id,
      props: JSON.stringify(additional),
      created_at: Date.now(),
    })
    .execute();
  return {
    dynamicProps: { id, configurableProps: withDynamicProps(target.component.definition, additional).props },
    errors: [] as string[],
    observations,
  };
}

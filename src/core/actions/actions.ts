/**
 * Actions (`type: "action"`): running one in the sandbox as `run({ steps, $ })`. `invokeAction` is
 * one step — props and `steps` in; return value, exports, summary, logs, response, flow exit and
 * queued sends out — and is what a workflow runner calls per step, performing the sends once its
 * run ends. `runAction` is the single run of `POST /v1/actions/run`: it resolves the component
 * (saved, inline or published), checks the props, runs it, then performs its sends.
 */

import { failedResult } from "../../runtime/sandbox/invocation-collector.js";
import type { FlowUrls, HttpResponse, InvocationResult } from "../../runtime/sandbox/sandbox.js";
import { writeTogether } from "../../store/write-together.js";
import { checkAuthRefs } from "../apps/auth-refs.js";
import { loadDynamicProps, withDynamicProps } from "../components/dynamic-props.js";
import { DEFAULT_TIMEOUT_SECONDS, MAX_TIMEOUT_SECONDS } from "../components/invocation-limits.js";
import { componentForKey } from "../components/lookup.js";
import { resolvePropRefs } from "../components/prop-refs.js";
import { configureProps } from "../components/props.js";
import {
  getComponent,
  loadBundle,
  type SavedComponent,
  saveComponent,
} from "../components/saved-components.js";
import type { CoreContext } from "../context.js";
import { dataStoreHandler, resolveDataStoreRefs } from "../data-stores/data-store-props.js";
import { InvalidInputError, SluiceError } from "../errors.js";
import { maskSecrets, runnerProps, secretStrings } from "../sources/source-props.js";
import type { ActionSender, SendReport } from "./action-sends.js";
import { actionStateWrites, keepsState, readActionState } from "./action-state.js";

export interface ActionRunInput {
  readonly component_id?: unknown;
  readonly component_code?: unknown;
  readonly component_url?: unknown;
  readonly filename?: unknown;
  /** A published key: `key` (its latest version) or `key@version`. */
  readonly key?: unknown;
  /** Pipedream Connect's name for the component: a key (`key@version`) or an `sc_` id. */
  readonly id?: unknown;
  readonly configured_props?: unknown;
  readonly steps?: unknown;
  readonly timeout_seconds?: unknown;
  /** A `dyp_` id from `POST /v1/components/props`. */
  readonly dynamic_props_id?: unknown;
}

/** One step of an action: the component, its configured values and the `steps` it sees. */
export interface ActionStep {
  /** The account the step runs for: its connected accounts are the ones app props may name. */
  readonly accountId: string;
  readonly component: SavedComponent;
  /** Values checked by `configureProps` against the component's props. */
  readonly values: Record<string, unknown>;
  readonly steps: Readonly<Record<string, unknown>>;
  /** Its `$.context`: the workflow run it is a step of. */
  readonly context?: Readonly<Record<string, unknown>>;
  /** What its `$.flow.delay`, `suspend` and `rerun` return; absent outside a workflow run. */
  readonly flowUrls?: FlowUrls;
  readonly timeoutMs: number;
  /** Called as soon as the action calls `$.respond()`. */
  readonly onRespond?: (response: HttpResponse) => void;
  /** The `$.service.db` state it starts from (core/actions/action-state.ts); its `db.set`s come back as `dbWrites`. */
  readonly db?: Readonly<Record<string, unknown>>;
  /**
   * The runner to use, when not the component's own (runs of one component share a runner and so
   * are serialized: a workflow running N at once gives each of its N slots a runner).
   */
  readonly runnerId?: string;
}

export interface ActionRun {
  readonly component: SavedComponent;
  readonly result: InvocationResult;
  /** The queued sends with their outcomes (not attempted when the run failed). */
  readonly sends: SendReport[];
}

/**
 * Runs one action step in the sandbox. Its runner is pooled under the saved component's id, so
 * runs of one component are serialized on this node. Secret prop values are masked in the logs and
 * the failure. The sends are returned queued, not performed.
 */
export async function invokeAction(context: CoreContext, step: ActionStep): Promise<InvocationResult> {
  return (await invokeActionMasked(context, step)).result;
}

/** invokeAction, also giving the secret strings it ran with (the resolved credentials among them). */
async function invokeActionMasked(
  context: CoreContext,
  step: ActionStep,
): Promise<{ result: InvocationResult; secrets: readonly string[] }> {
  const { component } = step;
  let values: Record<string, unknown>;
  try {
    values = await resolvePropRefs(context, step.accountId, component.definition, step.values);
  } catch (error) {
    if (!(error instanceof SluiceError)) throw error;
    return { result: failedResult({ reason: "error", message: error.message }), secrets: [] };
  }
  const raw = await context.sandbox.invoke(
    {
      componentId: step.runnerId ?? component.id,
      bundleHash: component.bundleHash,
      bundle: () => loadBundle(context, component.id),
    },
    {
      method: "run",
      props: runnerProps(component.definition, values, null),
      db: step.db ?? {},
      steps: step.steps,
      ...(step.context ? { context: step.context } : {}),
      ...(step.flowUrls ? { flowUrls: step.flowUrls } : {}),
      timeoutMs: step.timeoutMs,
      onDataStore: dataStoreHandler(context, component.definition, values),
      ...(step.onRespond ? { onRespond: step.onRespond } : {}),
    },
  );
  const secrets = secretStrings(component.definition, values);
  return { result: secrets.length === 0 ? raw : scrubbed(raw, secrets), secrets };
}

/** `POST /v1/actions/run`: resolve, configure, run, then perform the sends. */
export async function runAction(
  context: CoreContext,
  sender: ActionSender,
  accountId: string,
  input: ActionRunInput,
): Promise<ActionRun> {
  const resolved = await resolveAction(context, accountId, input);
  const additional = await loadDynamicProps(context, accountId, input.dynamic_props_id, resolved.id);
  const component = { ...resolved, definition: withDynamicProps(resolved.definition, additional) };
  const values = await resolveDataStoreRefs(
    context,
    accountId,
    component.definition,
    configureProps(component.definition, input.configured_props),
  );
  await checkAuthRefs(context, accountId, component.definition, values);
  const owner = keepsState(component.definition)
    ? { accountId, componentKey: component.definition.key || component.id }
    : null;
  const { result, secrets } = await invokeActionMasked(context, {
    accountId,
    component,
    values,
    steps: stepsOf(input.steps),
    timeoutMs: timeoutSecondsOf(input.timeout_seconds) * 1000,
    ...(owner ? { db: await readActionState(context.store, owner) } : {}),
  });
  // As a source's, the state it set is kept whether or not the run then failed.
  const stateWrites = owner ? actionStateWrites(owner, result.dbWrites) : [];
  if (stateWrites.length > 0) await writeTogether(context.store, stateWrites);
  const queued = result.sends ?? [];
  const reports = result.ok
    ? await sender.perform(queued)
    : sender.skip(queued, "not sent: the action failed");
  if (secrets.length === 0) return { component, result, sends: reports };
  // The report is for people: credentials the action returns, exports or sends are masked in it.
  const mask = (value: unknown) => maskDeep(value, secrets);
  return {
    component,
    result: {
      ...result,
      ...(result.returnValue === undefined ? {} : { returnValue: mask(result.returnValue) }),
      ...(result.exports === undefined ? {} : { exports: mask(result.exports) as typeof result.exports }),
      ...(result.summary === undefined ? {} : { summary: mask(result.summary) as string }),
    },
    sends: reports.map((report) => ({ ...report, input: mask(report.input) as Record<string, unknown> })),
  };
}

/** The action a run names: saved (`component_id`), inline (`component_code`, `component_url`) or published. */
async function resolveAction(
  context: CoreContext,
  accountId: string,
  input: ActionRunInput,
): Promise<SavedComponent> {
  let component: SavedComponent;
  const id = typeof input.id === "string" && input.id !== "" ? input.id : undefined;
  if (typeof input.component_id === "string" && input.component_id !== "") {
    component = await getComponent(context, accountId, input.component_id);
  } else if (id?.startsWith("sc_")) {
    component = await getComponent(context, accountId, id);
  } else if (input.component_code !== undefined || input.component_url !== undefined) {
    component = await saveComponent(context, accountId, input);
  } else if (typeof input.key === "string" && input.key !== "") {
    component = await componentForKey(context, accountId, input.key, { savedKeys: false });
  } else if (id !== undefined) {
    component = await componentForKey(context, accountId, id, { savedKeys: false });
  } else {
    throw new InvalidInputError(
      "Pass component_id (sc_…), component_code, component_url or key (a published key, or key@version)",
    );
  }
  if (component.type !== "action") {
    throw new InvalidInputError(
      `${component.name} is a source: sources are deployed (sluice deploy), actions are run; set type: "action" to make it an action`,
      "not_an_action",
    );
  }
  return component;
}

function stepsOf(steps: unknown): Readonly<Record<string, unknown>> {
  if (steps === undefined || steps === null) return {};
  if (typeof steps !== "object" || Array.isArray(steps)) {
    throw new InvalidInputError("steps must be an object: the results of earlier steps, by step name");
  }
  return steps as Record<string, unknown>;
}

function timeoutSecondsOf(value: unknown): number {
  if (value === undefined || value === null) return DEFAULT_TIMEOUT_SECONDS;
  const seconds = typeof value === "string" && /^\d+$/.test(value) ? Number(value) : value;
  if (
    typeof seconds !== "number" ||
    !Number.isInteger(seconds) ||
    seconds < 1 ||
    seconds > MAX_TIMEOUT_SECONDS
  ) {
    throw new InvalidInputError(`timeout_seconds must be an integer from 1 to ${MAX_TIMEOUT_SECONDS}`);
  }
  return seconds;
}

function scrubbed(result: InvocationResult, secrets: readonly string[]): InvocationResult {
  const failure = result.failure && {
    ...result.failure,
    message: maskSecrets(result.failure.message, secrets),
    ...(result.failure.stack === undefined ? {} : { stack: maskSecrets(result.failure.stack, secrets) }),
  };
  return {
    ...result,
    ...(failure ? { failure } : {}),
    logs: result.logs.map((line) => ({ ...line, message: maskSecrets(line.message, secrets) })),
  };
}

/** The JSON value with every secret string masked, wherever it appears in it. */
function maskDeep(value: unknown, secrets: readonly string[]): unknown {
  if (typeof value === "string") return maskSecrets(value, secrets);
  if (Array.isArray(value)) return value.map((item) => maskDeep(item, secrets));
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([name, item]) => [name, maskDeep(item, secrets)]));
  }
  return value;
}

/**
 * The invoker: one invocation of a deployed source, from loading what it needs to committing what
 * it did. Hooks and `run` go the same way: props and key-value state in, the sandbox's result
 * committed in one transaction, subscribers woken after the commit.
 */
// Kysely here, not in the store: one plain read of a source's row.
import type { ComponentDefinition, HookName, PropDefinition } from "../../runtime/component-definition.js";
import { failedResult } from "../../runtime/sandbox/invocation-collector.js";
import type { HttpResponse, InvocationResult, LogLine, PropValue } from "../../runtime/sandbox/sandbox.js";
import type { Write } from "../../store/write-together.js";
import { withDynamicProps } from "../components/dynamic-props.js";
import { resolvePropRefs } from "../components/prop-refs.js";
import { loadBundle } from "../components/saved-components.js";
import type { CoreContext } from "../context.js";
import { dataStoreHandler } from "../data-stores/data-store-props.js";
import { SluiceError } from "../errors.js";
import type { StoredEvent } from "../events/emitter-events.js";
import { commitWakeUps } from "../events/topics.js";
import { newId } from "../ids.js";
import type { LaneSlot } from "./lane.js";
import { maskSecrets, runnerProps, secretStrings, unsealProps } from "./source-props.js";

/** Everything an invocation needs of a source, read in one query. */
export interface RunnableSource {
  readonly id: string;
  readonly accountId: string;
  readonly componentId: string;
  readonly bundleHash: string;
  readonly definition: ComponentDefinition;
  /** Configured values, secrets unsealed. */
  readonly values: Record<string, unknown>;
  /**
   * The runner's props for `values` as they are, made once per loaded source: the runnable cache
   * keeps them while the configuration stands, and the runner keeps the props it was sent, so the
   * same object is not serialized again per run (runner-process.ts). A run whose values resolve a
   * data store or a connected account makes its own.
   */
  readonly props: Record<string, PropValue>;
  readonly endpointId: string | null;
  readonly timeoutSeconds: number;
  readonly active: boolean;
}

export interface InvocationRequest {
  readonly method: "run" | HookName;
  readonly event?: unknown;
  readonly onRespond?: (response: HttpResponse) => void;
  readonly notes?: readonly LogLine[];
  /**
   * Writes committed with the invocation's events, in its own statement on PostgreSQL (a timer's
   * tick ended and the next one scheduled): stored with them or not at all. Called once the run
   * is over, when its commit is written. They must not touch the source's row, its events, log
   * lines or key-value state (store/write-together.ts: writes of one statement are independent).
   */
  readonly alsoWrites?: () => readonly Write[];
}

export interface InvocationReport {
  readonly invocationId: string;
  readonly result: InvocationResult;
  readonly events: StoredEvent[];
}

export function endpointUrl(context: CoreContext, endpointId: string | null): string | null {
  return endpointId === null ? null : `${context.baseUrl}/e/${endpointId}`;
}

/** Loads a source by id, or by its endpoint id; null when there is none. */
export async function loadRunnable(
  context: CoreContext,
  by: { id: string } | { endpointId: string },
): Promise<RunnableSource | null> {
  let query = context.store.db
    .selectFrom("sources")
    .innerJoin("components", "components.id", "sources.component_id")
    .select([
      "sources.id",
      "sources.account_id",
      "sources.component_id",
      "sources.configured_props",
      "sources.endpoint_id",
      "sources.timeout_seconds",
      "sources.active",
      "sources.dynamic_props",
      "components.bundle_hash",
      "components.definition",
    ]);
  query =
    "id" in by
      ? query.where("sources.id", "=", by.id)
      : query.where("sources.endpoint_id", "=", by.endpointId);
  const row = await query.executeTakeFirst();
  if (!row) return null;
  const definition = withDynamicProps(
    JSON.parse(row.definition) as ComponentDefinition,
    row.dynamic_props === null ? null : (JSON.parse(row.dynamic_props) as PropDefinition[]),
  );
  const values = unsealProps(JSON.parse(row.configured_props) as Record<string, unknown>, context.secrets);
  return {
    id: row.id,
    accountId: row.account_id,
    componentId: row.component_id,
    bundleHash: row.bundle_hash,
    definition,
    values,
    props: runnerProps(definition, values, endpointUrl(context, row.endpoint_id)),
    endpointId: row.endpoint_id,
    timeoutSeconds: row.timeout_seconds,
    active: row.active === 1,
  };
}

/** A run the runner answered `notStarted` is sent again, at most this many times. */
const MAX_SENDS = 4;

/**
 * Invocations in flight at once in one shared runner: those of different sources side by side,
 * those of one source one after another (core/sources/lane.ts).
 */
const SOURCES_PER_RUNNER_IN_FLIGHT = 64;

/**
 * The runner a source runs in: one per account and bundle, shared by every source of that
 * account deployed from that code, each in a module instance of its own (`instance`: its id).
 * Two accounts never share a process.
 */
export function sharedRunnerKey(source: Pick<RunnableSource, "accountId" | "bundleHash">): string {
  return `src_${source.accountId}_${source.bundleHash}`;
}

/**
 * Runs one invocation of the source in its lane (lane.ts), after the ones already there on this
 * node, and resolves once it is committed. Each invocation sees the key-value state the previous
 * one left, and commits happen in invocation order.
 */
export async function invokeSource(
  context: CoreContext,
  source: RunnableSource,
  request: InvocationRequest,
): Promise<InvocationReport> {
  const { ran, outcome } = await context.lanes.invoke(source.id, {
    run: async (slot) => {
      const ran = await runInSandbox(context, source, request, slot);
      return { ran, dbWrites: ran.result.dbWrites };
    },
    commit: ({ invocationId, result }) => ({
      emitterId: source.id,
      accountId: source.accountId,
      invocationId,
      dedupe: source.definition.dedupe,
      result,
      notes: request.notes,
      alsoWrites: request.alsoWrites,
    }),
  });
  const wakeUps = commitWakeUps(source.id, {
    events: outcome.events.length,
    logLines: outcome.logLines,
    deliveries: outcome.deliveries,
    webhooks: outcome.webhooks,
    runs: outcome.runs,
  });
  for (const { topic, groups } of wakeUps) {
    context.store.notifier.publish(topic, groups, { othersTold: outcome.othersTold });
  }
  return { invocationId: ran.invocationId, result: ran.result, events: outcome.events };
}

async function runInSandbox(
  context: CoreContext,
  source: RunnableSource,
  request: InvocationRequest,
  slot: LaneSlot,
): Promise<{ invocationId: string; result: InvocationResult }> {
  const invocationId = newId("inv");
  // A lifecycle hook the component does not define is a no-op: no runner is started for it, so a
  // source that has none takes no room in a runner until its first run.
  if (request.method !== "run" && !source.definition.hooks.includes(request.method)) {
    return { invocationId, result: { ok: true, emits: [], dbWrites: {}, logs: [], durationMs: 0 } };
  }
  let values: Record<string, unknown>;
  try {
    values = await resolvePropRefs(context, source.accountId, source.definition, source.values);
  } catch (error) {
    if (!(error instanceof SluiceError)) throw error;
    return { invocationId, result: failedResult({ reason: "error", message: error.message }) };
  }
  await slot.turn();
  const spec = {
    componentId: sharedRunnerKey(source),
    bundleHash: source.bundleHash,
    bundle: () => loadBundle(context, source.componentId),
    concurrency: SOURCES_PER_RUNNER_IN_FLIGHT,
  };
  const props =
    values === source.values
      ? source.props
      : runnerProps(source.definition, values, endpointUrl(context, source.endpointId));
  for (let sends = 1; ; sends++) {
    const db = await slot.stateToSend();
    const raw = await context.sandbox.invoke(spec, {
      instance: source.id,
      method: request.method,
      event: request.event,
      props,
      ...(db === undefined ? {} : { db }),
      timeoutMs: source.timeoutSeconds * 1000,
      onDataStore: dataStoreHandler(context, source.definition, values),
      onRespond: request.onRespond,
      onSent: () => slot.handedOver(db !== undefined),
    });
    if (raw.notStarted && sends < MAX_SENDS) {
      // Its runner went down, or never held the state: again, with the state.
      slot.notHeld();
      continue;
    }
    const secrets = secretStrings(source.definition, values);
    // Secrets never reach the logs or the caller, even when a component prints them.
    return { invocationId, result: secrets.length === 0 ? raw : scrubLogs(raw, secrets) };
  }
}

function scrubLogs(result: InvocationResult, secrets: readonly string[]): InvocationResult {
  const failure = result.failure && {
    ...result.failure,
    message: maskSecrets(result.failure.message, secrets),
    stack: result.failure.stack === undefined ? undefined : maskSecrets(result.failure.stack, secrets),
  };
  return {
    ...result,
    failure,
    logs: result.logs.map((line) => ({ ...line, message: maskSecrets(line.message, secrets) })),
  };
}

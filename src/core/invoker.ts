/**
 * The invoker: one invocation of a deployed source, from loading what it needs to committing what
 * it did. Hooks and `run` go the same way: props and key-value state in, the sandbox's result
 * committed in one transaction, subscribers woken after the commit.
 */
import type { ComponentDefinition, HookName } from "../runtime/component-definition.js";
import type { HttpResponse, InvocationResult, LogLine } from "../runtime/sandbox/sandbox.js";
import { loadBundle } from "./components.js";
import type { CoreContext } from "./context.js";
import { DELIVERIES_TOPIC } from "./delivery/enqueue.js";
import type { StoredEvent } from "./emitter-events.js";
import { newId } from "./ids.js";
import { commitInvocation } from "./invocation-commit.js";
import { maskSecrets, runnerProps, secretStrings, unsealProps } from "./source-props.js";
import { WORKFLOW_RUNS_TOPIC } from "./workflows/run-queue.js";

/** Everything an invocation needs of a source, read in one query. */
export interface RunnableSource {
  readonly id: string;
  readonly accountId: string;
  readonly componentId: string;
  readonly bundleHash: string;
  readonly definition: ComponentDefinition;
  /** Configured values, secrets unsealed. */
  readonly values: Record<string, unknown>;
  readonly endpointId: string | null;
  readonly timeoutSeconds: number;
  readonly active: boolean;
}

export interface InvocationRequest {
  readonly method: "run" | HookName;
  readonly event?: unknown;
  readonly onRespond?: (response: HttpResponse) => void;
  readonly notes?: readonly LogLine[];
}

export interface InvocationReport {
  readonly invocationId: string;
  readonly result: InvocationResult;
  readonly events: StoredEvent[];
}

export function endpointUrl(context: CoreContext, endpointId: string | null): string | null {
  return endpointId === null ? null : `${context.baseUrl}/e/${endpointId}`;
}

export function emitsTopic(sourceId: string): string {
  return `emits:${sourceId}`;
}

export function logsTopic(sourceId: string): string {
  return `logs:${sourceId}`;
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
      "components.bundle_hash",
      "components.definition",
    ]);
  query =
    "id" in by
      ? query.where("sources.id", "=", by.id)
      : query.where("sources.endpoint_id", "=", by.endpointId);
  const row = await query.executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    accountId: row.account_id,
    componentId: row.component_id,
    bundleHash: row.bundle_hash,
    definition: JSON.parse(row.definition) as ComponentDefinition,
    values: unsealProps(JSON.parse(row.configured_props) as Record<string, unknown>, context.secrets),
    endpointId: row.endpoint_id,
    timeoutSeconds: row.timeout_seconds,
    active: row.active === 1,
  };
}

/** Per source, the tail of its chain of invocations on this node. */
const chains = new Map<string, Promise<unknown>>();

/**
 * Runs one invocation of the source, after the ones already queued for it on this node: its
 * key-value state is read when its turn comes, so each invocation sees what the previous one
 * committed, and commits happen in invocation order.
 */
export function invokeSource(
  context: CoreContext,
  source: RunnableSource,
  request: InvocationRequest,
): Promise<InvocationReport> {
  const previous = chains.get(source.id) ?? Promise.resolve();
  const turn = previous.then(
    () => runInvocation(context, source, request),
    () => runInvocation(context, source, request),
  );
  chains.set(source.id, turn);
  const release = () => {
    if (chains.get(source.id) === turn) chains.delete(source.id);
  };
  turn.then(release, release);
  return turn;
}

async function runInvocation(
  context: CoreContext,
  source: RunnableSource,
  request: InvocationRequest,
): Promise<InvocationReport> {
  const invocationId = newId("inv");
  const kvRows = await context.store.db
    .selectFrom("kv")
    .select(["key", "value"])
    .where("emitter_id", "=", source.id)
    .execute();
  const db: Record<string, unknown> = {};
  for (const row of kvRows) db[row.key] = JSON.parse(row.value);

  const raw = await context.sandbox.invoke(
    {
      componentId: source.id,
      bundleHash: source.bundleHash,
      bundle: () => loadBundle(context, source.componentId),
    },
    {
      method: request.method,
      event: request.event,
      props: runnerProps(source.definition, source.values, endpointUrl(context, source.endpointId)),
      db,
      timeoutMs: source.timeoutSeconds * 1000,
      onRespond: request.onRespond,
    },
  );
  const secrets = secretStrings(source.definition, source.values);
  // Secrets never reach the logs or the caller, even when a component prints them.
  const result = secrets.length === 0 ? raw : scrubLogs(raw, secrets);
  const committed = await commitInvocation(context.store, {
    emitterId: source.id,
    accountId: source.accountId,
    invocationId,
    dedupe: source.definition.dedupe,
    result,
    notes: request.notes,
  });
  if (committed.events.length > 0) context.store.notifier.publish(emitsTopic(source.id));
  if (committed.deliveries > 0) context.store.notifier.publish(DELIVERIES_TOPIC);
  if (committed.logLines > 0) context.store.notifier.publish(logsTopic(source.id));
  if (committed.runs > 0) context.store.notifier.publish(WORKFLOW_RUNS_TOPIC);
  return { invocationId, result, events: committed.events };
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

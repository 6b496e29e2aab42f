/**
 * The invoker: one invocation of a deployed source, from loading what it needs to committing what
 * it did. Hooks and `run` go the same way: props and key-value state in, the sandbox's result
 * committed in one transaction, subscribers woken after the commit.
 */
import type { ComponentDefinition, HookName, PropDefinition } from "../runtime/component-definition.js";
import { failedResult } from "../runtime/sandbox/invocation-collector.js";
import type { HttpResponse, InvocationResult, LogLine } from "../runtime/sandbox/sandbox.js";
import { prepared } from "../store/prepared.js";
import type { Write } from "../store/write-together.js";
import { loadBundle } from "./components.js";
import type { CoreContext } from "./context.js";
import { dataStoreHandler } from "./data-store-props.js";
import { DELIVERIES_TOPIC } from "./delivery/enqueue.js";
import { withDynamicProps } from "./dynamic-props.js";
import type { StoredEvent } from "./emitter-events.js";
import { SluiceError } from "./errors.js";
import { newId } from "./ids.js";
import { type CommitOutcome, type CommitRequest, commitInvocationsShared } from "./invocation-commit.js";
import { resolvePropRefs } from "./prop-refs.js";
import { ownSource, type SourceOwnership } from "./source-ownership.js";
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
  return {
    id: row.id,
    accountId: row.account_id,
    componentId: row.component_id,
    bundleHash: row.bundle_hash,
    definition: withDynamicProps(
      JSON.parse(row.definition) as ComponentDefinition,
      row.dynamic_props === null ? null : (JSON.parse(row.dynamic_props) as PropDefinition[]),
    ),
    values: unsealProps(JSON.parse(row.configured_props) as Record<string, unknown>, context.secrets),
    endpointId: row.endpoint_id,
    timeoutSeconds: row.timeout_seconds,
    active: row.active === 1,
  };
}

/**
 * A source's invocations on this node: they run in the sandbox one after another, and their
 * commits follow in the same order. They are pipelined: an invocation is handed to the runner as
 * soon as the previous one is (up to PIPELINE_DEPTH runs ahead of the oldest still running), and
 * the runner runs them in that order, each on the key-value state the previous one left there.
 * An invocation does not wait for the previous one's commit either: its commit joins the queue,
 * and commits that queued up while the previous ones were being written go together, in one
 * transaction, so a busy source pays one disk flush for many invocations.
 */
interface Lane {
  /** The last invocation's turn. */
  last: Turn | undefined;
  /** The turns of the last PIPELINE_DEPTH invocations, oldest first. */
  readonly recent: Turn[];
  /**
   * The state as this node's finished runs left it (committed or queued); null: read it from
   * the database.
   */
  kv: Record<string, unknown> | null;
  /**
   * The runner holds the state as the runs handed to it leave it (it came with a run there): the
   * next run may be sent without it. A runner that turns out not to hold it (replaced meanwhile)
   * answers `notStarted`, and the run is sent again with it.
   */
  kvInRunner: boolean;
  readonly queue: QueuedCommit[];
  /** The commit queue is being written. */
  committing: boolean;
  /** Called when the queue is empty. */
  readonly drained: (() => void)[];
  /** Invocations not yet committed. */
  active: number;
  /** This node's hold on the source, across the cluster (core/source-ownership.ts). */
  readonly ownership: SourceOwnership;
}

interface QueuedCommit {
  readonly request: CommitRequest;
  readonly done: (outcome: CommitOutcome | { readonly error: unknown }) => void;
}

/** One invocation's place in its lane. */
interface Turn {
  /** Resolves once the invocation is in its runner's queue, or over. */
  readonly handedOver: Promise<void>;
  readonly handOver: () => void;
  /** Resolves once this invocation and every earlier one of the lane has run (and queued its commit). */
  readonly ran: Promise<void>;
  readonly end: () => void;
}

function nextTurn(previous: Turn | undefined): Turn {
  let handOver = () => {};
  let end = () => {};
  const handedOver = new Promise<void>((resolve) => {
    handOver = resolve;
  });
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  return {
    handedOver,
    handOver,
    ran: previous ? Promise.all([previous.ran, ended]).then(() => {}) : ended,
    end,
  };
}

/** Commits written in one transaction, at most. */
const MAX_COMMIT_BATCH = 64;

/**
 * Runs of one source handed to its runner ahead of the oldest still running, at most: they wait
 * there, and the runner starts each as the previous one ends, without a round trip through the
 * server's event loop. Each holds one of the runner's places (SOURCES_PER_RUNNER_IN_FLIGHT).
 */
const PIPELINE_DEPTH = 8;

/** A run the runner answered `notStarted` is sent again, at most this many times. */
const MAX_SENDS = 4;

/**
 * Invocations in flight at once in one shared runner, each of another source (a source's own
 * run one at a time, in its lane).
 */
const SOURCES_PER_RUNNER_IN_FLIGHT = 32;

/**
 * The runner a source runs in: one per account and bundle, shared by every source of that
 * account deployed from that code, each in a module instance of its own (`instance`: its id).
 * Two accounts never share a process.
 */
export function sharedRunnerKey(source: Pick<RunnableSource, "accountId" | "bundleHash">): string {
  return `src_${source.accountId}_${source.bundleHash}`;
}
const lanes = new Map<string, Lane>();

/**
 * The key-value state the last lane of a source left, by source id, with the hold it ran under
 * (core/source-ownership.ts). A lane under the same hold starts from it instead of reading it
 * again: a timer source's lane lasts one tick, and the read was a round trip per tick. Kept for
 * the most recently ended lanes, as many as a node keeps locks.
 */
const keptKv = new Map<string, KeptKv>();
const MAX_KEPT_KV = 1000;

interface KeptKv {
  readonly hold: object;
  readonly kv: Record<string, unknown>;
  /** The runner held it too (the lane's `kvInRunner`). */
  readonly inRunner: boolean;
}

function keepKv(sourceId: string, kept: KeptKv): void {
  keptKv.delete(sourceId);
  keptKv.set(sourceId, kept);
  if (keptKv.size > MAX_KEPT_KV) keptKv.delete(keptKv.keys().next().value as string);
}

/** The state kept for the source if it was left under `hold`, or null (read it then). */
function takeKeptKv(sourceId: string, hold: object): KeptKv | null {
  const kept = keptKv.get(sourceId);
  if (!kept) return null;
  keptKv.delete(sourceId);
  return kept.hold === hold ? kept : null;
}

/**
 * Runs one invocation of the source, after the ones already queued for it on this node, and
 * resolves once it is committed. Each invocation sees the key-value state the previous one
 * left, and commits happen in invocation order.
 */
export function invokeSource(
  context: CoreContext,
  source: RunnableSource,
  request: InvocationRequest,
): Promise<InvocationReport> {
  let lane = lanes.get(source.id);
  if (!lane) {
    const created: Lane = {
      last: undefined,
      recent: [],
      kv: null,
      kvInRunner: false,
      queue: [],
      committing: false,
      drained: [],
      active: 0,
      // Another node asked for the source: the next invocations here start a new lane, which
      // waits for the source's lock like theirs, while this one finishes what it has.
      ownership: ownSource(context.store, source.id, () => {
        if (lanes.get(source.id) === created) lanes.delete(source.id);
      }),
    };
    const kept = takeKeptKv(source.id, created.ownership.hold);
    if (kept) {
      created.kv = kept.kv;
      created.kvInRunner = kept.inRunner;
    }
    lanes.set(source.id, created);
    lane = created;
  }
  const current = lane;
  current.active++;
  const report = takeTurn(context, source, request, current);
  const release = () => {
    if (--current.active > 0) return;
    if (lanes.get(source.id) === current) lanes.delete(source.id);
    // Run and committed: the next owner on another node reads the state afresh; the next lane
    // here, under the same hold, starts from what this one left.
    const { kv, kvInRunner, ownership } = current;
    if (kv !== null) keepKv(source.id, { hold: ownership.hold, kv, inRunner: kvInRunner });
    current.ownership.release();
  };
  report.then(release, release);
  return report;
}

/** Runs the invocation in its turn, then queues its commit after the earlier ones'. */
async function takeTurn(
  context: CoreContext,
  source: RunnableSource,
  request: InvocationRequest,
  lane: Lane,
): Promise<InvocationReport> {
  const previous = lane.last;
  const mine = nextTurn(previous);
  lane.last = mine;
  // The run this one may not be handed over before it ends: PIPELINE_DEPTH places back.
  const window = lane.recent.length < PIPELINE_DEPTH ? undefined : lane.recent.shift();
  lane.recent.push(mine);
  try {
    const invocation = await runInSandbox(context, source, request, lane, { previous, window, mine });
    // One that ended without reaching a runner (a hook it lacks, props that do not resolve) is
    // over: the next may go once the earlier ones have.
    await previous?.handedOver;
    mine.handOver();
    await previous?.ran;
    const writes = Object.entries(invocation.result.dbWrites);
    // As the commit stores them (undefined as null), and as the next run would read them back.
    if (writes.length > 0 && lane.kv !== null)
      lane.kv = { ...lane.kv, ...Object.fromEntries(writes.map(([key, value]) => [key, value ?? null])) };
    const committed = commitInTurn(context, source, request, lane, invocation);
    mine.end();
    return await committed;
  } finally {
    mine.handOver();
    mine.end();
  }
}

async function runInSandbox(
  context: CoreContext,
  source: RunnableSource,
  request: InvocationRequest,
  lane: Lane,
  turns: { readonly previous: Turn | undefined; readonly window: Turn | undefined; readonly mine: Turn },
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
  const { previous, window, mine } = turns;
  await previous?.handedOver;
  await window?.ran;
  const spec = {
    componentId: sharedRunnerKey(source),
    bundleHash: source.bundleHash,
    bundle: () => loadBundle(context, source.componentId),
    concurrency: SOURCES_PER_RUNNER_IN_FLIGHT,
  };
  const props = runnerProps(source.definition, values, endpointUrl(context, source.endpointId));
  for (let sends = 1; ; sends++) {
    const db =
      lane.kvInRunner && lane.kv !== null ? undefined : await kvToSend(context, source.id, lane, previous);
    const raw = await context.sandbox.invoke(spec, {
      instance: source.id,
      method: request.method,
      event: request.event,
      props,
      ...(db === undefined ? {} : { db }),
      timeoutMs: source.timeoutSeconds * 1000,
      onDataStore: dataStoreHandler(context, source.definition, values),
      onRespond: request.onRespond,
      onSent: () => {
        if (db !== undefined) lane.kvInRunner = true;
        mine.handOver();
      },
    });
    if (raw.notStarted && sends < MAX_SENDS) {
      // Its runner went down, or never held the state: again, with the state.
      lane.kvInRunner = false;
      continue;
    }
    const secrets = secretStrings(source.definition, values);
    // Secrets never reach the logs or the caller, even when a component prints them.
    return { invocationId, result: secrets.length === 0 ? raw : scrubLogs(raw, secrets) };
  }
}

/**
 * The state a run is sent with when the runner may not hold it: what the earlier runs left,
 * once they have run, or the database's.
 */
async function kvToSend(
  context: CoreContext,
  sourceId: string,
  lane: Lane,
  previous: Turn | undefined,
): Promise<Record<string, unknown>> {
  await previous?.ran;
  if (lane.kv === null) {
    // Once no other node runs the source, and what this node queued is written: then the database
    // holds what the last invocation left, wherever it ran.
    await lane.ownership.acquired;
    await drained(lane);
    lane.kv = await readKv(context, sourceId);
  }
  return lane.kv;
}

async function commitInTurn(
  context: CoreContext,
  source: RunnableSource,
  request: InvocationRequest,
  lane: Lane,
  { invocationId, result }: { invocationId: string; result: InvocationResult },
): Promise<InvocationReport> {
  const outcome = await new Promise<CommitOutcome | { readonly error: unknown }>((done) => {
    lane.queue.push({
      request: {
        emitterId: source.id,
        accountId: source.accountId,
        invocationId,
        dedupe: source.definition.dedupe,
        result,
        notes: request.notes,
        alsoWrites: request.alsoWrites,
      },
      done,
    });
    if (!lane.committing) void writeQueue(context, lane);
  });
  if ("error" in outcome) throw outcome.error;
  const { store } = context;
  if (outcome.events.length > 0) store.notifier.publish(emitsTopic(source.id));
  if (outcome.deliveries > 0) store.notifier.publish(DELIVERIES_TOPIC, outcome.webhooks);
  if (outcome.logLines > 0) store.notifier.publish(logsTopic(source.id));
  if (outcome.runs > 0) store.notifier.publish(WORKFLOW_RUNS_TOPIC);
  return { invocationId, result, events: outcome.events };
}

/** Writes the queued commits, a batch at a time, until none is left. */
async function writeQueue(context: CoreContext, lane: Lane): Promise<void> {
  lane.committing = true;
  try {
    while (lane.queue.length > 0) {
      const batch = lane.queue.splice(0, MAX_COMMIT_BATCH);
      const outcomes = await commitInvocationsShared(
        context.store,
        batch.map((queued) => queued.request),
      ).catch((error: unknown) => batch.map(() => ({ error })));
      batch.forEach((queued, index) => {
        const outcome = outcomes[index] ?? { error: new Error("no outcome") };
        // A commit that failed leaves this node's state unknown: the next run reads it afresh,
        // and is sent with it.
        if ("error" in outcome) {
          lane.kv = null;
          lane.kvInRunner = false;
        }
        queued.done(outcome);
      });
    }
  } finally {
    lane.committing = false;
    for (const wake of lane.drained.splice(0)) wake();
  }
}

function drained(lane: Lane): Promise<void> {
  if (!lane.committing && lane.queue.length === 0) return Promise.resolve();
  return new Promise((resolve) => lane.drained.push(resolve));
}

/** A source's key-value state, as its invocations read it (prepared: store/prepared.ts). */
const kvOf = prepared<{ id: string }, { key: string; value: string }>(
  (creator, source) => creator.selectFrom("kv").select(["key", "value"]).where("emitter_id", "=", source.id),
  { reusePlan: true },
);

async function readKv(context: CoreContext, sourceId: string): Promise<Record<string, unknown>> {
  const { store } = context;
  const rows = await kvOf.execute(store.db, store.capabilities.name, { id: sourceId });
  const db: Record<string, unknown> = {};
  for (const row of rows) db[row.key] = JSON.parse(row.value);
  return db;
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

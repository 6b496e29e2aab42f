/**
 * A source's lane on this node (core/sources/invoker.ts runs every invocation of a source through it):
 * the order of its invocations, the key-value state they carry, and its commit queue.
 *
 * The invocations are pipelined: one is handed to the runner as soon as the previous one is (up
 * to PIPELINE_DEPTH ahead of the oldest still running), and the runner runs them in that order,
 * each on the key-value state the previous one left there (runtime/sandbox/runner.ts), so a busy
 * source's runs follow each other without a round trip through the server's event loop. An
 * invocation does not wait for the previous one's commit either: its commit joins the queue, and
 * commits that queued up while the previous ones were being written go together, in one
 * transaction, so a busy source pays one disk flush for many invocations.
 */
import { prepared } from "../../store/prepared.js";
import type { CoreContext } from "../context.js";
import { type CommitOutcome, type CommitRequest, commitInvocationsShared } from "./invocation-commit.js";
import { ownSource, type SourceOwnership } from "./ownership.js";

export interface Lane {
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
  /** This node's hold on the source, across the cluster (core/sources/ownership.ts). */
  readonly ownership: SourceOwnership;
}

interface QueuedCommit {
  readonly request: CommitRequest;
  readonly done: (outcome: CommitOutcome | { readonly error: unknown }) => void;
}

/** One invocation's place in its lane. */
export interface Turn {
  /** Resolves once the invocation is in its runner's queue, or over. */
  readonly handedOver: Promise<void>;
  readonly handOver: () => void;
  /** Resolves once this invocation and every earlier one of the lane has run (and queued its commit). */
  readonly ran: Promise<void>;
  readonly end: () => void;
}

/** Where an invocation stands in its lane. */
export interface Place {
  /** The invocation before it, if any. */
  readonly previous: Turn | undefined;
  /** The one PIPELINE_DEPTH places back: this one is not handed over before it has run. */
  readonly window: Turn | undefined;
  readonly mine: Turn;
}

/** Commits written in one transaction, at most. */
const MAX_COMMIT_BATCH = 64;

/**
 * Runs of one source handed to its runner ahead of the oldest still running, at most: they wait
 * there, and the runner starts each as the previous one ends. Each holds one of the runner's
 * places (SOURCES_PER_RUNNER_IN_FLIGHT in core/sources/invoker.ts), so a busy source leaves the others
 * of its runner half of them. Measured with invokes sent together (invoke-outbox.ts): 8 left the
 * runner idle while the next ones gathered (a batch in, a batch back, in lock-step); 32 gave
 * 8,155 req/s against 7,403 at 16 for one source at 50 connections; 64 was no better.
 */
const PIPELINE_DEPTH = 32;

const lanes = new Map<string, Lane>();

/**
 * The key-value state the last lane of a source left, by source id, with the hold it ran under
 * (core/sources/ownership.ts). A lane under the same hold starts from it instead of reading it
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
 * Joins the source's lane on this node, opening one if it has none, and takes the next place in
 * it. `leave` once the invocation is committed (or failed).
 */
export function joinLane(
  context: CoreContext,
  sourceId: string,
): { readonly lane: Lane; readonly place: Place; readonly leave: () => void } {
  let lane = lanes.get(sourceId);
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
      ownership: ownSource(context.store, sourceId, () => {
        if (lanes.get(sourceId) === created) lanes.delete(sourceId);
      }),
    };
    const kept = takeKeptKv(sourceId, created.ownership.hold);
    if (kept) {
      created.kv = kept.kv;
      created.kvInRunner = kept.inRunner;
    }
    lanes.set(sourceId, created);
    lane = created;
  }
  const current = lane;
  current.active++;
  const leave = () => {
    if (--current.active > 0) return;
    if (lanes.get(sourceId) === current) lanes.delete(sourceId);
    // Run and committed: the next owner on another node reads the state afresh; the next lane
    // here, under the same hold, starts from what this one left.
    const { kv, kvInRunner, ownership } = current;
    if (kv !== null) keepKv(sourceId, { hold: ownership.hold, kv, inRunner: kvInRunner });
    current.ownership.release();
  };
  return { lane: current, place: nextPlace(current), leave };
}

function nextPlace(lane: Lane): Place {
  const previous = lane.last;
  let handOver = () => {};
  let end = () => {};
  const handedOver = new Promise<void>((resolve) => {
    handOver = resolve;
  });
  const ended = new Promise<void>((resolve) => {
    end = resolve;
  });
  const ran = previous ? Promise.all([previous.ran, ended]).then(() => {}) : ended;
  const mine: Turn = { handedOver, handOver, ran, end };
  lane.last = mine;
  const window = lane.recent.length < PIPELINE_DEPTH ? undefined : lane.recent.shift();
  lane.recent.push(mine);
  return { previous, window, mine };
}

/**
 * The state a run is sent with: none when the runner holds it (it carries it from the earlier
 * runs), else what the earlier runs left, once they have run, or the database's.
 */
export async function kvToSend(
  context: CoreContext,
  sourceId: string,
  lane: Lane,
  previous: Turn | undefined,
): Promise<Record<string, unknown> | undefined> {
  if (lane.kvInRunner && lane.kv !== null) return undefined;
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

/** The run was handed to the runner: with its state, the runner holds it from now on. */
export function handedOver(lane: Lane, place: Place, sentState: boolean): void {
  if (sentState) lane.kvInRunner = true;
  place.mine.handOver();
}

/** The runner answered `notStarted`: it does not hold the state; the run goes again with it. */
export function notHeld(lane: Lane): void {
  lane.kvInRunner = false;
}

/** Adds a run's `db.set`s to the lane's copy of the state, in run order (after the earlier runs'). */
export function addWrites(lane: Lane, dbWrites: Readonly<Record<string, unknown>>): void {
  const writes = Object.entries(dbWrites);
  // As the commit stores them (undefined as null), and as the next run would read them back.
  if (writes.length > 0 && lane.kv !== null)
    lane.kv = { ...lane.kv, ...Object.fromEntries(writes.map(([key, value]) => [key, value ?? null])) };
}

/**
 * Queues the commit after the lane's earlier ones, and resolves with its outcome once it is
 * written; rejects when it failed (the lane then reads the state afresh).
 */
export async function queueCommit(
  context: CoreContext,
  lane: Lane,
  request: CommitRequest,
): Promise<CommitOutcome> {
  const outcome = await new Promise<CommitOutcome | { readonly error: unknown }>((done) => {
    lane.queue.push({ request, done });
    if (!lane.committing) void writeQueue(context, lane);
  });
  if ("error" in outcome) throw outcome.error;
  return outcome;
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

/**
 * The lanes of this node's sources: every invocation of a source runs through its lane, which
 * keeps their order, the key-value state they carry and their commit queue (ARCHITECTURE.md
 * beside this file states the invariants). The core context owns one `SourceLanes`; the invoker
 * calls `invoke` once per invocation.
 *
 * Invocations are pipelined: one is handed to the runner as soon as the previous one is, and the
 * runner runs them in that order on the state the previous one left there. Commits that queue up
 * while earlier ones are written go together, in one transaction.
 */
// Kysely here, not in the store: one plain prepared read of the source's key-value rows.
import { prepared } from "../../store/prepared.js";
import type { Store } from "../../store/store.js";
import { type CommitOutcome, type CommitRequest, commitInvocationsShared } from "./invocation-commit.js";
import { SourceHolds, type SourceOwnership } from "./ownership.js";

/** Commits written in one transaction, at most. */
const MAX_COMMIT_BATCH = 64;

/**
 * Runs of one source handed to its runner ahead of the oldest still running, at most: enough to
 * keep the runner busy without a round trip per run, few enough to leave the runner's other
 * sources room (SOURCES_PER_RUNNER_IN_FLIGHT in invoker.ts).
 */
const PIPELINE_DEPTH = 32;

/** Ended lanes whose key-value state is kept for the next lane under the same hold. */
const MAX_KEPT_KV = 1000;

/** What an invocation does in its lane: the run, and the commit of what it did. */
export interface LaneWork<R> {
  /** Runs the invocation through `slot`; `dbWrites` are its `db.set`s, in order. */
  readonly run: (
    slot: LaneSlot,
  ) => Promise<{ readonly ran: R; readonly dbWrites: Readonly<Record<string, unknown>> }>;
  /** The commit of what it did, queued after the lane's earlier ones. */
  readonly commit: (ran: R) => CommitRequest;
}

/** An invocation's place in its lane, as its run sees it. */
export interface LaneSlot {
  /** Resolves once the invocation may be handed to its runner. */
  readonly turn: () => Promise<void>;
  /**
   * The state to send with the run: none when the runner holds it already, else what the
   * earlier runs left, or the database's.
   */
  readonly stateToSend: () => Promise<Record<string, unknown> | undefined>;
  /** The run is in the runner's queue; sent with the state, the runner holds it from now on. */
  readonly handedOver: (sentState: boolean) => void;
  /** The runner answered `notStarted`: it does not hold the state; the run goes again with it. */
  readonly notHeld: () => void;
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

interface Place {
  /** The invocation before it, if any. */
  readonly previous: Turn | undefined;
  /** The one PIPELINE_DEPTH places back: this one is not handed over before it has run. */
  readonly window: Turn | undefined;
  readonly mine: Turn;
}

interface QueuedCommit {
  readonly request: CommitRequest;
  readonly done: (outcome: CommitOutcome | { readonly error: unknown }) => void;
}

interface KeptKv {
  readonly hold: object;
  readonly kv: Record<string, unknown>;
  /** The runner held it too (the lane's `kvInRunner`). */
  readonly inRunner: boolean;
}

export class SourceLanes {
  private readonly lanes = new Map<string, Lane>();
  /**
   * The state the last lane of a source left, with the hold it ran under: a lane under the same
   * hold starts from it instead of reading it again (a timer source's lane lasts one tick).
   */
  private readonly keptKv = new Map<string, KeptKv>();
  /** This node's holds on its sources across the cluster. */
  private readonly holds: SourceHolds;

  constructor(private readonly store: Store) {
    this.holds = new SourceHolds(store);
  }

  /**
   * Runs one invocation of the source after the ones already in its lane on this node, and
   * resolves once it is committed: each sees the state the previous one left, and commits
   * happen in invocation order.
   */
  async invoke<R>(
    sourceId: string,
    work: LaneWork<R>,
  ): Promise<{ readonly ran: R; readonly outcome: CommitOutcome }> {
    const lane = this.join(sourceId);
    try {
      return await lane.take(work);
    } finally {
      this.leave(sourceId, lane);
    }
  }

  private join(sourceId: string): Lane {
    let lane = this.lanes.get(sourceId);
    if (!lane) {
      const created: Lane = new Lane(
        this.store,
        sourceId,
        // Another node asked for the source: the next invocations here start a new lane, which
        // waits for the source's lock like theirs, while this one finishes what it has.
        this.holds.own(sourceId, () => {
          if (this.lanes.get(sourceId) === created) this.lanes.delete(sourceId);
        }),
      );
      const kept = this.takeKeptKv(sourceId, created.ownership.hold);
      if (kept) created.startFrom(kept.kv, kept.inRunner);
      this.lanes.set(sourceId, created);
      lane = created;
    }
    lane.active++;
    return lane;
  }

  private leave(sourceId: string, lane: Lane): void {
    if (--lane.active > 0) return;
    if (this.lanes.get(sourceId) === lane) this.lanes.delete(sourceId);
    // Run and committed: the next owner on another node reads the state afresh; the next lane
    // here, under the same hold, starts from what this one left.
    const { kv, kvInRunner, ownership } = lane;
    if (kv !== null) this.keepKv(sourceId, { hold: ownership.hold, kv, inRunner: kvInRunner });
    ownership.release();
  }

  private keepKv(sourceId: string, kept: KeptKv): void {
    this.keptKv.delete(sourceId);
    this.keptKv.set(sourceId, kept);
    if (this.keptKv.size > MAX_KEPT_KV) this.keptKv.delete(this.keptKv.keys().next().value as string);
  }

  private takeKeptKv(sourceId: string, hold: object): KeptKv | null {
    const kept = this.keptKv.get(sourceId);
    if (!kept) return null;
    this.keptKv.delete(sourceId);
    return kept.hold === hold ? kept : null;
  }
}

/** A source's lane on this node. */
class Lane {
  /** Invocations not yet committed. */
  active = 0;
  /** The state as this node's finished runs left it (committed or queued); null: read it from the database. */
  kv: Record<string, unknown> | null = null;
  /**
   * The runner holds the state as the runs handed to it leave it: the next run may be sent
   * without it. A runner that turns out not to hold it answers `notStarted`.
   */
  kvInRunner = false;
  private last: Turn | undefined;
  /** The turns of the last PIPELINE_DEPTH invocations, oldest first. */
  private readonly recent: Turn[] = [];
  private readonly queue: QueuedCommit[] = [];
  private committing = false;
  private readonly drained: (() => void)[] = [];

  constructor(
    private readonly store: Store,
    private readonly sourceId: string,
    /** This node's hold on the source, across the cluster (ownership.ts). */
    readonly ownership: SourceOwnership,
  ) {}

  startFrom(kv: Record<string, unknown>, inRunner: boolean): void {
    this.kv = kv;
    this.kvInRunner = inRunner;
  }

  /** Takes the next place, runs the work in it, then queues its commit after the earlier ones'. */
  async take<R>(work: LaneWork<R>): Promise<{ readonly ran: R; readonly outcome: CommitOutcome }> {
    const { previous, window, mine } = this.nextPlace();
    try {
      const { ran, dbWrites } = await work.run({
        turn: async () => {
          await previous?.handedOver;
          await window?.ran;
        },
        stateToSend: () => this.stateToSend(previous),
        handedOver: (sentState) => {
          if (sentState) this.kvInRunner = true;
          mine.handOver();
        },
        notHeld: () => {
          this.kvInRunner = false;
        },
      });
      // One that ended without reaching a runner (a hook it lacks, props that do not resolve) is
      // over: the next may go once the earlier ones have.
      await previous?.handedOver;
      mine.handOver();
      await previous?.ran;
      this.addWrites(dbWrites);
      const committed = this.queueCommit(work.commit(ran));
      mine.end();
      return { ran, outcome: await committed };
    } finally {
      mine.handOver();
      mine.end();
    }
  }

  private nextPlace(): Place {
    const previous = this.last;
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
    this.last = mine;
    const window = this.recent.length < PIPELINE_DEPTH ? undefined : this.recent.shift();
    this.recent.push(mine);
    return { previous, window, mine };
  }

  private async stateToSend(previous: Turn | undefined): Promise<Record<string, unknown> | undefined> {
    if (this.kvInRunner && this.kv !== null) return undefined;
    await previous?.ran;
    if (this.kv === null) {
      // Once no other node runs the source, and what this node queued is written: then the
      // database holds what the last invocation left, wherever it ran.
      await this.ownership.acquired;
      await this.whenDrained();
      this.kv = await this.readKv();
    }
    return this.kv;
  }

  /** Adds a run's `db.set`s to the lane's copy of the state, in run order. */
  private addWrites(dbWrites: Readonly<Record<string, unknown>>): void {
    const writes = Object.entries(dbWrites);
    // As the commit stores them (undefined as null), and as the next run would read them back.
    if (writes.length > 0 && this.kv !== null)
      this.kv = { ...this.kv, ...Object.fromEntries(writes.map(([key, value]) => [key, value ?? null])) };
  }

  /** Resolves with the commit's outcome once written; rejects when it failed. */
  private async queueCommit(request: CommitRequest): Promise<CommitOutcome> {
    const outcome = await new Promise<CommitOutcome | { readonly error: unknown }>((done) => {
      this.queue.push({ request, done });
      if (!this.committing) void this.writeQueue();
    });
    if ("error" in outcome) throw outcome.error;
    return outcome;
  }

  /** Writes the queued commits, a batch at a time, until none is left. */
  private async writeQueue(): Promise<void> {
    this.committing = true;
    try {
      while (this.queue.length > 0) {
        const batch = this.queue.splice(0, MAX_COMMIT_BATCH);
        const outcomes = await commitInvocationsShared(
          this.store,
          batch.map((queued) => queued.request),
        ).catch((error: unknown) => batch.map(() => ({ error })));
        batch.forEach((queued, index) => {
          const outcome = outcomes[index] ?? { error: new Error("no outcome") };
          // A commit that failed leaves this node's state unknown: the next run reads it afresh.
          if ("error" in outcome) {
            this.kv = null;
            this.kvInRunner = false;
          }
          queued.done(outcome);
        });
      }
    } finally {
      this.committing = false;
      for (const wake of this.drained.splice(0)) wake();
    }
  }

  private whenDrained(): Promise<void> {
    if (!this.committing && this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.drained.push(resolve));
  }

  private async readKv(): Promise<Record<string, unknown>> {
    const rows = await kvOf.execute(this.store, { id: this.sourceId });
    const db: Record<string, unknown> = {};
    for (const row of rows) db[row.key] = JSON.parse(row.value);
    return db;
  }
}

/** A source's key-value state, as its invocations read it (prepared: store/prepared.ts). */
const kvOf = prepared<{ id: string }, { key: string; value: string }>(
  (creator, source) => creator.selectFrom("kv").select(["key", "value"]).where("emitter_id", "=", source.id),
  { reusePlan: true },
);

/**
 * One node at a time runs a source, so that each invocation sees the state the last one left
 * across the cluster: a lane's node holds the source's cluster lock until its lane has run and
 * committed everything. A busy source is handed over when another node asks for it; a lock whose
 * lanes are done is kept a while (LINGER_MS, MAX_KEPT), so a source that runs again soon costs no
 * lock round trips. In the embedded mode every lock is granted (ARCHITECTURE.md).
 */
import type { Store } from "../../store/store.js";

/** How long a node waits for a source's lock between tries, at most, when no release is announced. */
const RETRY_MAX_MS = 200;
const RETRY_MIN_MS = 10;
/**
 * After handing a source over, this node's next lane of it waits this long before trying the
 * lock, so the node that asked (told at once by `source-freed`) gets it rather than the same node
 * taking it straight back.
 */
const HANDOVER_GRACE_MS = 50;
/** A lock no lane uses is kept this long for the next invocation on this node. */
const LINGER_MS = 30_000;
/**
 * Unused locks a node keeps at most. Each is an entry in PostgreSQL's shared lock table
 * (max_locks_per_transaction × max_connections entries, 6,400 by default, for every node).
 */
const MAX_KEPT = 1000;

export interface SourceOwnership {
  /** Resolves when this node holds the source; then `release` once its lane is done. */
  readonly acquired: Promise<void>;
  /**
   * This node's unbroken hold on the source: the same object for every lane while the node keeps
   * the source's lock between them (a lingering lock), another once the lock was freed. So state
   * a lane left under one hold is still the database's for the next lane under the same one: no
   * other node ran the source in between.
   */
  readonly hold: object;
  release(): void;
}

/** What happens on this node when another node asks for a source it holds. */
type HandoverListener = () => void;

interface NodeState {
  /** The node's holds, by source id: how many lanes share it (a lane being handed over and its successor). */
  readonly holds: Map<string, Hold>;
  /** Holds no lane uses, kept for the next one: least recently used first. */
  readonly kept: Set<Hold>;
}

interface Hold {
  readonly sourceId: string;
  acquired: Promise<void>;
  /** Resolves once the hold's lock is freed (its last user released it). */
  readonly freed: Promise<void>;
  markFreed(): void;
  users: number;
  /** Another node asked for the source: freed as soon as the last user releases it. */
  wanted: boolean;
  /** The lock was taken (a hold whose taking failed is dropped, never kept). */
  locked: boolean;
  /** Frees a kept hold after LINGER_MS. */
  lingering: NodeJS.Timeout | undefined;
  /** `free` ran: a hold is freed once (each unlock undoes one lock of the session). */
  done: boolean;
  readonly onWanted: Set<HandoverListener>;
  unsubscribe: () => void;
}

const lockKey = (sourceId: string) => `sluice:source:${sourceId}`;
const wantedTopic = (sourceId: string) => `source-wanted:${sourceId}`;
const freedTopic = (sourceId: string) => `source-freed:${sourceId}`;

/**
 * This node's holds on its sources across the cluster. The source lanes own one, so two servers
 * in one process never share a hold.
 */
export class SourceHolds {
  /** In the embedded mode one process runs every source of its store: its hold never breaks. */
  private readonly embeddedHold = {};
  private state: NodeState | undefined;

  constructor(private readonly store: Store) {}

  /**
   * Takes the source for a lane of this node; `onWanted` is called (once) if another node asks for
   * it while the lane holds it, so the lane takes no more invocations.
   */
  own(sourceId: string, onWanted: HandoverListener): SourceOwnership {
    const { store } = this;
    if (store.capabilities.singleProcess)
      return { acquired: Promise.resolve(), hold: this.embeddedHold, release: () => {} };
    const state = this.nodeState();
    let hold = state.holds.get(sourceId);
    if (!hold || hold.wanted) hold = this.take(state, sourceId, hold);
    const current = hold;
    if (state.kept.delete(current)) {
      clearTimeout(current.lingering);
      current.lingering = undefined;
    }
    current.users++;
    current.onWanted.add(onWanted);
    let released = false;
    return {
      acquired: current.acquired,
      hold: current,
      release() {
        if (released) return;
        released = true;
        current.onWanted.delete(onWanted);
        if (--current.users > 0) return;
        if (current.wanted || !current.locked) free(store, state, current);
        else keep(store, state, current);
      },
    };
  }

  /** None yet, or the one there is being handed over: a new hold queues for the lock again, after it. */
  private take(state: NodeState, sourceId: string, previous: Hold | undefined): Hold {
    const { store } = this;
    let markFreed = () => {};
    const created: Hold = {
      sourceId,
      acquired: Promise.resolve(),
      freed: new Promise<void>((resolve) => {
        markFreed = resolve;
      }),
      markFreed: () => markFreed(),
      users: 0,
      wanted: false,
      locked: false,
      lingering: undefined,
      done: false,
      onWanted: new Set(),
      unsubscribe: () => {},
    };
    const turn = previous ? previous.freed.then(() => sleep(HANDOVER_GRACE_MS)) : Promise.resolve();
    created.acquired = turn
      .then(() => lock(store, sourceId))
      .then(() => {
        created.locked = true;
        created.unsubscribe = store.notifier.subscribe(wantedTopic(sourceId), () => {
          if (created.wanted) return;
          created.wanted = true;
          for (const listener of created.onWanted) listener();
          // Kept with no lane using it: handed over at once.
          if (created.users === 0) free(store, state, created);
        });
      });
    state.holds.set(sourceId, created);
    return created;
  }

  private nodeState(): NodeState {
    if (this.state) return this.state;
    const created: NodeState = { holds: new Map(), kept: new Set() };
    // A broken lock connection freed every lock: the next lane of each source takes it again.
    this.store.locks.onLost(() => {
      for (const hold of created.kept) clearTimeout(hold.lingering);
      created.kept.clear();
      created.holds.clear();
    });
    this.state = created;
    return created;
  }
}

/** Keeps an unused hold for LINGER_MS, freeing the least recently used beyond MAX_KEPT. */
function keep(store: Store, state: NodeState, hold: Hold): void {
  state.kept.add(hold);
  hold.lingering = setTimeout(() => free(store, state, hold), LINGER_MS);
  hold.lingering.unref();
  for (const oldest of state.kept) {
    if (state.kept.size <= MAX_KEPT) break;
    free(store, state, oldest);
  }
}

/** Frees the hold's lock (announcing it when another node asked), once it was taken. */
function free(store: Store, state: NodeState, hold: Hold): void {
  if (hold.done) return;
  hold.done = true;
  state.kept.delete(hold);
  clearTimeout(hold.lingering);
  hold.lingering = undefined;
  hold.unsubscribe();
  if (state.holds.get(hold.sourceId) === hold) state.holds.delete(hold.sourceId);
  void hold.acquired
    .then(async () => {
      await store.locks.unlock(lockKey(hold.sourceId)).catch(() => {});
      if (hold.wanted) store.notifier.publish(freedTopic(hold.sourceId));
    })
    .catch(() => {})
    .finally(() => hold.markFreed());
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Takes the source's lock, asking its holder for it and waiting, as long as another node holds it. */
async function lock(store: Store, sourceId: string): Promise<void> {
  let wait = RETRY_MIN_MS;
  for (;;) {
    if (await store.locks.tryLock(lockKey(sourceId))) return;
    store.notifier.publish(wantedTopic(sourceId));
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, wait);
      const unsubscribe = store.notifier.subscribe(freedTopic(sourceId), done);
      function done() {
        clearTimeout(timer);
        unsubscribe();
        resolve();
      }
    });
    wait = Math.min(RETRY_MAX_MS, wait * 2);
  }
}

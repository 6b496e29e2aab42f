/**
 * The jobs table's contract: a durable queue inside the database, and so the transactional
 * outbox. A job is enqueued in the caller's transaction, so it exists exactly when the work that
 * caused it was committed. Workers claim due jobs under a lease; a worker that dies simply lets its
 * lease expire and the job is claimed again. Delivery is therefore at-least-once.
 *
 * Each operation is a file of its own beside this one; store/jobs/job-queue.ts puts them together.
 */
import type { StoreTransaction } from "../transaction.js";
import type { Write } from "../write.js";
import type { DeliveryRow, ReadAlong } from "./read-along.js";

export type { DeliveryRow, ReadAlong } from "./read-along.js";

export interface NewJob {
  readonly queue: string;
  readonly payload: unknown;
  /** Epoch ms when the job becomes due; now when omitted. */
  readonly runAt?: number;
  /** At most one job with this key exists; enqueueing another is a no-op. */
  readonly uniqueKey?: string;
  /** The group the job belongs to (a webhook, say), for claimers that limit work per group. */
  readonly groupKey?: string;
  /**
   * Enqueue the job already claimed by the caller, who starts on it at once (an HTTP request
   * waiting for its result, say). If the caller dies, the lease expires and a worker takes it up.
   * With `waitsForTurn` the caller starts only once `takeTurn` says so (its group has a cap held
   * across nodes): until then the job is held but not started, and counts no attempt.
   */
  readonly claim?: { readonly leaseToken: string; readonly leaseMs: number; readonly waitsForTurn?: boolean };
}

/** What `takeTurn` found: the job may start now, must wait, or is no longer held by the lease. */
export type Turn = "started" | "waiting" | "lost";

/** Proof of a claim: complete, fail and extend succeed only while the claim still holds the job. */
export interface Lease {
  readonly id: string;
  readonly leaseToken: string;
}

export interface ClaimedJob extends Lease {
  readonly queue: string;
  readonly payload: unknown;
  readonly uniqueKey: string | null;
  readonly groupKey: string | null;
  readonly runAt: number;
  /** Counts this claim: 1 on the first attempt. */
  readonly attempts: number;
  readonly lockedUntil: number;
  readonly lastError: string | null;
  /** What the claim's or hand-off's `readAlong` read with the job, when it did and found it. */
  readonly readAlong?: DeliveryRow;
}

export interface ClaimOptions {
  readonly queue: string;
  readonly limit: number;
  readonly leaseMs: number;
  /** For tests that control time; defaults to the clock. */
  readonly now?: number;
  /** Groups to leave out of this claim (those the claimer has enough of in flight). */
  readonly excludeGroups?: readonly string[];
  /**
   * Only jobs of these groups (a claim woken by the announcement of their new jobs): each
   * group's first due jobs are read from its own index, so the claim costs the same whatever
   * other groups have waiting. Jobs of other groups and without a group wait for a claim
   * without it.
   */
  readonly onlyGroups?: readonly string[];
  /**
   * At most this many jobs of one group in flight (leased) at once, across every claimer of the
   * queue on every node: a number for every group, or a column holding each group's own cap
   * (a group without a row there gets 1). Claims of the queue are serialized for it on
   * PostgreSQL (an advisory lock for the claim's transaction); SQLite has one writer anyway.
   */
  readonly groupLimit?: number | GroupLimitColumn;
  /**
   * What to read with each job, in the claim's own statement instead of a round trip per job
   * after it (PostgreSQL, capped claims); it comes back as the job's `readAlong`. Elsewhere it
   * is ignored, and the worker reads for itself.
   */
  readonly readAlong?: ReadAlong;
}

/** A hand-off (`JobQueue.takeNext`): what commits with the finished job's end, and the lease taken. */
export interface TakeNextOptions {
  /** The finished job's end (`endWrite`) and the caller's writes, committed all or none with the take. */
  readonly writes: readonly Write[];
  readonly leaseMs: number;
  /** For tests that control time; defaults to the clock. */
  readonly now?: number;
  /** What to read with the job taken, in the same statement where it costs nothing more (PostgreSQL). */
  readonly readAlong?: ReadAlong;
  /**
   * May commit in one transaction with other hand-offs ending meanwhile (PostgreSQL), when all its
   * writes are prepared ones: a transaction fewer each, while others are in flight.
   */
  readonly together?: boolean;
}

/** Where each group's cap is kept: `table.limitColumn` of the row whose `idColumn` is the group key. */
export interface GroupLimitColumn {
  readonly table: "workflows";
  readonly idColumn: "id";
  readonly limitColumn: "concurrency";
}

export interface JobQueue {
  /** Adds a job, in `tx` (the caller's transaction) when given. Returns its id, or null if `uniqueKey` exists. */
  enqueue(job: NewJob, tx?: StoreTransaction): Promise<string | null>;
  /** Adds many jobs (without unique keys or claims), in `tx` when given, 500 to a statement. */
  enqueueMany(jobs: readonly NewJob[], tx?: StoreTransaction): Promise<void>;
  /** The writes that add `jobs` (without unique keys or claims), for a caller that writes them with its own. */
  enqueueWrites(jobs: readonly NewJob[]): Write[];
  /** Claims up to `limit` due, unleased jobs of a queue, oldest due first. */
  claimDue(options: ClaimOptions): Promise<ClaimedJob[]>;
  /**
   * `claimDue`, and the queue's `nextRunAt` as it is right after the claim: on PostgreSQL, for a
   * capped claim, read in the claim's round trip; elsewhere undefined, for the caller to ask if
   * it needs to (a claimer that sleeps until the next due job asks after most claims).
   */
  claimDueThenNext(options: ClaimOptions): Promise<{ jobs: ClaimedJob[]; nextRunAt?: number | null }>;
  /**
   * Pushes many leases out by `leaseMs` from now, in one statement (a worker's heartbeat). Returns
   * the ids whose lease still held; the others were lost (expired and claimed by another worker).
   */
  extendLeases(leases: readonly Lease[], leaseMs: number): Promise<Set<string>>;
  /** Removes a finished job. Pass a transaction to complete it together with the work's own writes. */
  complete(lease: Lease, tx?: StoreTransaction): Promise<boolean>;
  /**
   * Releases the job: due again at `retryAt`, or kept as failed for inspection when `retryAt` is
   * null. Pass a transaction to release it together with the work's own writes.
   */
  fail(
    lease: Lease,
    outcome: { error: string; retryAt: number | null },
    tx?: StoreTransaction,
  ): Promise<boolean>;
  /**
   * Starts a job enqueued held but waiting for its turn (`claim.waitsForTurn`) if its group has
   * room: fewer than `limit` of the group's jobs are started (held with an attempt counted, by a
   * claim or a turn) or wait for their turn ahead of it in the queue's order (due time, then id),
   * on any node. Taken under the queue's claim lock (PostgreSQL), so a turn and a claim never
   * both count the same room: each sees what the other committed. A job already started by this
   * lease answers "started" again.
   */
  takeTurn(
    lease: Lease,
    turn: {
      readonly queue: string;
      readonly groupKey: string;
      readonly limit: number;
      readonly now?: number;
    },
  ): Promise<Turn>;
  /**
   * What `complete` (no `failure`) or `fail` writes, as a write: for a caller that commits it
   * with its own writes (store/write-together.ts; on PostgreSQL a data-modifying `WITH`, one
   * round trip instead of a transaction's several).
   */
  endWrite(lease: Lease, failure: { error: string; retryAt: number | null } | undefined): Write;
  /**
   * Ends the held job by queueing it again, due at `runAt` with `payload`, as a fresh job (no
   * lease, no attempts): a recurring job's next run (a timer's next tick) in one write instead of
   * a delete and an insert. If the lease no longer holds (the job was removed meanwhile, a timer
   * source deactivated during its run), it writes nothing, and so schedules nothing.
   */
  rescheduleWrite(lease: Lease, next: { readonly runAt: number; readonly payload: unknown }): Write;
  /**
   * Makes the waiting job `jobId` due at `runAt` (sooner than it was: a paused run resumed). A job
   * a claim holds now is left alone: its holder finds the change that woke it anyway.
   */
  wakeWrite(jobId: string, runAt: number): Write;
  /**
   * The hand-off: commits `options.writes` (the finished job's end among them) and leases the
   * next due job of `finished`'s group (oldest first, skipping one another claimer holds), all or
   * none; the job taken, or undefined when the group has none due. The group's jobs in flight
   * stay as many as before, so no claim is needed and no cap is crossed.
   */
  takeNext(finished: ClaimedJob, options: TakeNextOptions): Promise<ClaimedJob | undefined>;
  /**
   * Frees every lease at once. Only for a server that knows no other process can hold one (the
   * embedded mode at start): the claims of the process that died are taken up at once instead
   * of when their leases expire. Returns how many were freed.
   */
  releaseAllLeases(): Promise<number>;
  /** The earliest due time of a queue's waiting jobs (for sleeping until then), or null if none. */
  nextRunAt(queue: string): Promise<number | null>;
}

/**
 * The jobs table: a durable queue inside the database, and so the transactional outbox. A job is
 * enqueued in the caller's transaction, so it exists exactly when the work that caused it was
 * committed. Workers claim due jobs under a lease; a worker that dies simply lets its lease expire
 * and the job is claimed again. Delivery is therefore at-least-once.
 *
 * On PostgreSQL, concurrent claimers on many nodes skip each other's rows (`FOR UPDATE SKIP LOCKED`).
 * SQLite has a single writer, so the claiming UPDATE is atomic by itself.
 */
import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import { newId } from "../core/ids.js";
import type { DialectCapabilities } from "./dialect.js";
import type { Database, Executor, JobsTable } from "./schema.js";

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
   */
  readonly claim?: { readonly leaseToken: string; readonly leaseMs: number };
}

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
}

export interface ClaimOptions {
  readonly queue: string;
  readonly limit: number;
  readonly leaseMs: number;
  /** For tests that control time; defaults to the clock. */
  readonly now?: number;
  /** Groups to leave out of this claim (those the claimer has enough of in flight). */
  readonly excludeGroups?: readonly string[];
}

export interface JobQueue {
  /** Adds a job inside `executor` (the caller's transaction). Returns its id, or null if `uniqueKey` exists. */
  enqueue(executor: Executor, job: NewJob): Promise<string | null>;
  /** Adds many jobs (without unique keys) in one statement inside `executor`. */
  enqueueMany(executor: Executor, jobs: readonly NewJob[]): Promise<void>;
  /** Claims up to `limit` due, unleased jobs of a queue, oldest due first. */
  claimDue(options: ClaimOptions): Promise<ClaimedJob[]>;
  /** Pushes the lease out by `leaseMs` from now. False when the lease was lost (expired and re-claimed). */
  extendLease(lease: Lease, leaseMs: number): Promise<boolean>;
  /** Removes a finished job. Pass a transaction to complete it together with the work's own writes. */
  complete(lease: Lease, executor?: Executor): Promise<boolean>;
  /** Releases the job: due again at `retryAt`, or kept as failed for inspection when `retryAt` is null. */
  fail(lease: Lease, outcome: { error: string; retryAt: number | null }): Promise<boolean>;
  /**
   * Frees every lease at once. Only for a server that knows no other process can hold one (the
   * embedded mode at start): the claims of the process that died are taken up at once instead
   * of when their leases expire. Returns how many were freed.
   */
  releaseAllLeases(): Promise<number>;
  /** The earliest due time of a queue's waiting jobs (for sleeping until then), or null if none. */
  nextRunAt(queue: string): Promise<number | null>;
}

export function createJobQueue(db: Kysely<Database>, capabilities: DialectCapabilities): JobQueue {
  const held = (lease: Lease, executor: Executor = db) =>
    executor.updateTable("jobs").where("id", "=", lease.id).where("lease_token", "=", lease.leaseToken);

  return {
    async enqueue(executor, job) {
      const now = Date.now();
      const row = await executor
        .insertInto("jobs")
        .values({
          id: newId("job"),
          queue: job.queue,
          unique_key: job.uniqueKey ?? null,
          group_key: job.groupKey ?? null,
          payload: JSON.stringify(job.payload ?? null),
          state: "queued",
          run_at: job.runAt ?? now,
          attempts: job.claim ? 1 : 0,
          lease_token: job.claim?.leaseToken ?? null,
          locked_until: job.claim ? now + job.claim.leaseMs : null,
          created_at: now,
        })
        .onConflict((conflict) => conflict.column("unique_key").doNothing())
        .returning("id")
        .executeTakeFirst();
      return row?.id ?? null;
    },

    async enqueueMany(executor, jobs) {
      const now = Date.now();
      for (let start = 0; start < jobs.length; start += 500) {
        await executor
          .insertInto("jobs")
          .values(
            jobs.slice(start, start + 500).map((job) => ({
              id: newId("job"),
              queue: job.queue,
              unique_key: null,
              group_key: job.groupKey ?? null,
              payload: JSON.stringify(job.payload ?? null),
              state: "queued" as const,
              run_at: job.runAt ?? now,
              attempts: 0,
              created_at: now,
            })),
          )
          .execute();
      }
    },

    async claimDue({ queue, limit, leaseMs, now = Date.now(), excludeGroups = [] }) {
      let due = db
        .selectFrom("jobs")
        .select("id")
        .where("queue", "=", queue)
        .where("state", "=", "queued")
        .where("run_at", "<=", now)
        .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", now)]))
        .orderBy("run_at")
        .orderBy("id")
        .limit(limit);
      if (excludeGroups.length > 0) {
        due = due.where((eb) =>
          eb.or([eb("group_key", "is", null), eb("group_key", "not in", [...excludeGroups])]),
        );
      }
      if (capabilities.skipLocked) due = due.forUpdate().skipLocked();
      const rows = await db
        .updateTable("jobs")
        .set({ lease_token: randomUUID(), locked_until: now + leaseMs, attempts: sql`attempts + 1` })
        .where("id", "in", due)
        .returningAll()
        .execute();
      return rows.map(toClaimedJob).sort((a, b) => a.runAt - b.runAt || a.id.localeCompare(b.id));
    },

    async extendLease(lease, leaseMs) {
      const result = await held(lease)
        .set({ locked_until: Date.now() + leaseMs })
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async complete(lease, executor = db) {
      const result = await executor
        .deleteFrom("jobs")
        .where("id", "=", lease.id)
        .where("lease_token", "=", lease.leaseToken)
        .executeTakeFirst();
      return result.numDeletedRows > 0n;
    },

    async fail(lease, { error, retryAt }) {
      const result = await held(lease)
        .set({
          state: retryAt === null ? "failed" : "queued",
          run_at: retryAt ?? sql`run_at`,
          lease_token: null,
          locked_until: null,
          last_error: error.slice(0, 4000),
        })
        .executeTakeFirst();
      return result.numUpdatedRows > 0n;
    },

    async releaseAllLeases() {
      const result = await db
        .updateTable("jobs")
        .set({ lease_token: null, locked_until: null })
        .where("locked_until", "is not", null)
        .executeTakeFirst();
      return Number(result.numUpdatedRows);
    },

    async nextRunAt(queue) {
      // A leased job is due again only when its lease expires, so it counts at its lease's end.
      const row = await db
        .selectFrom("jobs")
        .select((eb) => [
          eb.fn.min("run_at").filterWhere("locked_until", "is", null).as("free"),
          eb.fn.min("locked_until").filterWhere("locked_until", "is not", null).as("leased"),
        ])
        .where("queue", "=", queue)
        .where("state", "=", "queued")
        .executeTakeFirst();
      const times = [row?.free, row?.leased]
        .filter((time) => time !== null && time !== undefined)
        .map(Number);
      return times.length === 0 ? null : Math.min(...times);
    },
  };
}

function toClaimedJob(row: JobsTable): ClaimedJob {
  return {
    id: row.id,
    leaseToken: row.lease_token ?? "",
    queue: row.queue,
    payload: JSON.parse(row.payload),
    uniqueKey: row.unique_key,
    groupKey: row.group_key,
    runAt: Number(row.run_at),
    attempts: row.attempts,
    lockedUntil: Number(row.locked_until),
    lastError: row.last_error,
  };
}

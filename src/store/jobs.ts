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
import { type Compilable, CompiledQuery, type Expression, type Kysely, type SqlBool, sql } from "kysely";
import { newId } from "../core/ids.js";
import type { DialectCapabilities } from "./dialect.js";
import { prepared, reusePlanOf } from "./prepared.js";
import type { Database, Executor, JobsTable } from "./schema.js";
import { claimCappedOnSqlite } from "./sqlite-capped-claim.js";
import type { StatementBatch } from "./statement-batch.js";
import {
  compiledWrite,
  insertWrites,
  preparedReturning,
  preparedWrite,
  type ReturningWrite,
  type Write,
} from "./write-together.js";

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
  /** What the claim's `readAlong` read with the job, when it did. */
  readonly readAlong?: Readonly<Record<string, unknown>>;
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
   * PostgreSQL, capped claims: a SELECT over `claimed` (the jobs the claim takes) returning each
   * job as `claimed_job` (`to_jsonb(claimed)`) with what the worker needs of it, read in the
   * claim's statement instead of a round trip per job after it. Its other columns come back as
   * the job's `readAlong`. Elsewhere it is ignored, and the worker reads for itself.
   */
  readonly readAlong?: string;
}

/** Where each group's cap is kept: `table.limitColumn` of the row whose `idColumn` is the group key. */
export interface GroupLimitColumn {
  readonly table: "workflows";
  readonly idColumn: "id";
  readonly limitColumn: "concurrency";
}

/**
 * How many due jobs a capped claim looks at, per job it may claim: a group under its cap with a
 * long backlog fills the window for one claim at most, since it is at its cap after it.
 */
const CAPPED_WINDOW_FACTOR = 4;

/**
 * Around a capped claim on PostgreSQL, in its transaction: its named statement is planned for its
 * values every time (never a generic plan), and the statements after it go back to the
 * connection's setting (the database's or role's, where an operator set one), not to a fixed one.
 */
const CUSTOM_PLANS = CompiledQuery.raw("set local plan_cache_mode = force_custom_plan");
const GENERIC_PLANS_AGAIN = CompiledQuery.raw("set local plan_cache_mode to default");

export interface JobQueue {
  /** Adds a job inside `executor` (the caller's transaction). Returns its id, or null if `uniqueKey` exists. */
  enqueue(executor: Executor, job: NewJob): Promise<string | null>;
  /** Adds many jobs (without unique keys or claims) inside `executor`, 500 to a statement. */
  enqueueMany(executor: Executor, jobs: readonly NewJob[]): Promise<void>;
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
  complete(lease: Lease, executor?: Executor): Promise<boolean>;
  /**
   * Releases the job: due again at `retryAt`, or kept as failed for inspection when `retryAt` is
   * null. Pass a transaction to release it together with the work's own writes.
   */
  fail(
    lease: Lease,
    outcome: { error: string; retryAt: number | null },
    executor?: Executor,
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
   * The statement that leases the next due job of `lease`'s group (oldest first, skipping one
   * another claimer holds), as a write that returns the job's row: for a worker that hands the
   * place its finished job held in the group to the group's next job, written together with the
   * finished job's end. The group's jobs in flight stay as many as before, so no claim is needed
   * and no cap is crossed. Its row, if any, becomes a ClaimedJob with `toClaimedJob`.
   */
  takeNextWrite(lease: ClaimedJob, leaseMs: number, now?: number): ReturningWrite<JobsTable>;
  /**
   * Frees every lease at once. Only for a server that knows no other process can hold one (the
   * embedded mode at start): the claims of the process that died are taken up at once instead
   * of when their leases expire. Returns how many were freed.
   */
  releaseAllLeases(): Promise<number>;
  /** The earliest due time of a queue's waiting jobs (for sleeping until then), or null if none. */
  nextRunAt(queue: string): Promise<number | null>;
}

/**
 * The queue on `db`. `batch` (PostgreSQL) sends several statements in one round trip; a capped
 * claim needs it there, to hold its lock across its two statements.
 */
export function createJobQueue(
  db: Kysely<Database>,
  capabilities: DialectCapabilities,
  batch?: StatementBatch,
): JobQueue {
  // The statements of a job's end and of the hand-off, built once (store/prepared.ts).
  const complete = prepared(
    (creator, lease: { id: string; token: string }) =>
      creator.deleteFrom("jobs").where("id", "=", lease.id).where("lease_token", "=", lease.token),
    { reusePlan: true },
  );
  const released = (state: "failed" | "queued") =>
    prepared(
      (creator, end: { id: string; token: string; error: string; runAt?: number }) =>
        creator
          .updateTable("jobs")
          .set({
            state,
            run_at: end.runAt ?? sql`run_at`,
            lease_token: null,
            locked_until: null,
            last_error: end.error,
          })
          .where("id", "=", end.id)
          .where("lease_token", "=", end.token),
      { reusePlan: true },
    );
  const rescheduled = prepared(
    (creator, next: { id: string; token: string; runAt: number; payload: string }) =>
      creator
        .updateTable("jobs")
        .set({
          payload: next.payload,
          state: "queued",
          run_at: next.runAt,
          attempts: 0,
          lease_token: null,
          locked_until: null,
          last_error: null,
        })
        .where("id", "=", next.id)
        .where("lease_token", "=", next.token),
    { reusePlan: true },
  );
  const failed = released("failed");
  const retried = released("queued");
  const endWrite: JobQueue["endWrite"] = (lease, failure) => {
    const key = { id: lease.id, token: lease.leaseToken };
    if (failure === undefined) return preparedWrite(complete, key);
    const error = failure.error.slice(0, 4000);
    return failure.retryAt === null
      ? preparedWrite(failed, { ...key, error })
      : preparedWrite(retried, { ...key, error, runAt: failure.retryAt });
  };

  /**
   * `id` is one of the ids `subquery` selects. On PostgreSQL as `= any(array(…))`: the planner
   * then looks each id up by the primary key, where `in (…)` had it hash-join the subquery with
   * a scan of the whole jobs table, every claim paying for the length of the backlog.
   */
  const idIn = (subquery: Expression<unknown>) =>
    capabilities.name === "postgres"
      ? sql<SqlBool>`id = any(array(${subquery}))`
      : sql<SqlBool>`id in (${subquery})`;

  /**
   * `id` is the one id `subquery` selects (it has `limit 1`), as `id = (…)`. On SQLite `in (…)`
   * built a temporary table for the one id, which made the whole UPDATE about twice as slow
   * (bench/RESULTS.md). On PostgreSQL `= any(array(…))` is estimated at ten ids: a plan kept for
   * reuse (store/prepared.ts) and made while the tables were small then read the job, and the
   * delivery joined to it, by scanning the whole table (4.7 ms against 0.3 ms a hand-off). One
   * id is one primary-key lookup in any plan.
   */
  const idIsFirst = (subquery: Expression<unknown>) => sql<SqlBool>`id = (${subquery})`;

  /**
   * A claim that keeps each group within its cap, counting the group's jobs leased by anyone:
   * groups at their cap are left out, the first due jobs of the others are ranked within their
   * group, and a job is taken when its rank plus its group's leased jobs is within the cap.
   * Only the jobs taken are locked (skipping any another writer holds), not the whole window.
   * That is one statement, one round trip, for a database server; SQLite, in process, runs a few
   * plain statements instead (sqlite-capped-claim.ts).
   */
  const claimCapped = async (
    { queue, limit, leaseMs, now = Date.now(), excludeGroups = [], onlyGroups, readAlong }: ClaimOptions,
    groupLimit: number | GroupLimitColumn,
    thenNext = false,
  ): Promise<{ jobs: ClaimedJob[]; nextRunAt?: number | null }> => {
    if (!capabilities.roundTrips) {
      const rows = await claimCappedOnSqlite(
        db,
        { queue, limit, leaseMs, now, excludeGroups, ...(onlyGroups ? { onlyGroups } : {}) },
        groupLimit,
      );
      return { jobs: claimedInOrder(rows) };
    }
    // The claim takes the queue's lock for its transaction: without a batch there is none to hold it.
    if (!batch) throw new Error("a capped claim on PostgreSQL needs the store's statement batch");
    const capOf = (alias: string) =>
      typeof groupLimit === "number"
        ? sql`${groupLimit}`
        : sql`coalesce((select ${sql.ref(`limits.${groupLimit.limitColumn}`)} from ${sql.table(groupLimit.table)} as limits where ${sql.ref(`limits.${groupLimit.idColumn}`)} = ${sql.ref(`${alias}.group_key`)}), 1)`;
    // One parameter, however many groups.
    const excluded = sql`and candidate.group_key <> all(${[...excludeGroups]}::text[])`;
    const lockRows = capabilities.skipLocked ? sql`for update skip locked` : sql``;
    const free = sql`state = 'queued' and run_at <= ${now} and (locked_until is null or locked_until <= ${now})`;
    // The first due jobs of the whole queue, in order, stepping over the groups with no room.
    const queueCandidates = sql`
          select id, run_at, group_key from jobs as candidate
          where queue = ${queue} and ${free}
            and (group_key is null or (group_key not in (select group_key from full_groups) ${excluded}))
          order by run_at, id
          limit ${limit * CAPPED_WINDOW_FACTOR}`;
    // The first due jobs of each named group with room, each group's read from jobs_group_due:
    // none of another group's backlog is read.
    const groupsCandidates = sql`
          select due.id, due.run_at, due.group_key
          from unnest(${[...(onlyGroups ?? [])]}::text[]) as candidate(group_key)
          cross join lateral (
            select id, run_at, group_key from jobs
            where queue = ${queue} and jobs.group_key = candidate.group_key and ${free}
            order by run_at, id
            limit ${limit}
          ) as due
          where candidate.group_key not in (select group_key from full_groups) ${excluded}
          order by due.run_at, due.id
          limit ${limit * CAPPED_WINDOW_FACTOR}`;
    // `leased` asks for no state: only a queued job holds a lease, and with the state a planner
    // whose statistics were older than a backlog read the leases from the due jobs' index.
    const chosen = sql`
        leased as (
          select group_key, count(*) as held from jobs
          where queue = ${queue} and locked_until > ${now} and group_key is not null
          group by group_key
        ),
        full_groups as (
          select leased.group_key from leased where leased.held >= ${capOf("leased")}
        ),
        candidates as (${onlyGroups ? groupsCandidates : queueCandidates}),
        ranked as (
          select candidates.id, candidates.run_at, candidates.group_key,
            row_number() over (partition by candidates.group_key order by candidates.run_at, candidates.id) as position,
            coalesce(leased.held, 0) as held
          from candidates left join leased on leased.group_key = candidates.group_key
        ),
        chosen as (
          select id from jobs
          where ${idIn(sql`
            select ranked.id from ranked
            where ranked.group_key is null or ranked.position + ranked.held <= ${capOf("ranked")}
            order by ranked.run_at, ranked.id
            limit ${limit}`)}
            and state = 'queued' and (locked_until is null or locked_until <= ${now})
          ${lockRows}
        )`;
    const update = sql`
        update jobs set lease_token = ${randomUUID()}, locked_until = ${now + leaseMs}, attempts = attempts + 1
        where ${idIn(sql`select id from chosen`)}
        returning *`;
    const claim = readAlong
      ? sql`with ${chosen}, claimed as (${update}) ${sql.raw(readAlong)}`
      : sql`with ${chosen} ${update}`;
    // One claimer of the queue at a time in this schema, so no two count the same free room: the
    // lock and the claim go as one transaction in one round trip, and the lock ends with it.
    // The queue's next due time, when asked for, goes in the same round trip, after the claim.
    const next = thenNext ? [nextDue.compile(db, "postgres", { queue })] : [];
    // The lock's plan is kept (a named statement). The claim is parsed once per connection (named
    // too) but planned anew each time, for its values: a plan kept for it goes stale as the tables
    // grow (store/prepared.ts, bench/RESULTS.md), so its transaction forbids generic plans while
    // it runs. Parsing it each time cost PostgreSQL a fifth of its 0.72 ms a claim.
    const locked = queueLock(queue);
    const claimed = claim.compile(db);
    reusePlanOf(claimed.sql);
    const results = await batch([locked, CUSTOM_PLANS, claimed, GENERIC_PLANS_AGAIN, ...next]);
    const rows = results[2] as readonly Record<string, unknown>[];
    const jobs = readAlong
      ? rows
          .map(({ claimed_job, ...read }) => ({ ...toClaimedJob(claimed_job as JobsTable), readAlong: read }))
          .sort(inClaimOrder)
      : claimedInOrder(rows as unknown as JobsTable[]);
    const nextRow = results[4]?.[0] as NextDueRow | undefined;
    return next.length > 0 ? { jobs, nextRunAt: earliestOf(nextRow) } : { jobs };
  };

  /** A job, unless one with its unique key exists: its id if it was inserted. */
  const insertJob = prepared<
    {
      id: string;
      queue: string;
      unique_key: string | null;
      group_key: string | null;
      payload: string;
      state: "queued";
      run_at: number;
      attempts: number;
      lease_token: string | null;
      locked_until: number | null;
      created_at: number;
    },
    { id: string }
  >(
    (creator, job) =>
      creator
        .insertInto("jobs")
        .values(job)
        .onConflict((conflict) => conflict.column("unique_key").doNothing())
        .returning("id"),
    { reusePlan: true },
  );

  /**
   * The queue's claim lock, for the transaction it begins (PostgreSQL): claims and turns of the
   * queue take it, one at a time in this schema. Its plan is kept (a named statement).
   */
  const queueLock = (queue: string): CompiledQuery => {
    const locked =
      sql`select pg_advisory_xact_lock(hashtextextended(current_schema() || ':claim:' || ${queue}, 0))`.compile(
        db,
      );
    reusePlanOf(locked.sql);
    return locked;
  };

  /**
   * A held job waiting for its turn starts (counts its attempt) if fewer than `limit` of its
   * group's jobs are started or wait ahead of it; one this lease started already stays started.
   */
  const turnTaken = prepared(
    (
      creator,
      turn: { id: string; token: string; queue: string; group: string; limit: number; now: number },
    ) =>
      creator
        .updateTable("jobs")
        .set({ attempts: sql`case when attempts > 0 then attempts else 1 end` })
        .where("id", "=", turn.id)
        .where("lease_token", "=", turn.token)
        .where("state", "=", "queued")
        .where((eb) =>
          eb.or([
            eb("attempts", ">", 0),
            eb(
              eb
                .selectFrom("jobs as other")
                .select((count) => count.fn.countAll().as("taken"))
                .where("other.queue", "=", turn.queue)
                .where("other.group_key", "=", turn.group)
                .where("other.state", "=", "queued")
                .where("other.locked_until", ">", turn.now)
                .where("other.id", "!=", turn.id)
                .where((ahead) =>
                  ahead.or([
                    ahead("other.attempts", ">", 0),
                    sql<SqlBool>`(other.run_at, other.id) < (jobs.run_at, jobs.id)`,
                  ]),
                ),
              "<",
              turn.limit,
            ),
          ]),
        )
        .returning("id"),
  );

  /** The job, while `token` still holds it. */
  const stillHeld = prepared((creator, lease: { id: string; token: string }) =>
    creator
      .selectFrom("jobs")
      .select("id")
      .where("id", "=", lease.id)
      .where("lease_token", "=", lease.token)
      .where("state", "=", "queued"),
  );

  const takeNext = prepared(
    (
      creator,
      take: {
        queue: string;
        group: string | null;
        now: number;
        id: string;
        token: string;
        lockedUntil: number;
      },
    ) => {
      let next = creator
        .selectFrom("jobs")
        .select("id")
        .where("queue", "=", take.queue)
        .where("group_key", "=", take.group)
        .where("state", "=", "queued")
        .where("run_at", "<=", take.now)
        .where((eb) => eb.or([eb("locked_until", "is", null), eb("locked_until", "<=", take.now)]))
        .where("id", "!=", take.id)
        .orderBy("run_at")
        .orderBy("id")
        // In the text, not a parameter: a plan made for any limit could sort the group's backlog.
        .limit(sql.lit(1));
      if (capabilities.skipLocked) {
        // The finished job's row is locked first (a one-time filter, read before the group's
        // jobs), so the hand-off waits for it holding nothing. Taking the next job first and then
        // waiting for the finished one, held by a transaction deleting the group's jobs that in
        // turn waited for the next one (a webhook's delete), was a deadlock. The filter is always
        // true: whether the finished job is still there (its end may have run before, in this
        // transaction) changes nothing.
        next = next
          .where(
            sql<SqlBool>`(select count(*) from (select from jobs as finished where finished.id = ${take.id} for update) as locked) >= 0`,
          )
          .forUpdate()
          .skipLocked();
      }
      return creator
        .updateTable("jobs")
        .set({ lease_token: take.token, locked_until: take.lockedUntil, attempts: sql`attempts + 1` })
        .where(idIsFirst(next))
        .returningAll() as unknown as Compilable<JobsTable>;
    },
  );

  /** Runs a write alone on `executor`; how many rows it changed. */
  const runWrite = async (executor: Executor, write: Write): Promise<bigint> => {
    const result = await executor.executeQuery(compiledWrite(write, executor, capabilities.name));
    return result.numAffectedRows ?? 0n;
  };

  const enqueueWrites = (jobs: readonly NewJob[]): Write[] => {
    const now = Date.now();
    const rows = jobs.map((job) => ({
      id: newId("job"),
      queue: job.queue,
      unique_key: null,
      group_key: job.groupKey ?? null,
      payload: JSON.stringify(job.payload ?? null),
      state: "queued" as const,
      run_at: job.runAt ?? now,
      attempts: 0,
      created_at: now,
    }));
    return insertWrites("jobs", rows, 500);
  };

  const jobQueue: JobQueue = {
    async enqueue(executor, job) {
      const now = Date.now();
      const [row] = await insertJob.execute(executor, capabilities.name, {
        id: newId("job"),
        queue: job.queue,
        unique_key: job.uniqueKey ?? null,
        group_key: job.groupKey ?? null,
        payload: JSON.stringify(job.payload ?? null),
        state: "queued",
        run_at: job.runAt ?? now,
        attempts: job.claim && !job.claim.waitsForTurn ? 1 : 0,
        lease_token: job.claim?.leaseToken ?? null,
        locked_until: job.claim ? now + job.claim.leaseMs : null,
        created_at: now,
      });
      return row?.id ?? null;
    },

    async enqueueMany(executor, jobs) {
      for (const write of enqueueWrites(jobs)) await write(executor).execute();
    },

    enqueueWrites,

    async claimDueThenNext(options) {
      if (options.groupLimit !== undefined) return claimCapped(options, options.groupLimit, true);
      return { jobs: await jobQueue.claimDue(options) };
    },

    async claimDue(options) {
      if (options.groupLimit !== undefined) return (await claimCapped(options, options.groupLimit)).jobs;
      const { queue, limit, leaseMs, now = Date.now(), excludeGroups = [], onlyGroups } = options;
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
      if (onlyGroups) due = due.where("group_key", "in", onlyGroups.length > 0 ? [...onlyGroups] : [null]);
      if (capabilities.skipLocked) due = due.forUpdate().skipLocked();
      const rows = await db
        .updateTable("jobs")
        .set({ lease_token: randomUUID(), locked_until: now + leaseMs, attempts: sql`attempts + 1` })
        .where(idIn(due))
        .returningAll()
        .execute();
      return claimedInOrder(rows);
    },

    async extendLeases(leases, leaseMs) {
      if (leases.length === 0) return new Set();
      // A row matches only with its own current token: a lease another worker took has another one.
      let held = db
        .selectFrom("jobs")
        .select("id")
        .where(
          "id",
          "in",
          leases.map((lease) => lease.id),
        )
        .where("lease_token", "in", [...new Set(leases.map((lease) => lease.leaseToken))]);
      // On PostgreSQL a row another transaction has locked (a webhook being deleted, say) is left
      // for the next beat rather than waited for: a heartbeat never waits, so it never deadlocks.
      if (capabilities.skipLocked) held = held.forUpdate().skipLocked();
      const rows = await db
        .updateTable("jobs")
        .set({ locked_until: Date.now() + leaseMs })
        .where(idIn(held))
        .returning("id")
        .execute();
      return new Set(rows.map((row) => row.id));
    },

    async complete(lease, executor = db) {
      return (await runWrite(executor, endWrite(lease, undefined))) > 0n;
    },

    async fail(lease, failure, executor = db) {
      return (await runWrite(executor, endWrite(lease, failure))) > 0n;
    },

    async takeTurn(lease, { queue, groupKey, limit, now = Date.now() }) {
      const key = { id: lease.id, token: lease.leaseToken };
      const started = turnTaken.compile(db, capabilities.name, {
        ...key,
        queue,
        group: groupKey,
        limit,
        now,
      });
      const held = stillHeld.compile(db, capabilities.name, key);
      let startedRows: readonly unknown[];
      let heldRows: readonly unknown[];
      if (batch) {
        // In the claim's lock, so that this count and a claim's are never taken side by side: the
        // statements after the lock see what its last holder committed.
        const results = await batch([queueLock(queue), started, held]);
        startedRows = results[1] ?? [];
        heldRows = results[2] ?? [];
      } else {
        // SQLite: one writer, so the UPDATE is atomic by itself.
        startedRows = (await db.executeQuery(started)).rows;
        heldRows = startedRows.length > 0 ? startedRows : (await db.executeQuery(held)).rows;
      }
      if (startedRows.length > 0) return "started";
      return heldRows.length > 0 ? "waiting" : "lost";
    },

    takeNextWrite: (lease, leaseMs, now = Date.now()) =>
      preparedReturning(takeNext, {
        queue: lease.queue,
        group: lease.groupKey,
        now,
        id: lease.id,
        token: randomUUID(),
        lockedUntil: now + leaseMs,
      }),

    endWrite,

    rescheduleWrite: (lease, next) =>
      preparedWrite(rescheduled, {
        id: lease.id,
        token: lease.leaseToken,
        runAt: next.runAt,
        payload: JSON.stringify(next.payload ?? null),
      }),

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
      const [row] = await nextDue.execute(db, capabilities.name, { queue });
      return earliestOf(row);
    },
  };
  return jobQueue;
}

/**
 * The earliest due time of a queue's free jobs and the earliest end of its leases: two
 * subqueries, each the first entry of an index (jobs_due_in_order read in order past the leased
 * jobs, jobs_leased), so that asking costs the same with a backlog of a million as with none. Its
 * plan does not depend on the queue. Exported for the plan tests (test/store/jobs-plans.test.ts).
 */
export const nextDue = prepared(
  (creator, ask: { queue: string }) =>
    creator.selectNoFrom((eb) => [
      // A free job is asked for as `coalesce(locked_until, 0) = 0`, of which PostgreSQL keeps no
      // statistics, so every plan reads the due jobs in order to the first free one. `is null`
      // was read from jobs_leased (every free job, then sorted) by a planner that had analyzed
      // the table while all its jobs were leased, as a busy queue's are; `is not distinct from`
      // a parameter, by a plan made for the null after ANALYZE saw a backlog: estimated one free
      // job, it sorted the whole table (3.3 ms a probe with 20,000 waiting; bench/RESULTS.md).
      eb
        .selectFrom("jobs")
        .select("run_at")
        .where("queue", "=", ask.queue)
        .where(sql<SqlBool>`state = 'queued' and coalesce(locked_until, 0) = 0`)
        .orderBy("run_at")
        .limit(sql.lit(1))
        .as("free"),
      // Only a queued job holds a lease (every end of one clears it), so the state is not asked
      // for: with it, a plan kept for this statement read the leases from the due jobs' index,
      // a whole backlog of them, instead of from jobs_leased (bench/RESULTS.md).
      eb
        .selectFrom("jobs")
        .select("locked_until")
        .where("queue", "=", ask.queue)
        .where("locked_until", "is not", null)
        .orderBy("locked_until")
        .limit(sql.lit(1))
        .as("leased"),
    ]),
  { reusePlan: true },
);

/** What `nextDue` reads: the first due time of the free jobs and the first end of a lease. */
interface NextDueRow {
  readonly free: unknown;
  readonly leased: unknown;
}

/** The earlier of a `nextDue` row's times, or null if it has neither. */
function earliestOf(row: NextDueRow | undefined): number | null {
  const times = [row?.free, row?.leased].filter((time) => time !== null && time !== undefined).map(Number);
  return times.length === 0 ? null : Math.min(...times);
}

/** Claimed rows as their claimer holds them, oldest due first (the order claims take them). */
function claimedInOrder(rows: readonly JobsTable[]): ClaimedJob[] {
  return rows.map(toClaimedJob).sort(inClaimOrder);
}

/** Oldest due first, then by id: the order a claim takes jobs in. */
function inClaimOrder(a: ClaimedJob, b: ClaimedJob): number {
  return a.runAt - b.runAt || a.id.localeCompare(b.id);
}

/** A job row as its claimer holds it. */
export function toClaimedJob(row: JobsTable): ClaimedJob {
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

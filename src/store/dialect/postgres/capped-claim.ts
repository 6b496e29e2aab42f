/**
 * The capped claim on PostgreSQL (store/jobs/contract.ts `ClaimOptions.groupLimit`), one statement:
 * groups at their cap are left out, the first due jobs of the others are ranked within their
 * group, and a job is taken when its rank plus its group's leased jobs is within the cap. Only the
 * jobs taken are locked (skipping any another writer holds), not the whole window. One statement
 * is one round trip; SQLite, in process, runs a few plain statements instead
 * (dialect/sqlite/capped-claim.ts).
 */
import { randomUUID } from "node:crypto";
import { CompiledQuery, type Kysely, type RawBuilder, sql } from "kysely";
import { claimedInOrder, inClaimOrder, toClaimedJob } from "../../jobs/claimed-job.js";
import type { ClaimOptions, GroupLimitColumn } from "../../jobs/contract.js";
import { earliestOf, type NextDueRow, nextDue } from "../../jobs/next-due.js";
import { claimReadAlongText, readAlongRow } from "../../jobs/read-along.js";
import { reusePlanOf } from "../../named-statements.js";
import type { Database, JobsTable } from "../../schema.js";
import type { CappedClaim } from "../dialect.js";
import { queueLock } from "./claim-lock.js";
import { idIn } from "./id-in.js";
import type { StatementBatch } from "./statement-batch.js";

/**
 * How many due jobs a capped claim looks at, per job it may claim: a group under its cap with a
 * long backlog fills the window for one claim at most, since it is at its cap after it.
 */
const CAPPED_WINDOW_FACTOR = 4;

/**
 * Around the claim, in its transaction: its named statement is planned for its values every time
 * (never a generic plan), and the statements after it go back to the connection's setting (the
 * database's or role's, where an operator set one), not to a fixed one.
 */
const CUSTOM_PLANS = CompiledQuery.raw("set local plan_cache_mode = force_custom_plan");
const GENERIC_PLANS_AGAIN = CompiledQuery.raw("set local plan_cache_mode to default");

/** Leases the jobs chosen, in one round trip with the queue's lock (and its next due time, with `thenNext`). */
export async function claimCappedOnPostgres(
  db: Kysely<Database>,
  batch: StatementBatch,
  options: ClaimOptions,
  groupLimit: number | GroupLimitColumn,
  thenNext: boolean,
): Promise<CappedClaim> {
  const { queue, readAlong } = options;
  // One claimer of the queue at a time in this schema, so no two count the same free room: the
  // lock and the claim go as one transaction in one round trip, and the lock ends with it.
  // The queue's next due time, when asked for, goes in the same round trip, after the claim.
  const next = thenNext ? [nextDue.compile(db, "postgres", { queue })] : [];
  // The lock's plan is kept (a named statement). The claim is parsed once per connection (named
  // too) but planned anew each time, for its values: a plan kept for it goes stale as the tables
  // grow (store/prepared.ts), so its transaction forbids generic plans while it runs.
  const locked = queueLock(db, queue);
  const claimed = claimStatement(options, groupLimit, readAlong && claimReadAlongText(db, readAlong)).compile(
    db,
  );
  reusePlanOf(claimed.sql);
  const results = await batch([locked, CUSTOM_PLANS, claimed, GENERIC_PLANS_AGAIN, ...next]);
  const rows = results[2] as readonly Record<string, unknown>[];
  const jobs = readAlong
    ? rows
        .map(({ claimed_job, ...read }) => {
          const row = readAlongRow(read);
          return { ...toClaimedJob(claimed_job as JobsTable), ...(row ? { readAlong: row } : {}) };
        })
        .sort(inClaimOrder)
    : claimedInOrder(rows as unknown as JobsTable[]);
  const nextRow = results[4]?.[0] as NextDueRow | undefined;
  return next.length > 0 ? { jobs, nextRunAt: earliestOf(nextRow) } : { jobs };
}

/** The claim's statement: the jobs chosen, leased, returned (through `readAlong`, a SELECT, when given). */
function claimStatement(
  { limit, leaseMs, now = Date.now(), readAlong: _named, ...options }: ClaimOptions,
  groupLimit: number | GroupLimitColumn,
  readAlong: string | undefined,
): RawBuilder<unknown> {
  const chosen = chosenJobs({ ...options, limit, leaseMs, now }, groupLimit);
  const update = sql`
        update jobs set lease_token = ${randomUUID()}, locked_until = ${now + leaseMs}, attempts = attempts + 1
        where ${idIn(sql`select id from chosen`)}
        returning *`;
  return readAlong
    ? sql`with ${chosen}, claimed as (${update}) ${sql.raw(readAlong)}`
    : sql`with ${chosen} ${update}`;
}

/** The `WITH` parts that choose the jobs: each group's leases, the full groups, the candidates ranked. */
function chosenJobs(
  { queue, limit, now = Date.now(), excludeGroups = [], onlyGroups }: ClaimOptions,
  groupLimit: number | GroupLimitColumn,
): RawBuilder<unknown> {
  const capOf = (alias: string) =>
    typeof groupLimit === "number"
      ? sql`${groupLimit}`
      : sql`coalesce((select ${sql.ref(`limits.${groupLimit.limitColumn}`)} from ${sql.table(groupLimit.table)} as limits where ${sql.ref(`limits.${groupLimit.idColumn}`)} = ${sql.ref(`${alias}.group_key`)}), 1)`;
  // One parameter, however many groups.
  const excluded = sql`and candidate.group_key <> all(${[...excludeGroups]}::text[])`;
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
  // whose statistics are older than a backlog may read the leases from the due jobs' index.
  return sql`
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
          for update skip locked
        )`;
}

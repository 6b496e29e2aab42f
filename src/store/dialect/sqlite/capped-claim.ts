/**
 * The capped claim on SQLite (store/jobs/contract.ts `ClaimOptions.groupLimit`): take up to `limit` due jobs, oldest
 * first, keeping every group within its cap. PostgreSQL does it in one statement, since each
 * statement there is a round trip. SQLite runs in process, where a few plain statements cost
 * less than that one: its window function, join and materialized parts cost more than the
 * reading of the jobs.
 *
 * The due jobs are read in claim order with the groups that have no room left among the
 * statement's conditions, so SQLite steps over a blocked group's backlog in its index, and no
 * row of it reaches JavaScript. A group that fills up while its rows are read is added to them
 * and the read resumes after the last row seen. A claim of named groups (`onlyGroups`) reads each
 * group's first due jobs from that group's index instead, and none of the others'. All of it runs
 * in one transaction: on the one connection nothing else writes between the counts and the claim.
 */
import { randomUUID } from "node:crypto";
import { type Kysely, sql } from "kysely";
import type { ClaimOptions, GroupLimitColumn } from "../../jobs/contract.js";
import type { Database, Executor, JobsTable } from "../../schema.js";

/** Due jobs read per look beyond those still wanted: a few of a group that fills up are skipped. */
const READ_AHEAD = 8;

interface DueRow {
  readonly id: string;
  readonly run_at: number;
  readonly group_key: string | null;
}

/** Leases the jobs chosen; returns their rows, unsorted. */
export function claimCappedOnSqlite(
  db: Kysely<Database>,
  { queue, limit, leaseMs, now = Date.now(), excludeGroups = [], onlyGroups }: ClaimOptions,
  groupLimit: number | GroupLimitColumn,
): Promise<JobsTable[]> {
  return db.transaction().execute(async (tx) => {
    const held = await leasedPerGroup(tx, queue, now);
    const capOf = await groupCaps(tx, groupLimit, [...held.keys()]);
    const blocked = new Set(excludeGroups);
    for (const [group, count] of held) if (count >= (await capOf(group))) blocked.add(group);

    const chosen: string[] = [];
    /** Takes `row` if its group has room; false once the claim has all it wants. */
    const take = async (row: DueRow): Promise<boolean> => {
      const group = row.group_key;
      if (group !== null) {
        if (blocked.has(group)) return true;
        const count = (held.get(group) ?? 0) + 1;
        held.set(group, count);
        if (count >= (await capOf(group))) blocked.add(group);
      }
      chosen.push(row.id);
      return chosen.length < limit;
    };
    if (onlyGroups) {
      // Each named group's first due jobs (no group gives more than `limit`), merged in claim order.
      const rows: DueRow[] = [];
      for (const group of new Set(onlyGroups)) {
        if (!blocked.has(group)) rows.push(...(await dueJobsOfGroup(tx, { queue, now, group, limit })));
      }
      rows.sort((a, b) => a.run_at - b.run_at || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
      for (const row of rows) if (!(await take(row))) break;
    } else {
      let after: DueRow | undefined;
      while (chosen.length < limit) {
        const wanted = limit - chosen.length + READ_AHEAD;
        const rows = await dueJobs(tx, { queue, now, after, blocked: [...blocked], limit: wanted });
        for (const row of rows) {
          after = row;
          if (!(await take(row))) break;
        }
        if (rows.length < wanted) break;
      }
    }
    if (chosen.length === 0) return [];
    const claimed = await sql<JobsTable>`
      update jobs set lease_token = ${randomUUID()}, locked_until = ${now + leaseMs}, attempts = attempts + 1
      where id in (${sql.join(chosen)})
        and state = 'queued' and (locked_until is null or locked_until <= ${now})
      returning *`.execute(tx);
    return claimed.rows;
  });
}

/** Each group's jobs leased now (by this node: SQLite has no other). */
async function leasedPerGroup(tx: Executor, queue: string, now: number): Promise<Map<string, number>> {
  const { rows } = await sql<{ group_key: string; held: number }>`
    select group_key, count(*) as held from jobs
    where queue = ${queue} and state = 'queued' and locked_until > ${now} and group_key is not null
    group by group_key`.execute(tx);
  return new Map(rows.map((row) => [row.group_key, Number(row.held)]));
}

/**
 * Each group's cap: the number, or the group's row in the limit column (1 without one), read for
 * the groups already leased at once and for any other on first sight.
 */
async function groupCaps(
  tx: Executor,
  groupLimit: number | GroupLimitColumn,
  known: readonly string[],
): Promise<(group: string) => Promise<number>> {
  if (typeof groupLimit === "number") return async () => groupLimit;
  const { table, idColumn, limitColumn } = groupLimit;
  const caps = new Map<string, number>();
  const read = async (groups: readonly string[]) => {
    if (groups.length === 0) return;
    const { rows } = await sql<{ id: string; cap: number | null }>`
      select ${sql.ref(idColumn)} as id, ${sql.ref(limitColumn)} as cap from ${sql.table(table)}
      where ${sql.ref(idColumn)} in (${sql.join([...groups])})`.execute(tx);
    for (const group of groups) caps.set(group, 1);
    for (const row of rows) caps.set(row.id, row.cap ?? 1);
  };
  await read(known);
  return async (group) => {
    if (!caps.has(group)) await read([group]);
    return caps.get(group) ?? 1;
  };
}

/** The next due, unleased jobs in claim order after `after`, leaving out the `blocked` groups. */
async function dueJobs(
  tx: Executor,
  options: {
    queue: string;
    now: number;
    after: DueRow | undefined;
    blocked: readonly string[];
    limit: number;
  },
): Promise<DueRow[]> {
  const { queue, now, after, blocked, limit } = options;
  const resume = after ? sql`and (run_at, id) > (${after.run_at}, ${after.id})` : sql``;
  const unblocked =
    blocked.length > 0 ? sql`and (group_key is null or group_key not in (${sql.join(blocked)}))` : sql``;
  const { rows } = await sql<DueRow>`
    select id, run_at, group_key from jobs
    where queue = ${queue} and state = 'queued' and run_at <= ${now}
      and (locked_until is null or locked_until <= ${now}) ${resume} ${unblocked}
    order by run_at, id
    limit ${limit}`.execute(tx);
  return rows.map((row) => ({ ...row, run_at: Number(row.run_at) }));
}

/** The first due, unleased jobs of one group, in claim order (read from jobs_group_due). */
async function dueJobsOfGroup(
  tx: Executor,
  { queue, now, group, limit }: { queue: string; now: number; group: string; limit: number },
): Promise<DueRow[]> {
  const { rows } = await sql<DueRow>`
    select id, run_at, group_key from jobs
    where queue = ${queue} and group_key = ${group} and state = 'queued' and run_at <= ${now}
      and (locked_until is null or locked_until <= ${now})
    order by run_at, id
    limit ${limit}`.execute(tx);
  return rows.map((row) => ({ ...row, run_at: Number(row.run_at) }));
}

/**
 * The hand-off: a finished job's end, written with the caller's writes, and the lease of its
 * group's next due job (take-next.ts), all or none, so a group with a backlog drains without a
 * claim per job. On PostgreSQL one statement, which also reads what the caller names with the
 * job taken (read-along.ts); elsewhere one transaction, shared with other writes.
 */
import { type CompiledQuery, type QueryCreator, sql } from "kysely";
import { combinedWritesThen } from "../combined-writes.js";
import type { StoreConnection } from "../dialect/dialect.js";
import type { JobsTable } from "../schema.js";
import {
  fitsOneStatement,
  preparedTexts,
  type ReturningWrite,
  type Write,
  withWrites,
  writeTogetherReturning,
} from "../write-together.js";
import { toClaimedJob } from "./claimed-job.js";
import type { ClaimedJob, TakeNextOptions } from "./contract.js";
import type { HandOffGroups } from "./hand-off-groups.js";
import { type JobsDatabase, jobsWithDeliveries, type ReadAlong, readAlongRow } from "./read-along.js";
import { takeNextWrite } from "./take-next.js";

/** Commits `options.writes` and leases the next due job of `finished`'s group; the job, if any. */
export async function takeNext(
  store: StoreConnection,
  finished: ClaimedJob,
  options: TakeNextOptions,
  groups: HandOffGroups | undefined,
): Promise<ClaimedJob | undefined> {
  const { writes, readAlong } = options;
  const take = takeNextWrite(store.dialect.capabilities, finished, options.leaseMs, options.now);
  // One statement of data-modifying `WITH`s where writes combine so (PostgreSQL).
  if (store.dialect.capabilities.combinesWrites) {
    const prepared = preparedHandOff(store, writes, take, readAlong);
    const compiled = prepared ?? builtHandOff(store, writes, take, readAlong);
    if (fitsOneStatement(compiled)) {
      // With others ending meanwhile (hand-off-groups.ts). A hand-off that also writes a row
      // that is not prepared (a webhook's failure state) goes alone: two transactions of several
      // could then each hold one such row and wait for the other's.
      const rows =
        prepared && groups && options.together
          ? await groups.commit(compiled)
          : (await store.db.executeQuery(compiled)).rows;
      const [taken] = rows as Record<string, unknown>[];
      if (!taken) return undefined;
      const { next_job: jobRow, ...read } = taken;
      const job = toClaimedJob(jobRow as JobsTable);
      const row = readAlong ? readAlongRow(read) : undefined;
      return row ? { ...job, readAlong: row } : job;
    }
  }
  const [taken] = await writeTogetherReturning(store, writes, take);
  return taken ? toClaimedJob(taken) : undefined;
}

/** What the hand-off's statement reads of the job it took: the job (`next_job`) and the read-along. */
function selectTaken(creator: QueryCreator<JobsDatabase>, readAlong: ReadAlong | undefined) {
  return readAlong
    ? jobsWithDeliveries(creator, "next_job", "next_job")
    : creator.selectFrom("next_job").select(sql<JobsTable>`to_jsonb(next_job)`.as("next_job"));
}

/** `selectTaken`'s text for each read-along, compiled once: it has no values. */
const takenTexts = new Map<ReadAlong | undefined, CompiledQuery>();

/**
 * The hand-off as one statement joined from the prepared statements' texts
 * (store/combined-writes.ts), so Kysely builds nothing per hand-off; undefined when one of the
 * writes is not prepared.
 */
function preparedHandOff(
  { db, dialect }: StoreConnection,
  writes: readonly Write[],
  take: ReturningWrite<JobsTable>,
  readAlong: ReadAlong | undefined,
): CompiledQuery | undefined {
  const texts = preparedTexts(db, writes);
  if (!take.compiled || !texts) return undefined;
  let taken = takenTexts.get(readAlong);
  if (!taken) {
    taken = selectTaken(db as unknown as QueryCreator<JobsDatabase>, readAlong).compile();
    takenTexts.set(readAlong, taken);
  }
  return combinedWritesThen(
    texts,
    { name: "next_job", query: take.compiled(db, dialect.capabilities.name) },
    taken,
    // Named: its plan does not depend on its values (primary keys, and the first entries of one
    // group's jobs: take-next.ts `idIsFirst`).
    { reusePlan: true },
  );
}

/** The hand-off built by Kysely, for writes that are not all prepared (a webhook's failure state). */
function builtHandOff(
  { db }: StoreConnection,
  writes: readonly Write[],
  take: ReturningWrite<JobsTable>,
  readAlong: ReadAlong | undefined,
): CompiledQuery {
  const query = withWrites(db, writes).with(
    "next_job",
    (creator) => take(creator) as never,
  ) as unknown as QueryCreator<JobsDatabase>;
  return selectTaken(query, readAlong).compile();
}

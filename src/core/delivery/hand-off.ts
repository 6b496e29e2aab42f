/**
 * A delivery's outcome written together with the lease of its webhook's next due job
 * (store/jobs/contract.ts `takeNextWrite`), so that a webhook with a backlog drains without a claim
 * per delivery. On PostgreSQL the next job's delivery and webhook are read in the same statement
 * too: the next send starts without another round trip. On SQLite, in process, the worker reads
 * them as it reads a claimed job's.
 */
import { type CompiledQuery, type Kysely, type QueryCreator, sql } from "kysely";
import { combinedWritesThen } from "../../store/combined-writes.js";
import { toClaimedJob } from "../../store/jobs/claimed-job.js";
import type { ClaimedJob } from "../../store/jobs/contract.js";
import type { Database, JobsTable } from "../../store/schema.js";
import type { Store } from "../../store/store.js";
import {
  fitsOneStatement,
  preparedTexts,
  type ReturningWrite,
  type Write,
  withWrites,
  writeTogetherReturning,
} from "../../store/write-together.js";
import type { HandOffGroups } from "./hand-off-groups.js";

/** What a delivery's send and record need of its row and its webhook's. */
export const DELIVERY_ROW_COLUMNS = [
  "deliveries.id",
  "deliveries.webhook_id",
  "deliveries.emitter_id",
  "deliveries.event_id",
  "deliveries.channel",
  "deliveries.payload",
  "deliveries.status",
  "deliveries.attempts",
  "webhooks.url",
  "webhooks.active",
  "webhooks.signing_secret",
  "webhooks.previous_secret",
  "webhooks.previous_secret_expires_at",
  "webhooks.rate_limit",
  "webhooks.failing_since",
] as const;

/** The delivery and its webhook, as `DELIVERY_ROW_COLUMNS` select them. */
export function deliveryRows(creator: QueryCreator<Database>) {
  return creator
    .selectFrom("deliveries")
    .innerJoin("webhooks", "webhooks.id", "deliveries.webhook_id")
    .select(DELIVERY_ROW_COLUMNS);
}

export type DeliveryRow = Awaited<ReturnType<ReturnType<typeof deliveryRows>["executeTakeFirstOrThrow"]>>;

/** The job taken, and on PostgreSQL its delivery's row (absent if the delivery is gone). */
export interface TakenNext {
  readonly job: ClaimedJob;
  readonly row?: DeliveryRow;
}

/**
 * Commits `writes` (the finished delivery's outcome and its job's end) and leases the webhook's
 * next due job, all or none. Returns the job taken, or undefined when the webhook has none due.
 */
export async function writeAndTakeNext(
  store: Store,
  writes: readonly Write[],
  finished: ClaimedJob,
  leaseMs: number,
  now: number,
  groups?: HandOffGroups,
): Promise<TakenNext | undefined> {
  const takeNext = store.jobs.takeNextWrite(finished, leaseMs, now);
  // One statement of data-modifying `WITH`s where writes combine so (PostgreSQL).
  if (store.capabilities.combinesWrites) {
    const prepared = preparedHandOff(store, writes, takeNext);
    const compiled = prepared ?? builtHandOff(store.db, writes, takeNext);
    if (fitsOneStatement(compiled)) {
      // With others ending meanwhile (hand-off-groups.ts). A hand-off that also writes its
      // webhook's row (its failure state: not prepared) goes alone: two transactions of several
      // could then each hold one webhook's row and wait for the other's.
      const rows =
        prepared && groups ? await groups.commit(compiled) : (await store.db.executeQuery(compiled)).rows;
      const [taken] = rows as HandOffRow[];
      if (!taken) return undefined;
      const { next_job: jobRow, ...row } = taken;
      const job = toClaimedJob(jobRow);
      return { job, ...(found(row) ? { row } : {}) };
    }
  }
  const [taken] = await writeTogetherReturning(store, writes, takeNext);
  return taken ? { job: toClaimedJob(taken) } : undefined;
}

type HandOffRow = MaybeRow & {
  readonly next_job: JobsTable;
};

/** The delivery jobs the hand-off took (`next_job`) or a claim took (`claimed`), as `WITH`s. */
type JobsDatabase = Database & { next_job: JobsTable; claimed: JobsTable };

/**
 * The jobs of `from` with each one's delivery and webhook (`DELIVERY_ROW_COLUMNS`, null where
 * either is gone) and the job itself as JSON in the column `as`: what the hand-off reads of the
 * job it took, and what a claim reads of the jobs it took.
 */
function jobsWithDeliveries(creator: QueryCreator<JobsDatabase>, from: "next_job" | "claimed", as: string) {
  return creator
    .selectFrom(from)
    .leftJoin("deliveries", (join) =>
      join.on(sql<boolean>`deliveries.id = (${sql.ref(`${from}.payload`)}::json ->> 'deliveryId')`),
    )
    .leftJoin("webhooks", "webhooks.id", "deliveries.webhook_id")
    .select(DELIVERY_ROW_COLUMNS)
    .select(sql<JobsTable>`to_jsonb(${sql.table(from)})`.as(as));
}

/** What the hand-off reads of the job it took: the job (`next_job`), its delivery and webhook. */
function selectTaken(creator: QueryCreator<JobsDatabase>) {
  return jobsWithDeliveries(creator, "next_job", "next_job");
}

/**
 * What a claim of delivery jobs reads with them on PostgreSQL (store/jobs/contract.ts `readAlong`): each
 * job (`claimed_job`) with its delivery and webhook, as the hand-off reads them, so that the sends
 * start without a round trip per job. Its text, compiled once: it has no values.
 */
export function claimedDeliveriesRead(db: Kysely<Database>): string {
  claimedText ??= jobsWithDeliveries(
    db as unknown as QueryCreator<JobsDatabase>,
    "claimed",
    "claimed_job",
  ).compile().sql;
  return claimedText;
}

let claimedText: string | undefined;

/** A claimed job's delivery row as `claimedDeliveriesRead` read it; undefined if it was not read or is gone. */
export function claimedDeliveryRow(job: ClaimedJob): DeliveryRow | undefined {
  const row = job.readAlong as MaybeRow | undefined;
  return row && found(row) ? row : undefined;
}

type MaybeRow = { readonly [column in keyof DeliveryRow]: DeliveryRow[column] | null };

/**
 * Whether a row read through the left joins found the delivery and its webhook: either may be
 * gone (a webhook deleted while a commit stored deliveries for it), and then the worker reads
 * again, finds nothing, and drops the job (delivery-worker.ts).
 */
function found(row: MaybeRow): row is DeliveryRow {
  return row.id !== null && row.url !== null;
}

/** `selectTaken`'s text, compiled once: it has no values. */
let takenText: CompiledQuery | undefined;

/**
 * The hand-off as one statement joined from the prepared statements' texts
 * (store/combined-writes.ts), so Kysely builds nothing per delivery; undefined when one of the
 * writes is not prepared.
 */
function preparedHandOff(
  { db, capabilities }: Store,
  writes: readonly Write[],
  takeNext: ReturningWrite<JobsTable>,
): CompiledQuery | undefined {
  const texts = preparedTexts(db, writes);
  if (!takeNext.compiled || !texts) return undefined;
  takenText ??= selectTaken(db as unknown as QueryCreator<JobsDatabase>).compile();
  return combinedWritesThen(
    texts,
    { name: "next_job", query: takeNext.compiled(db, capabilities.name) },
    takenText,
    // Named: its plan does not depend on its values (primary keys, and the first entries of one
    // group's jobs: store/jobs/contract.ts `idIsFirst`), and planning it was half of its cost.
    { reusePlan: true },
  );
}

/** The hand-off built by Kysely, for writes that are not all prepared (a webhook's failure state). */
function builtHandOff(
  db: Kysely<Database>,
  writes: readonly Write[],
  takeNext: ReturningWrite<JobsTable>,
): CompiledQuery {
  const query = withWrites(db, writes).with(
    "next_job",
    (creator) => takeNext(creator) as never,
  ) as unknown as QueryCreator<JobsDatabase>;
  return selectTaken(query).compile();
}

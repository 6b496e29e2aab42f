/**
 * What a claim or a hand-off reads with each job it takes, in its own statement (PostgreSQL), so
 * the work starts without a round trip per job. A caller names what it wants (`ReadAlong`); the
 * SQL that reads it lives here.
 */
import { type QueryCreator, sql } from "kysely";
import type { Database, JobsTable } from "../schema.js";

/** What to read with each job taken: `"delivery"`, the delivery a job names and its webhook. */
export type ReadAlong = "delivery";

/** What a delivery's send and record need of its row and its webhook's. */
const DELIVERY_ROW_COLUMNS = [
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

/** The delivery and its webhook, as a delivery's send and record read them. */
export function deliveryRows(creator: QueryCreator<Database>) {
  return creator
    .selectFrom("deliveries")
    .innerJoin("webhooks", "webhooks.id", "deliveries.webhook_id")
    .select(DELIVERY_ROW_COLUMNS);
}

export type DeliveryRow = Awaited<ReturnType<ReturnType<typeof deliveryRows>["executeTakeFirstOrThrow"]>>;

/** The jobs a hand-off took (`next_job`) or a claim took (`claimed`), as `WITH`s. */
export type JobsDatabase = Database & { next_job: JobsTable; claimed: JobsTable };

/**
 * The jobs of `from` with each one's delivery and webhook (null where either is gone) and the job
 * itself as JSON in the column `as`. A delivery job's payload names its delivery (`deliveryId`).
 */
export function jobsWithDeliveries(
  creator: QueryCreator<JobsDatabase>,
  from: "next_job" | "claimed",
  as: string,
) {
  return creator
    .selectFrom(from)
    .leftJoin("deliveries", (join) =>
      join.on(sql<boolean>`deliveries.id = (${sql.ref(`${from}.payload`)}::json ->> 'deliveryId')`),
    )
    .leftJoin("webhooks", "webhooks.id", "deliveries.webhook_id")
    .select(DELIVERY_ROW_COLUMNS)
    .select(sql<JobsTable>`to_jsonb(${sql.table(from)})`.as(as));
}

/** Each read-along's text for claims, compiled once: it has no values. */
const claimTexts = new Map<ReadAlong, string>();

/**
 * The SELECT over `claimed` (the jobs a capped claim takes) returning each job as `claimed_job`
 * with what `readAlong` names, for the claim's own statement.
 */
export function claimReadAlongText(creator: QueryCreator<Database>, readAlong: ReadAlong): string {
  let text = claimTexts.get(readAlong);
  if (text === undefined) {
    text = jobsWithDeliveries(
      creator as unknown as QueryCreator<JobsDatabase>,
      "claimed",
      "claimed_job",
    ).compile().sql;
    claimTexts.set(readAlong, text);
  }
  return text;
}

type MaybeRow = { readonly [column in keyof DeliveryRow]: DeliveryRow[column] | null };

/**
 * The delivery row read along, or undefined when the left joins found no delivery or no webhook:
 * either may be gone (a webhook deleted while a commit stored deliveries for it), and then the
 * worker reads again, finds nothing, and drops the job.
 */
export function readAlongRow(read: Readonly<Record<string, unknown>>): DeliveryRow | undefined {
  const row = read as MaybeRow;
  return row.id !== null && row.url !== null ? (row as DeliveryRow) : undefined;
}

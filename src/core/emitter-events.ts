/**
 * Appending events to an emitter (a source or a workflow) inside the caller's transaction: ids
 * that rise strictly per emitter, the rows, the fan-out to what listens (a delivery per subscribed
 * webhook, a run per linked workflow), and the retention trim. Either all of it commits or none.
 */
import type { JobQueue } from "../store/jobs.js";
import type { Executor } from "../store/schema.js";
import { enqueueDeliveries } from "./delivery/enqueue.js";
import { formatSequenceId, nextSequenceId, type SequenceId } from "./event-ids.js";
import { atOrBefore, idAtRank, type SequencedTable } from "./sequenced-rows.js";
import { storableText } from "./storable-text.js";
import { enqueueTriggeredRuns } from "./workflows/run-queue.js";

const INSERT_CHUNK = 200;

export interface StoredEvent {
  readonly id: string;
  readonly ms: number;
  readonly seq: number;
  readonly channel: string | null;
  readonly eventKey: string | null;
  readonly summary: string | null;
  readonly payload: unknown;
}

export interface NewEvent {
  readonly payload: unknown;
  readonly channel: string | null;
  readonly eventKey: string | null;
  readonly summary: string | null;
}

export interface Emitter {
  readonly id: string;
  readonly accountId: string;
}

export interface AppendOutcome {
  readonly events: StoredEvent[];
  /** The emitter's last event id after the append. */
  readonly last: SequenceId;
  /** Deliveries created for subscribed webhooks. */
  readonly deliveries: number;
  /** Runs queued for linked workflows. */
  readonly runs: number;
}

/** Stores `items` after `last` (the emitter's last id, read under its row lock) and fans them out. */
export async function appendEvents(
  tx: Executor,
  jobs: JobQueue,
  emitter: Emitter,
  last: SequenceId,
  items: readonly NewEvent[],
  now: number,
): Promise<AppendOutcome> {
  let cursor = last;
  const events: StoredEvent[] = items.map((item) => {
    cursor = nextSequenceId(cursor, now);
    return {
      id: formatSequenceId(cursor),
      ...cursor,
      // What a component gave cannot make the commit fail (a NUL, say): it is made storable.
      channel: item.channel === null ? null : storableText(item.channel),
      eventKey: item.eventKey === null ? null : storableText(item.eventKey),
      summary: item.summary === null ? null : storableText(item.summary),
      payload: item.payload,
    };
  });
  for (let start = 0; start < events.length; start += INSERT_CHUNK) {
    await tx
      .insertInto("events")
      .values(
        events.slice(start, start + INSERT_CHUNK).map((event) => ({
          emitter_id: emitter.id,
          ms: event.ms,
          seq: event.seq,
          account_id: emitter.accountId,
          channel: event.channel,
          event_key: event.eventKey,
          summary: event.summary,
          payload: JSON.stringify(event.payload),
        })),
      )
      .execute();
  }
  if (events.length === 0) return { events, last: cursor, deliveries: 0, runs: 0 };
  // Who listens, in one query: webhooks (deliveries) and workflows (runs).
  const listeners = await tx
    .selectFrom("subscriptions")
    .leftJoin("webhooks", "webhooks.id", "subscriptions.listener_id")
    .leftJoin("workflows", "workflows.id", "subscriptions.listener_id")
    .select([
      "subscriptions.listener_id",
      "subscriptions.event_name",
      "webhooks.active as webhook_active",
      "workflows.active as workflow_active",
    ])
    .where("subscriptions.emitter_id", "=", emitter.id)
    .execute();
  const webhooks = listeners.flatMap((row) =>
    row.webhook_active === null
      ? []
      : [{ event_name: row.event_name, webhook_id: row.listener_id, active: row.webhook_active }],
  );
  const workflows = listeners.flatMap((row) =>
    row.workflow_active === 1 ? [{ workflowId: row.listener_id, eventName: row.event_name }] : [],
  );
  const deliveries = await enqueueDeliveries(tx, jobs, emitter, events, webhooks);
  const runs = await enqueueTriggeredRuns(tx, jobs, emitter, events, workflows);
  return { events, last: cursor, deliveries, runs };
}

/** Keeps the newest `keep` rows of an emitter in an id-ordered table. */
export async function trimRows(
  tx: Executor,
  table: SequencedTable,
  emitterId: string,
  keep: number,
): Promise<void> {
  const cutoff = await idAtRank(tx, table, emitterId, keep);
  if (!cutoff) return;
  await tx
    .deleteFrom(table)
    .where("emitter_id", "=", emitterId)
    .where((eb) => atOrBefore(eb, cutoff))
    .execute();
}

/**
 * A timer source's ticks are rows of the jobs table (queue "timer"), one pending per source
 * (unique key `timer:<id>`). Activating schedules the next tick; deactivating or deleting removes
 * it at once. The worker (timer-worker.ts) claims due ticks with a lease, so each tick fires on
 * one node, and survives a restart because it is a row.
 */
// Kysely here, not in the store: one plain delete of a pending tick; ticks are queued through store.jobs.
import type { ComponentDefinition } from "../../../runtime/component-definition.js";
import type { Executor } from "../../../store/schema.js";
import type { Store } from "../../../store/store.js";
import type { StoreTransaction } from "../../../store/transaction.js";
import { nextDue, type Schedule } from "./schedule.js";

export const TIMER_QUEUE = "timer";
export const TIMERS_TOPIC = "timers";

export interface TickPayload {
  readonly sourceId: string;
  /** Ticks skipped because the previous run outlasted its interval, logged by this tick's run. */
  readonly overrunSkipped?: number;
}

export function timerKey(sourceId: string): string {
  return `timer:${sourceId}`;
}

/** The source's schedule: the configured value of its timer prop, or null if it has none. */
export function scheduleOf(
  definition: ComponentDefinition,
  values: Record<string, unknown>,
): Schedule | null {
  const timer = definition.props.find((prop) => prop.type === "$.interface.timer");
  if (!timer) return null;
  return (values[timer.name] as Schedule | undefined) ?? null;
}

/** Replaces the source's pending tick with one at the schedule's next due time. */
export async function scheduleTicks(store: Store, sourceId: string, schedule: Schedule): Promise<void> {
  await store.transaction(async (tx) => {
    await cancelTicks(store.dbIn(tx), sourceId);
    await enqueueTick(tx, store, { sourceId }, nextDue(schedule, Date.now()));
  });
  store.notifier.publish(TIMERS_TOPIC);
}

export async function cancelTicks(db: Executor, sourceId: string): Promise<void> {
  await db.deleteFrom("jobs").where("unique_key", "=", timerKey(sourceId)).execute();
}

export async function enqueueTick(
  tx: StoreTransaction,
  store: Store,
  payload: TickPayload,
  runAt: number,
): Promise<void> {
  await store.jobs.enqueue({ queue: TIMER_QUEUE, payload, runAt, uniqueKey: timerKey(payload.sourceId) }, tx);
}

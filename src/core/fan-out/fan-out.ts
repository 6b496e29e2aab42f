/**
 * Fan-out: what an emitter's new events cause. Each subscription of the emitter names a listener:
 * a webhook gets a delivery per event (core/delivery/enqueue.ts), a workflow a run
 * (core/workflows/run-queue.ts). The consumers plan their writes here, for the same transaction
 * as the events, so an event and what it causes commit together or not at all. Events
 * (core/events/) import none of this; the commits of sources and workflows call it.
 */
import type { JobQueue } from "../../store/jobs/contract.js";
import type { Write } from "../../store/write-together.js";
import { deliveryWrites, type WebhookSubscription } from "../delivery/enqueue.js";
import type { Emitter, StoredEvent } from "../events/emitter-events.js";
import { triggeredRunWrites } from "../workflows/run-queue.js";

/** What listens to an emitter: its subscribed webhooks (deliveries) and linked workflows (runs). */
export interface Listeners {
  readonly webhooks: readonly WebhookSubscription[];
  readonly workflows: readonly { readonly workflowId: string; readonly eventName: string }[];
}

/** One subscription, joined to its listener: a webhook or a workflow, whichever it is. */
export interface ListenerRow {
  readonly listener_id: string | null;
  readonly event_name: string | null;
  readonly webhook_active: number | null;
  readonly workflow_active: number | null;
}

/** The listeners of subscription rows, joined to the emitter's row (a row per subscription). */
export function listenersOf(rows: readonly ListenerRow[]): Listeners {
  const webhooks: WebhookSubscription[] = [];
  const workflows: { workflowId: string; eventName: string }[] = [];
  for (const row of rows) {
    if (row.listener_id === null || row.event_name === null) continue;
    if (row.webhook_active !== null) {
      webhooks.push({ event_name: row.event_name, webhook_id: row.listener_id, active: row.webhook_active });
    } else if (row.workflow_active === 1) {
      workflows.push({ workflowId: row.listener_id, eventName: row.event_name });
    }
  }
  return { webhooks, workflows };
}

/** What the fan-out of an append causes, as writes for the caller's transaction. */
export interface FanOut {
  /** Deliveries created for subscribed webhooks. */
  readonly deliveries: number;
  /** The webhooks whose deliveries were queued (to announce them: store/notifier.ts). */
  readonly webhooks: readonly string[];
  /** Runs queued for linked workflows. */
  readonly runs: number;
  readonly writes: readonly Write[];
}

export const NO_FAN_OUT: FanOut = { deliveries: 0, webhooks: [], runs: 0, writes: [] };

/** Plans a delivery per event and subscribed webhook, and a run per event and linked workflow. */
export function planFanOut(
  jobs: JobQueue,
  emitter: Emitter,
  events: readonly StoredEvent[],
  listeners: Listeners,
): FanOut {
  if (events.length === 0) return NO_FAN_OUT;
  const deliveries = deliveryWrites(jobs, emitter, events, listeners.webhooks);
  const runs = triggeredRunWrites(jobs, emitter, events, listeners.workflows);
  return {
    deliveries: deliveries.count,
    webhooks: deliveries.webhooks,
    runs: runs.count,
    writes: [...deliveries.writes, ...runs.writes],
  };
}

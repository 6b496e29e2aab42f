/**
 * The outbox side of delivery: inside the transaction that stores an invocation's events, one
 * delivery (and its job) per event and subscribed, active webhook. An accepted event and its
 * deliveries commit together, so a crash can lose neither.
 */

// Kysely here, not in the store: a plain insert of delivery rows; their jobs come from store.jobs.
import type { Insertable } from "kysely";
import type { JobQueue, NewJob } from "../../store/jobs/contract.js";
import type { DeliveriesTable, Executor } from "../../store/schema.js";
import { insertWrites, type Write } from "../../store/write-together.js";
import type { StoredEvent } from "../events/emitter-events.js";
import { newId } from "../ids.js";

export const DELIVERY_QUEUE = "delivery";
export const DELIVERIES_TOPIC = "deliveries";
/** A subscription to this channel name receives the events of the default channel only. */
export const DEFAULT_CHANNEL = "$default";

export interface DeliveryJob {
  readonly deliveryId: string;
  /** A resend asked for by a person: one attempt, no automatic retries after it. */
  readonly manual?: boolean;
}

/** A webhook subscribed to the emitter: its channel filter, and whether it is active. */
export interface WebhookSubscription {
  readonly event_name: string;
  readonly webhook_id: string;
  readonly active: number;
}

/** Creates the deliveries of `events` to the subscribed webhooks inside `tx`; returns how many. */
export async function enqueueDeliveries(
  tx: Executor,
  jobs: JobQueue,
  emitter: { readonly id: string; readonly accountId: string },
  events: readonly StoredEvent[],
  subscriptions: readonly WebhookSubscription[],
): Promise<number> {
  const planned = deliveryWrites(jobs, emitter, events, subscriptions);
  for (const write of planned.writes) await write(tx).execute();
  return planned.count;
}

/**
 * The writes that create the deliveries of `events` to the subscribed webhooks (their rows and
 * the jobs of the active ones), for a caller that writes them with the events; how many; and
 * the webhooks whose jobs they queue.
 */
export function deliveryWrites(
  jobs: JobQueue,
  emitter: { readonly id: string; readonly accountId: string },
  events: readonly StoredEvent[],
  subscriptions: readonly WebhookSubscription[],
): { readonly writes: Write[]; readonly count: number; readonly webhooks: readonly string[] } {
  if (events.length === 0 || subscriptions.length === 0) return { writes: [], count: 0, webhooks: [] };

  const now = Date.now();
  const rows: Insertable<DeliveriesTable>[] = [];
  const queued: NewJob[] = [];
  const queuedTo = new Set<string>();
  for (const event of events) {
    const webhooks = new Map<string, boolean>();
    for (const subscription of subscriptions) {
      if (!matches(subscription.event_name, event.channel)) continue;
      webhooks.set(subscription.webhook_id, subscription.active === 1);
    }
    for (const [webhookId, active] of webhooks) {
      const id = newId("dlv");
      const row = {
        id,
        account_id: emitter.accountId,
        webhook_id: webhookId,
        emitter_id: emitter.id,
        event_id: event.id,
        channel: event.channel,
        payload: JSON.stringify(event.payload),
        attempts: 0,
        created_at: now,
        updated_at: now,
      };
      // A disabled webhook's deliveries are kept as failed, so recovering it after re-enabling
      // sends what it missed; only an active webhook's are queued.
      if (!active) {
        rows.push({
          ...row,
          status: "failed",
          last_error:
            "the webhook was disabled when the event was emitted; re-enable it and recover its deliveries",
          next_attempt_at: null,
        });
        continue;
      }
      rows.push({ ...row, status: "pending", last_error: null, next_attempt_at: now });
      queuedTo.add(webhookId);
      queued.push({
        queue: DELIVERY_QUEUE,
        payload: { deliveryId: id } satisfies DeliveryJob,
        groupKey: webhookId,
        runAt: now,
      });
    }
  }
  return {
    writes: [...insertWrites("deliveries", rows), ...jobs.enqueueWrites(queued)],
    count: rows.length,
    webhooks: [...queuedTo],
  };
}

/**
 * A subscription to every channel ("") receives every channel but the reserved ones, whose
 * names start with `$` (a workflow's `$errors`): those go only to subscriptions that name them.
 */
function matches(filter: string, channel: string | null): boolean {
  if (filter === "") return channel === null || !channel.startsWith("$");
  if (filter === DEFAULT_CHANNEL) return channel === null;
  return filter === channel;
}

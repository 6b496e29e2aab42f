/**
 * What operators see and do with deliveries: a webhook's delivery log, one delivery with its
 * attempts, resending one, and resending every failed delivery of a webhook since a time.
 * A resend keeps the delivery's `webhook-id`, so receivers can recognise it.
 */
// Kysely here, not in the store: plain reads and writes of its own tables; jobs go through store.jobs.
import type { DeliveriesTable, DeliveryAttemptsTable, Executor } from "../../store/schema.js";
import type { Store } from "../../store/store.js";
import { ConflictError, InvalidInputError, NotFoundError } from "../errors.js";
import { type Page, type PageRequest, readPage } from "../pagination.js";
import { DELIVERIES_TOPIC, DELIVERY_QUEUE, type DeliveryJob } from "./enqueue.js";

export async function listDeliveries(
  db: Executor,
  accountId: string,
  webhookId: string,
  page: PageRequest & { status?: string },
): Promise<Page<DeliveriesTable>> {
  await ownedWebhook(db, accountId, webhookId);
  if (page.status !== undefined && !["pending", "delivered", "failed"].includes(page.status)) {
    throw new InvalidInputError("status must be pending, delivered or failed");
  }
  const filtered = () => {
    let query = db.selectFrom("deliveries").where("webhook_id", "=", webhookId);
    if (page.status !== undefined)
      query = query.where("status", "=", page.status as DeliveriesTable["status"]);
    return query;
  };
  return readPage(page, {
    async rows(cursor, order, limit) {
      let query = filtered().selectAll();
      if (cursor) query = query.where("id", cursor.op, cursor.id);
      return query.orderBy("id", order).limit(limit).execute();
    },
    async count() {
      const row = await filtered()
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
  });
}

export async function getDelivery(
  db: Executor,
  accountId: string,
  deliveryId: string,
): Promise<{ delivery: DeliveriesTable; attempts: DeliveryAttemptsTable[] }> {
  const delivery = await db
    .selectFrom("deliveries")
    .selectAll()
    .where("id", "=", deliveryId)
    .where("account_id", "=", accountId)
    .executeTakeFirst();
  if (!delivery) throw new NotFoundError("delivery", deliveryId);
  const attempts = await db
    .selectFrom("delivery_attempts")
    .selectAll()
    .where("delivery_id", "=", deliveryId)
    .orderBy("attempt")
    .execute();
  return { delivery, attempts };
}

/** Sends one delivery again now (one attempt). A delivery still pending is already on its way. */
export async function retryDelivery(
  store: Store,
  accountId: string,
  deliveryId: string,
): Promise<DeliveriesTable> {
  const { delivery } = await getDelivery(store.db, accountId, deliveryId);
  if (delivery.status === "pending") {
    throw new ConflictError(
      "delivery_pending",
      `Delivery ${deliveryId} is still pending: it will be attempted again by itself`,
    );
  }
  await requeue(store, [delivery]);
  return (await getDelivery(store.db, accountId, deliveryId)).delivery;
}

/** Resends every failed delivery of the webhook created at or after `since` (epoch ms). */
export async function recoverWebhook(
  store: Store,
  accountId: string,
  webhookId: string,
  since: number,
): Promise<number> {
  await ownedWebhook(store.db, accountId, webhookId);
  const failed = await store.db
    .selectFrom("deliveries")
    .selectAll()
    .where("webhook_id", "=", webhookId)
    .where("status", "=", "failed")
    .where("created_at", ">=", since)
    .execute();
  await requeue(store, failed);
  return failed.length;
}

async function requeue(store: Store, deliveries: readonly DeliveriesTable[]): Promise<void> {
  if (deliveries.length === 0) return;
  const now = Date.now();
  await store.transaction(async (tx) => {
    for (let start = 0; start < deliveries.length; start += 200) {
      const ids = deliveries.slice(start, start + 200).map((delivery) => delivery.id);
      await store
        .dbIn(tx)
        .updateTable("deliveries")
        .set({ status: "pending", next_attempt_at: now, updated_at: now })
        .where("id", "in", ids)
        .execute();
    }
    await store.jobs.enqueueMany(
      deliveries.map((delivery) => ({
        queue: DELIVERY_QUEUE,
        payload: { deliveryId: delivery.id, manual: true } satisfies DeliveryJob,
        groupKey: delivery.webhook_id,
      })),
      tx,
    );
  });
  store.notifier.publish(DELIVERIES_TOPIC);
}

/** Removes a deleted webhook's deliveries and their queued jobs. */
export async function removeDeliveriesOf(db: Executor, webhookId: string): Promise<void> {
  await db
    .deleteFrom("jobs")
    .where("queue", "=", DELIVERY_QUEUE)
    .where("group_key", "=", webhookId)
    .execute();
  const ids = db.selectFrom("deliveries").select("id").where("webhook_id", "=", webhookId);
  await db.deleteFrom("delivery_attempts").where("delivery_id", "in", ids).execute();
  await db.deleteFrom("deliveries").where("webhook_id", "=", webhookId).execute();
}

async function ownedWebhook(db: Executor, accountId: string, webhookId: string): Promise<void> {
  const row = await db
    .selectFrom("webhooks")
    .select("id")
    .where("id", "=", webhookId)
    .where("account_id", "=", accountId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError("webhook", webhookId);
}

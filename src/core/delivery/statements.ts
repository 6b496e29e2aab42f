/**
 * The statements every delivery runs, prepared (store/prepared.ts): built and compiled once, run
 * with each delivery's values. Their builders pass the values on and never look at them.
 */
// Kysely here, not in the store: plain prepared statements that run alike on both databases.
import type { QueryCreator } from "kysely";
import { type DeliveryRow, deliveryRows } from "../../store/jobs/read-along.js";
import { prepared } from "../../store/prepared.js";
import type { Database, DeliveriesTable, DeliveryAttemptsTable } from "../../store/schema.js";

/** A delivery and its webhook, by the delivery's id. */
export const readDelivery = prepared<{ id: string }, DeliveryRow>(
  (creator, delivery) => deliveryRows(creator).where("deliveries.id", "=", delivery.id),
  { reusePlan: true },
);

const ATTEMPT_COLUMNS = [
  "delivery_id",
  "attempt",
  "at",
  "status_code",
  "latency_ms",
  "error",
  "response_body",
] as const satisfies readonly (keyof DeliveryAttemptsTable)[];
/** Fails to compile when a column of the table is missing from ATTEMPT_COLUMNS (it would go unwritten). */
const everyAttemptColumn: Exclude<keyof DeliveryAttemptsTable, (typeof ATTEMPT_COLUMNS)[number]> extends never
  ? true
  : never = true;
void everyAttemptColumn;

type Attempt = Pick<DeliveryAttemptsTable, keyof DeliveryAttemptsTable>;

/**
 * An attempt's record, kept only while its delivery is (one left would never be seen nor removed);
 * a retried record is a no-op. On PostgreSQL the check locks the delivery's row (`FOR KEY SHARE`),
 * so it waits for a delete under way and then finds the row gone (ARCHITECTURE.md: lock order).
 */
function attemptInsert(creator: QueryCreator<Database>, attempt: Attempt, lock: boolean) {
  const delivery = creator
    .selectFrom("deliveries")
    .select((eb) => eb.lit(1).as("found"))
    .where("deliveries.id", "=", attempt.delivery_id);
  return creator
    .insertInto("delivery_attempts")
    .columns(ATTEMPT_COLUMNS)
    .expression(
      creator
        .selectNoFrom((eb) => ATTEMPT_COLUMNS.map((column) => eb.val(attempt[column]).as(column)))
        .where(({ exists }) => exists(lock ? delivery.forKeyShare() : delivery)),
    )
    .onConflict((conflict) => conflict.columns(["delivery_id", "attempt"]).doNothing());
}

/** `attemptInsert` with the row lock, and without it where the database has none (SQLite, nor their syntax). */
export const insertAttempt = {
  plain: prepared((creator, attempt: Attempt) => attemptInsert(creator, attempt, false), {
    reusePlan: true,
  }),
  locking: prepared((creator, attempt: Attempt) => attemptInsert(creator, attempt, true), {
    reusePlan: true,
  }),
};

/** A delivery's state after an attempt. */
export const updateDelivery = prepared(
  (
    creator,
    delivery: Pick<
      DeliveriesTable,
      | "id"
      | "status"
      | "attempts"
      | "last_status_code"
      | "last_error"
      | "last_latency_ms"
      | "next_attempt_at"
      | "updated_at"
    >,
  ) => {
    const { id, ...state } = delivery;
    return creator.updateTable("deliveries").set(state).where("id", "=", id);
  },
  { reusePlan: true },
);

/** A delivery whose webhook is gone (deleted while the commit that queued it ran). */
export const deleteOrphan = prepared(
  (creator, delivery: { id: string }) =>
    creator
      .deleteFrom("deliveries")
      .where("id", "=", delivery.id)
      .where(({ exists, not, selectFrom }) =>
        not(
          exists(
            selectFrom("webhooks")
              .select("webhooks.id")
              .whereRef("webhooks.id", "=", "deliveries.webhook_id"),
          ),
        ),
      ),
  { reusePlan: true },
);

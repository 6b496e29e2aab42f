/**
 * Subscriptions join an emitter (a `dc_` source or a `p_` workflow) to a listener (a `wh_`
 * webhook) of the same account, optionally for one channel. (A workflow's trigger link is a
 * subscription too, with the workflow as the listener; those are made by the workflow itself.) Subscribing twice returns the
 * existing subscription; deleting either end removes its subscriptions.
 */
// Kysely here, not in the store: reads and writes only its own table (subscriptions).
import type { Executor, SubscriptionsTable } from "../../store/schema.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { newId } from "../ids.js";
import { ownedRow } from "../owned-rows.js";
import { type Page, type PageRequest, readQueryPage } from "../pagination.js";

export interface Subscription {
  readonly id: string;
  readonly accountId: string;
  readonly emitterId: string;
  readonly listenerId: string;
  /** The channel filter; null means every channel. */
  readonly eventName: string | null;
  readonly createdAt: number;
}

export interface SubscriptionInput {
  readonly emitter_id?: unknown;
  readonly listener_id?: unknown;
  readonly event_name?: unknown;
}

export async function subscribe(
  db: Executor,
  accountId: string,
  input: SubscriptionInput,
): Promise<Subscription> {
  const { emitterId, listenerId, eventName, existing } = await lookUp(db, accountId, input);
  if (existing) return existing;
  const subscription: Subscription = {
    id: newId("sub"),
    accountId,
    emitterId,
    listenerId,
    eventName: eventName === "" ? null : eventName,
    createdAt: Date.now(),
  };
  await db
    .insertInto("subscriptions")
    .values({
      id: subscription.id,
      account_id: accountId,
      emitter_id: emitterId,
      listener_id: listenerId,
      event_name: eventName,
      created_at: subscription.createdAt,
    })
    .onConflict((conflict) => conflict.columns(["emitter_id", "listener_id", "event_name"]).doNothing())
    .execute();
  // A concurrent subscribe may have won the insert: answer with whichever row exists.
  return (await findSubscription(db, emitterId, listenerId, eventName)) ?? subscription;
}

export async function unsubscribe(
  db: Executor,
  accountId: string,
  input: SubscriptionInput,
): Promise<Subscription> {
  const { emitterId, listenerId, eventName, existing } = await lookUp(db, accountId, input);
  if (!existing)
    throw new NotFoundError(
      "subscription",
      `${emitterId} → ${listenerId}${eventName ? ` (${eventName})` : ""}`,
    );
  await db.deleteFrom("subscriptions").where("id", "=", existing.id).execute();
  return existing;
}

export function listSubscriptions(
  db: Executor,
  accountId: string,
  page: PageRequest,
): Promise<Page<Subscription>> {
  // A workflow's link to its trigger source is the workflow's own, not a subscription to a webhook.
  const owned = db
    .selectFrom("subscriptions")
    .selectAll()
    .where("account_id", "=", accountId)
    .where("listener_id", "not like", "p_%");
  return readQueryPage(page, owned, toSubscription);
}

/** Removes every subscription of an emitter or a listener that is being deleted. */
export async function removeSubscriptionsOf(db: Executor, id: string): Promise<void> {
  await db
    .deleteFrom("subscriptions")
    .where((eb) => eb.or([eb("emitter_id", "=", id), eb("listener_id", "=", id)]))
    .execute();
}

/** The input's ends, checked, and the subscription that joins them if there is one. */
async function lookUp(db: Executor, accountId: string, input: SubscriptionInput) {
  const ends = await checkEnds(db, accountId, input);
  return { ...ends, existing: await findSubscription(db, ends.emitterId, ends.listenerId, ends.eventName) };
}

async function checkEnds(db: Executor, accountId: string, input: SubscriptionInput) {
  const emitterId = requireId(
    input.emitter_id,
    "emitter_id",
    "the source (dc_…) or workflow (p_…) whose events to deliver",
  );
  const listenerId = requireId(input.listener_id, "listener_id", "the webhook (wh_…) to deliver them to");
  if (input.event_name !== undefined && input.event_name !== null && typeof input.event_name !== "string") {
    throw new InvalidInputError("event_name must be a string: the channel to subscribe to");
  }
  const eventName = (input.event_name as string | undefined | null) ?? "";
  if (eventName.length > 200) throw new InvalidInputError("event_name must be at most 200 characters");

  if (emitterId.startsWith("p_")) {
    await requireOwned(db, accountId, "workflows", "workflow", emitterId, "p_", "emitter_id");
  } else {
    await requireOwned(db, accountId, "sources", "source", emitterId, "dc_", "emitter_id");
  }
  await requireOwned(db, accountId, "webhooks", "webhook", listenerId, "wh_", "listener_id");
  return { emitterId, listenerId, eventName };
}

/** The id must have the prefix (400) and name a row of the account (404 otherwise, whoever owns it). */
async function requireOwned(
  db: Executor,
  accountId: string,
  table: "sources" | "webhooks" | "workflows",
  resource: string,
  id: string,
  prefix: string,
  field: string,
): Promise<void> {
  if (!id.startsWith(prefix))
    throw new InvalidInputError(`${field} must be a ${resource} id (${prefix}…), got '${id}'`);
  await ownedRow(db, { table, name: resource }, accountId, id);
}

async function findSubscription(db: Executor, emitterId: string, listenerId: string, eventName: string) {
  const row = await db
    .selectFrom("subscriptions")
    .selectAll()
    .where("emitter_id", "=", emitterId)
    .where("listener_id", "=", listenerId)
    .where("event_name", "=", eventName)
    .executeTakeFirst();
  return row ? toSubscription(row) : undefined;
}

function requireId(value: unknown, field: string, what: string): string {
  if (typeof value !== "string" || value === "") throw new InvalidInputError(`${field} is required: ${what}`);
  if (value.length > 200) throw new InvalidInputError(`${field} is too long`);
  return value;
}

function toSubscription(row: SubscriptionsTable): Subscription {
  return {
    id: row.id,
    accountId: row.account_id,
    emitterId: row.emitter_id,
    listenerId: row.listener_id,
    eventName: row.event_name === "" ? null : row.event_name,
    createdAt: Number(row.created_at),
  };
}

/**
 * Webhooks: the account's own URLs that subscribed events are delivered to. The signing secret is
 * generated here, stored encrypted, and returned once, in the result of createWebhook.
 */
// Kysely here, not in the store: reads and writes only its own tables (webhooks, their subscriptions).
import type { Updateable } from "kysely";
import type { Executor, WebhooksTable } from "../../store/schema.js";
import type { Store } from "../../store/store.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { removeSubscriptionsOf } from "../fan-out/subscriptions.js";
import { newId, newSigningSecret } from "../ids.js";
import { ownedRow } from "../owned-rows.js";
import { type Page, type PageRequest, readQueryPage } from "../pagination.js";
import type { SecretBox } from "../secret-box.js";
import { optionalText, requiredText } from "../validation.js";
import { removeDeliveriesOf } from "./deliveries.js";

export interface Webhook {
  readonly id: string;
  readonly accountId: string;
  readonly url: string;
  readonly name: string;
  readonly description: string;
  readonly active: boolean;
  /** Deliveries per second at most, or null. */
  readonly rateLimit: number | null;
  /** Why Sluice disabled it (a 410, five days of failures); null when enabled or disabled by hand. */
  readonly disabledReason: string | null;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface WebhookInput {
  readonly url?: unknown;
  readonly name?: unknown;
  readonly description?: unknown;
  readonly rate_limit?: unknown;
}

export interface WebhookUpdate extends WebhookInput {
  readonly active?: unknown;
}

/** After a rotation, deliveries carry both signatures for this long. */
export const SECRET_OVERLAP_MS = 24 * 3600 * 1000;
export const MAX_RATE_LIMIT = 10_000;

export const MAX_WEBHOOK_URL_LENGTH = 2048;
const MAX_NAME_LENGTH = 200;
const MAX_DESCRIPTION_LENGTH = 2000;
const WEBHOOKS = { table: "webhooks", name: "webhook" } as const;

export async function createWebhook(
  db: Executor,
  secrets: SecretBox,
  accountId: string,
  input: WebhookInput,
): Promise<{ webhook: Webhook; signingSecret: string }> {
  const url = validateWebhookUrl(input.url);
  const name = requiredText(input.name, "name", MAX_NAME_LENGTH);
  const description = optionalText(input.description, "description", MAX_DESCRIPTION_LENGTH) ?? "";
  const rateLimit = parseRateLimit(input.rate_limit) ?? null;
  const signingSecret = newSigningSecret();
  const now = Date.now();
  const webhook: Webhook = {
    id: newId("wh"),
    accountId,
    url,
    name,
    description,
    active: true,
    rateLimit,
    disabledReason: null,
    createdAt: now,
    updatedAt: now,
  };
  await db
    .insertInto("webhooks")
    .values({
      id: webhook.id,
      account_id: accountId,
      url,
      name,
      description,
      active: 1,
      signing_secret: secrets.encrypt(signingSecret),
      created_at: now,
      updated_at: now,
      rate_limit: rateLimit,
    })
    .execute();
  return { webhook, signingSecret };
}

/** Changes name, description, url, rate_limit or active; re-enabling clears the failure state. */
export async function updateWebhook(
  db: Executor,
  accountId: string,
  id: string,
  input: WebhookUpdate,
): Promise<Webhook> {
  await getWebhook(db, accountId, id);
  const changes: Updateable<WebhooksTable> = { updated_at: Date.now() };
  if (input.url !== undefined) changes.url = validateWebhookUrl(input.url);
  if (input.name !== undefined) changes.name = requiredText(input.name, "name", MAX_NAME_LENGTH);
  if (input.description !== undefined)
    changes.description = optionalText(input.description, "description", MAX_DESCRIPTION_LENGTH) ?? "";
  if (input.rate_limit !== undefined) changes.rate_limit = parseRateLimit(input.rate_limit) ?? null;
  if (input.active !== undefined) {
    if (input.active !== true && input.active !== false)
      throw new InvalidInputError("active must be true or false");
    changes.active = input.active ? 1 : 0;
    changes.disabled_reason = null;
    if (input.active) changes.failing_since = null;
  }
  await db.updateTable("webhooks").set(changes).where("id", "=", id).execute();
  return getWebhook(db, accountId, id);
}

/**
 * Gives the webhook a new signing secret, returned once. For 24 hours deliveries carry both
 * signatures, so receivers can switch without missing one.
 */
export async function rotateSigningSecret(
  db: Executor,
  secrets: SecretBox,
  accountId: string,
  id: string,
): Promise<{ webhook: Webhook; signingSecret: string }> {
  await getWebhook(db, accountId, id);
  const row = await db
    .selectFrom("webhooks")
    .select("signing_secret")
    .where("id", "=", id)
    .executeTakeFirstOrThrow();
  const signingSecret = newSigningSecret();
  const now = Date.now();
  await db
    .updateTable("webhooks")
    .set({
      signing_secret: secrets.encrypt(signingSecret),
      previous_secret: row.signing_secret,
      previous_secret_expires_at: now + SECRET_OVERLAP_MS,
      updated_at: now,
    })
    .where("id", "=", id)
    .execute();
  return { webhook: await getWebhook(db, accountId, id), signingSecret };
}

function parseRateLimit(value: unknown): number | undefined {
  if (value === undefined) return undefined;
  if (value === null) return undefined;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 1 || value > MAX_RATE_LIMIT) {
    throw new InvalidInputError(
      `rate_limit must be an integer from 1 to ${MAX_RATE_LIMIT} (deliveries per second), or null`,
    );
  }
  return value;
}

export function listWebhooks(db: Executor, accountId: string, page: PageRequest): Promise<Page<Webhook>> {
  const owned = db.selectFrom("webhooks").selectAll().where("account_id", "=", accountId);
  return readQueryPage(page, owned, toWebhook);
}

/** The account's webhook; another account's id is reported exactly like an unknown one. */
export async function getWebhook(db: Executor, accountId: string, id: string): Promise<Webhook> {
  return toWebhook(await ownedRow(db, WEBHOOKS, accountId, id));
}

/** Deletes the webhook with its subscriptions, deliveries, queued delivery jobs and rate slots. */
export async function deleteWebhook(
  store: Pick<Store, "transaction" | "dbIn" | "capabilities">,
  accountId: string,
  id: string,
): Promise<void> {
  await store.transaction(async (tx) => {
    const db = store.dbIn(tx);
    // PostgreSQL: the emitters subscribed to it are locked first, as their commits lock them, so a
    // commit in flight ends before the deliveries are deleted, and one that comes after waits
    // for this delete. (A source's commit may still have read the subscription before it waited:
    // the deliveries it then stores go unsent, with their jobs: delivery/delivery-worker.ts.)
    if (store.capabilities.skipLocked) {
      const subscribed = db.selectFrom("subscriptions").select("emitter_id").where("listener_id", "=", id);
      for (const emitters of ["sources", "workflows"] as const) {
        await db
          .selectFrom(emitters)
          .select("id")
          .where("id", "in", subscribed)
          .where("account_id", "=", accountId)
          .orderBy("id")
          .forUpdate()
          .execute();
      }
    }
    await getWebhook(db, accountId, id);
    // The webhook's row goes after its jobs: a delivery's record locks its job first and then may
    // write the webhook's row (its failure state), so a delete holding that row while it waited
    // for the job would deadlock with it (PostgreSQL).
    await removeDeliveriesOf(db, id);
    await removeSubscriptionsOf(db, id);
    const result = await db
      .deleteFrom("webhooks")
      .where("id", "=", id)
      .where("account_id", "=", accountId)
      .executeTakeFirst();
    // Deleted meanwhile by another request: this one deleted nothing.
    if (result.numDeletedRows === 0n) throw new NotFoundError("webhook", id);
    await db.deleteFrom("rate_slots").where("key", "=", id).execute();
  });
}

/** An absolute http(s) URL with a host, at most 2,048 characters. */
export function validateWebhookUrl(value: unknown): string {
  if (value === undefined || value === null || value === "") {
    throw new InvalidInputError(
      "url is required: the http(s) URL that events are delivered to",
      "invalid_url",
    );
  }
  if (typeof value !== "string") throw new InvalidInputError("url must be a string", "invalid_url");
  if (value.length > MAX_WEBHOOK_URL_LENGTH) {
    throw new InvalidInputError(`url must be at most ${MAX_WEBHOOK_URL_LENGTH} characters`, "invalid_url");
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new InvalidInputError(
      `url '${value}' is not an absolute URL, such as https://example.com/hook`,
      "invalid_url",
    );
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new InvalidInputError(
      `url must use http or https, not ${url.protocol.replace(":", "")}`,
      "invalid_url",
    );
  }
  if (url.hostname === "") throw new InvalidInputError("url must have a host", "invalid_url");
  return value;
}

function toWebhook(row: WebhooksTable): Webhook {
  return {
    id: row.id,
    accountId: row.account_id,
    url: row.url,
    name: row.name,
    description: row.description,
    active: row.active === 1,
    rateLimit: row.rate_limit,
    disabledReason: row.disabled_reason,
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

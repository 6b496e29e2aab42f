/**
 * Webhooks: the account's own URLs that subscribed events are delivered to. The signing secret is
 * generated here, stored encrypted, and returned once, in the result of createWebhook.
 */
import type { Executor, WebhooksTable } from "../store/schema.js";
import { InvalidInputError, NotFoundError } from "./errors.js";
import { newId, newSigningSecret } from "./ids.js";
import { type Page, type PageRequest, readPage } from "./pagination.js";
import type { SecretBox } from "./secret-box.js";
import { optionalText, requiredText } from "./validation.js";

export interface Webhook {
  readonly id: string;
  readonly accountId: string;
  readonly url: string;
  readonly name: string;
  readonly description: string;
  readonly active: boolean;
  readonly createdAt: number;
  readonly updatedAt: number;
}

export interface WebhookInput {
  readonly url?: unknown;
  readonly name?: unknown;
  readonly description?: unknown;
}

export const MAX_WEBHOOK_URL_LENGTH = 2048;
const MAX_NAME_LENGTH = 200;
const MAX_DESCRIPTION_LENGTH = 2000;

export async function createWebhook(
  db: Executor,
  secrets: SecretBox,
  accountId: string,
  input: WebhookInput,
): Promise<{ webhook: Webhook; signingSecret: string }> {
  const url = validateWebhookUrl(input.url);
  const name = requiredText(input.name, "name", MAX_NAME_LENGTH);
  const description = optionalText(input.description, "description", MAX_DESCRIPTION_LENGTH) ?? "";
  const signingSecret = newSigningSecret();
  const now = Date.now();
  const webhook: Webhook = {
    id: newId("wh"),
    accountId,
    url,
    name,
    description,
    active: true,
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
    })
    .execute();
  return { webhook, signingSecret };
}

export function listWebhooks(db: Executor, accountId: string, page: PageRequest): Promise<Page<Webhook>> {
  const owned = () => db.selectFrom("webhooks").where("account_id", "=", accountId);
  return readPage(page, {
    async rows(cursor, order, limit) {
      let query = owned().selectAll();
      if (cursor) query = query.where("id", cursor.op, cursor.id);
      return (await query.orderBy("id", order).limit(limit).execute()).map(toWebhook);
    },
    async count() {
      const row = await owned()
        .select((eb) => eb.fn.countAll<number>().as("count"))
        .executeTakeFirstOrThrow();
      return Number(row.count);
    },
  });
}

/** The account's webhook; another account's id is reported exactly like an unknown one. */
export async function getWebhook(db: Executor, accountId: string, id: string): Promise<Webhook> {
  const row = await db
    .selectFrom("webhooks")
    .selectAll()
    .where("id", "=", id)
    .where("account_id", "=", accountId)
    .executeTakeFirst();
  if (!row) throw new NotFoundError("webhook", id);
  return toWebhook(row);
}

export async function deleteWebhook(db: Executor, accountId: string, id: string): Promise<void> {
  const result = await db
    .deleteFrom("webhooks")
    .where("id", "=", id)
    .where("account_id", "=", accountId)
    .executeTakeFirst();
  if (result.numDeletedRows === 0n) throw new NotFoundError("webhook", id);
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
    createdAt: Number(row.created_at),
    updatedAt: Number(row.updated_at),
  };
}

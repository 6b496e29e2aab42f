/**
 * Deployed triggers of Connect end users: sources deployed in the end user's account. With a
 * `webhook_url`, a webhook and a subscription are made for the trigger, so its events are
 * delivered like every other delivery (Standard Webhooks signatures, retries, the delivery log);
 * the webhook's signing secret is the `webhook_signing_key` of the deploy's answer, shown once.
 * Events the deploy hook emitted are delivered too, unless `emit_on_deploy` is false.
 */

// Kysely here, not in the store: plain reads of a trigger's source and its past events.
import type { CoreContext } from "../context.js";
import { DELIVERIES_TOPIC, enqueueDeliveries } from "../delivery/enqueue.js";
import { createWebhook, deleteWebhook, validateWebhookUrl } from "../delivery/webhooks.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import type { StoredEvent } from "../events/emitter-events.js";
import type { SequenceId } from "../events/event-ids.js";
import { formatSequenceId } from "../events/event-ids.js";
import { subscribe } from "../fan-out/subscriptions.js";
import type { Page, PageRequest } from "../pagination.js";
import {
  type DeployedSource,
  deleteSource,
  deploySource,
  getSource,
  listSources,
  updateSource,
} from "../sources/sources.js";
import { componentForEndUser } from "./components.js";
import type { EndUser } from "./end-users.js";
import type { Project } from "./projects.js";

const DEFAULT_EVENT_COUNT = 20;
const MAX_EVENT_COUNT = 100;
const MAX_WEBHOOKS = 10;

export interface DeployTriggerInput {
  readonly id?: unknown;
  readonly version?: unknown;
  readonly configured_props?: unknown;
  readonly dynamic_props_id?: unknown;
  readonly webhook_url?: unknown;
  readonly workflow_id?: unknown;
  readonly emit_on_deploy?: unknown;
}

export interface TriggerUpdateInput {
  readonly active?: unknown;
  readonly configured_props?: unknown;
  readonly name?: unknown;
  readonly emit_on_deploy?: unknown;
}

export interface TriggerWebhook {
  readonly id: string;
  readonly url: string;
  /** Only right after the webhook was made. */
  readonly signingKey?: string;
}

function optionalBoolean(value: unknown, field: string): boolean | undefined {
  if (value === undefined || value === null) return undefined;
  if (value === true || value === "true") return true;
  if (value === false || value === "false") return false;
  throw new InvalidInputError(`${field} must be true or false`);
}

/** `POST …/triggers/deploy`: deploys the component for the end user, with its webhook when asked. */
export async function deployTrigger(
  context: CoreContext,
  project: Project,
  endUser: EndUser,
  input: DeployTriggerInput,
): Promise<{ source: DeployedSource; webhookSigningKey?: string; emitOnDeploy: boolean }> {
  if (input.workflow_id !== undefined && input.workflow_id !== null && input.workflow_id !== "") {
    throw new InvalidInputError(
      "workflow_id is not supported by Sluice's Connect API: send the trigger's events to a webhook_url",
      "unsupported",
    );
  }
  const webhookUrl =
    input.webhook_url === undefined || input.webhook_url === null || input.webhook_url === ""
      ? undefined
      : validateWebhookUrl(input.webhook_url);
  const emitOnDeploy = optionalBoolean(input.emit_on_deploy, "emit_on_deploy") ?? true;
  const component = await componentForEndUser(
    context,
    project.accountId,
    endUser.accountId,
    input.id,
    input.version,
    "trigger",
  );
  const source = await deploySource(context, endUser.accountId, {
    component_id: component.id,
    configured_props: input.configured_props,
    dynamic_props_id: input.dynamic_props_id,
  });
  if (webhookUrl === undefined) return { source, emitOnDeploy };
  try {
    const webhook = await attachWebhook(context, endUser.accountId, source.id, webhookUrl, emitOnDeploy);
    return { source, webhookSigningKey: webhook.signingKey, emitOnDeploy };
  } catch (error) {
    await deleteSource(context, endUser.accountId, source.id).catch(() => {});
    throw error;
  }
}

/**
 * Makes a webhook for the trigger and subscribes it. The trigger's row is locked (PostgreSQL) or
 * the database has one writer (SQLite), so no invocation commits between the subscription and the
 * catch-up: every event is delivered once, whether it came before the subscription or after.
 */
async function attachWebhook(
  context: CoreContext,
  accountId: string,
  sourceId: string,
  url: string,
  deliverPast: boolean,
): Promise<TriggerWebhook> {
  const { store, secrets } = context;
  const { webhook, signingSecret } = await createWebhook(store.db, secrets, accountId, {
    url,
    name: `deployed trigger ${sourceId}`,
    description: "made by POST /v1/connect/…/triggers/deploy with webhook_url",
  });
  let enqueued = 0;
  try {
    await store.transaction(async (tx) => {
      const db = store.dbIn(tx);
      let lock = db.selectFrom("sources").select("id").where("id", "=", sourceId);
      if (store.capabilities.skipLocked) lock = lock.forUpdate();
      await lock.executeTakeFirst();
      await subscribe(db, accountId, { emitter_id: sourceId, listener_id: webhook.id });
      if (!deliverPast) return;
      const rows = await db
        .selectFrom("events")
        .select(["ms", "seq", "channel", "event_key", "summary", "payload"])
        .where("emitter_id", "=", sourceId)
        .orderBy("ms")
        .orderBy("seq")
        .execute();
      const events: StoredEvent[] = rows.map((row) => {
        const id: SequenceId = { ms: Number(row.ms), seq: row.seq };
        return {
          id: formatSequenceId(id),
          ...id,
          channel: row.channel,
          eventKey: row.event_key,
          summary: row.summary,
          payload: JSON.parse(row.payload),
        };
      });
      enqueued = await enqueueDeliveries(db, store.jobs, { id: sourceId, accountId }, events, [
        { event_name: "", webhook_id: webhook.id, active: 1 },
      ]);
    });
  } catch (error) {
    await deleteWebhook(store, accountId, webhook.id).catch(() => {});
    throw error;
  }
  if (enqueued > 0) store.notifier.publish(DELIVERIES_TOPIC);
  return { id: webhook.id, url, signingKey: signingSecret };
}

export function getTrigger(context: CoreContext, endUser: EndUser, id: string): Promise<DeployedSource> {
  return getSource(context, endUser.accountId, checkTriggerId(id));
}

export function listTriggers(
  context: CoreContext,
  endUser: EndUser,
  page: PageRequest,
): Promise<Page<DeployedSource>> {
  return listSources(context, endUser.accountId, page);
}

/** `PUT …/deployed-triggers/{id}`: configured props, name or active, as a source update. */
export async function updateTrigger(
  context: CoreContext,
  endUser: EndUser,
  id: string,
  input: TriggerUpdateInput,
): Promise<DeployedSource> {
  const current = await getTrigger(context, endUser, id);
  const active = optionalBoolean(input.active, "active");
  optionalBoolean(input.emit_on_deploy, "emit_on_deploy");
  return updateSource(context, endUser.accountId, current.id, {
    ...(input.configured_props === undefined ? {} : { configured_props: input.configured_props }),
    ...(input.name === undefined ? {} : { name: input.name }),
    ...(active === undefined ? {} : { active }),
  });
}

/** Deletes the trigger (its deactivate hook runs; a failing one does not stop the delete) and its webhooks. */
export async function deleteTrigger(context: CoreContext, endUser: EndUser, id: string): Promise<void> {
  const source = await getTrigger(context, endUser, id);
  const webhooks = await triggerWebhooks(context, endUser, source.id);
  await deleteSource(context, endUser.accountId, source.id);
  for (const webhook of webhooks) {
    await deleteWebhook(context.store, endUser.accountId, webhook.id).catch(() => {});
  }
}

/** The trigger's newest events: `{e, k, ts, id, sum}`, newest first. */
export async function triggerEvents(context: CoreContext, endUser: EndUser, id: string, count: unknown) {
  const source = await getTrigger(context, endUser, id);
  const n = count === undefined || count === null ? DEFAULT_EVENT_COUNT : Number(count);
  if (!Number.isInteger(n) || n < 1 || n > MAX_EVENT_COUNT) {
    throw new InvalidInputError(`n must be an integer from 1 to ${MAX_EVENT_COUNT}`);
  }
  const rows = await context.store.db
    .selectFrom("events")
    .select(["ms", "seq", "summary", "payload"])
    .where("emitter_id", "=", source.id)
    .orderBy("ms", "desc")
    .orderBy("seq", "desc")
    .limit(n)
    .execute();
  return rows.map((row) => ({
    e: JSON.parse(row.payload) as unknown,
    k: "emit",
    ts: Number(row.ms),
    id: formatSequenceId({ ms: Number(row.ms), seq: row.seq }),
    ...(row.summary === null ? {} : { sum: row.summary }),
  }));
}

/** The webhooks made for the trigger (subscribed to it), oldest first. */
export async function triggerWebhooks(
  context: CoreContext,
  endUser: EndUser,
  sourceId: string,
): Promise<TriggerWebhook[]> {
  const rows = await context.store.db
    .selectFrom("subscriptions")
    .innerJoin("webhooks", "webhooks.id", "subscriptions.listener_id")
    .select(["webhooks.id", "webhooks.url"])
    .where("subscriptions.emitter_id", "=", sourceId)
    .where("webhooks.account_id", "=", endUser.accountId)
    .orderBy("webhooks.id")
    .execute();
  return rows.map((row) => ({ id: row.id, url: row.url }));
}

/** `PUT …/deployed-triggers/{id}/webhooks`: the trigger's webhooks become exactly these URLs. */
export async function setTriggerWebhooks(
  context: CoreContext,
  endUser: EndUser,
  id: string,
  urls: unknown,
): Promise<TriggerWebhook[]> {
  const source = await getTrigger(context, endUser, id);
  if (!Array.isArray(urls) || urls.length > MAX_WEBHOOKS) {
    throw new InvalidInputError(`webhook_urls must be a list of at most ${MAX_WEBHOOKS} URLs`, "invalid_url");
  }
  const wanted = [...new Set(urls.map((url) => validateWebhookUrl(url)))];
  const current = await triggerWebhooks(context, endUser, source.id);
  for (const webhook of current) {
    if (!wanted.includes(webhook.url)) await deleteWebhook(context.store, endUser.accountId, webhook.id);
  }
  const kept = current.filter((webhook) => wanted.includes(webhook.url));
  const added: TriggerWebhook[] = [];
  for (const url of wanted) {
    if (kept.some((webhook) => webhook.url === url)) continue;
    added.push(await attachWebhook(context, endUser.accountId, source.id, url, false));
  }
  return [...kept, ...added];
}

function checkTriggerId(id: string): string {
  // Name slugs are the end user's business too, but Pipedream names triggers by id only.
  if (!id.startsWith("dc_")) throw new NotFoundError("deployed trigger", id);
  return id;
}

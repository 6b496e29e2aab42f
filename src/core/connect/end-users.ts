/**
 * End users of a Connect project, named by the product's own `external_user_id`, separately in
 * each environment. Each end user is backed by an internal account of its own (no API key, no
 * session, never listed), so its connected accounts, deployed triggers, webhooks and dynamic props
 * are isolated by the same account checks as every other resource: another end user's id is
 * simply not found.
 */
// Kysely here, not in the store: owns connect_end_users and the internal accounts they are.
import type { Executor } from "../../store/schema.js";
import type { Store } from "../../store/store.js";
import type { CoreContext } from "../context.js";
import { deleteWebhook, listWebhooks } from "../delivery/webhooks.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { newId } from "../ids.js";
import { deleteSource, listSources } from "../sources/sources.js";
import { forgetWorkflows } from "../workflows/workflows.js";

/** The project an end user belongs to, by id (projects.ts owns the rest of it). */
export interface ProjectRef {
  readonly id: string;
}

export const ENVIRONMENTS = ["production", "development"] as const;
export type Environment = (typeof ENVIRONMENTS)[number];

const MAX_EXTERNAL_ID_LENGTH = 250;

export interface EndUser {
  /** The internal account that holds the end user's resources. */
  readonly accountId: string;
  readonly projectId: string;
  readonly environment: Environment;
  readonly externalUserId: string;
  readonly createdAt: number;
}

/** Checks an `external_user_id`: a non-empty string of at most 250 characters. */
export function checkExternalUserId(value: unknown): string {
  if (value === undefined || value === null || value === "") {
    throw new InvalidInputError(
      "external_user_id is required: your own id for the end user (query string or JSON body)",
      "missing_external_user_id",
    );
  }
  if (typeof value !== "string" || value.length > MAX_EXTERNAL_ID_LENGTH) {
    throw new InvalidInputError(
      `external_user_id must be a string of at most ${MAX_EXTERNAL_ID_LENGTH} characters`,
      "invalid_external_user_id",
    );
  }
  return value;
}

export function toEndUser(row: {
  account_id: string;
  project_id: string;
  environment: string;
  external_user_id: string;
  created_at: number;
}): EndUser {
  return {
    accountId: row.account_id,
    projectId: row.project_id,
    environment: row.environment === "development" ? "development" : "production",
    externalUserId: row.external_user_id,
    createdAt: Number(row.created_at),
  };
}

export async function findEndUser(
  db: Executor,
  project: ProjectRef,
  environment: Environment,
  externalUserId: string,
): Promise<EndUser | undefined> {
  const row = await db
    .selectFrom("connect_end_users")
    .selectAll()
    .where("project_id", "=", project.id)
    .where("environment", "=", environment)
    .where("external_user_id", "=", externalUserId)
    .executeTakeFirst();
  return row ? toEndUser(row) : undefined;
}

/** The end user, or NotFoundError naming the external id (for reads of what it would own). */
export async function requireEndUser(
  db: Executor,
  project: ProjectRef,
  environment: Environment,
  externalUserId: string,
): Promise<EndUser> {
  const endUser = await findEndUser(db, project, environment, externalUserId);
  if (!endUser) {
    const error = new NotFoundError("end user", externalUserId);
    error.message = `No end user '${externalUserId}' in this project's ${environment} environment`;
    throw error;
  }
  return endUser;
}

/** The end user, created on first use. Safe when two first uses race: both get the same one. */
export async function ensureEndUser(
  store: Store,
  project: ProjectRef,
  environment: Environment,
  externalUserId: string,
): Promise<EndUser> {
  const existing = await findEndUser(store.db, project, environment, externalUserId);
  if (existing) return existing;
  const now = Date.now();
  const accountId = newId("u");
  try {
    await store.transaction(async (tx) => {
      const db = store.dbIn(tx);
      await db
        .insertInto("accounts")
        .values({
          id: accountId,
          name: `connect:${project.id}:${environment}`,
          is_admin: 0,
          created_at: now,
        })
        .execute();
      await db
        .insertInto("connect_end_users")
        .values({
          account_id: accountId,
          project_id: project.id,
          environment,
          external_user_id: externalUserId,
          created_at: now,
        })
        .execute();
    });
  } catch (error) {
    if (!/unique|duplicate/i.test(String((error as Error).message))) throw error;
  }
  const created = await findEndUser(store.db, project, environment, externalUserId);
  if (!created) throw new Error(`end user ${externalUserId} was not stored`);
  return created;
}

/**
 * Deletes an end user and everything it owns: its triggers are deleted as any source is
 * (deactivate hook, timers, events), its webhooks with their deliveries, then its account, which
 * takes its connected accounts, saved components, dynamic props and tokens with it.
 */
export async function removeEndUser(context: CoreContext, accountId: string): Promise<void> {
  for (;;) {
    const page = await listSources(context, accountId, { limit: 100 });
    if (page.items.length === 0) break;
    for (const source of page.items) await deleteSource(context, accountId, source.id);
  }
  for (;;) {
    const page = await listWebhooks(context.store.db, accountId, { limit: 100 });
    if (page.items.length === 0) break;
    for (const webhook of page.items) await deleteWebhook(context.store, accountId, webhook.id);
  }
  await context.store.db.deleteFrom("accounts").where("id", "=", accountId).execute();
  // The account's rows went with it (a workflow of its own too): no node may run one from its cache.
  forgetWorkflows(context);
}

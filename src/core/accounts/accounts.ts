/**
 * Accounts and their API keys. Keys are shown once, at creation, and stored only as SHA-256
 * hashes. Revoking a key takes effect on the next request, on every node.
 */

// Kysely here, not in the store: accounts and API keys are read and written only here.
import type { Executor } from "../../store/schema.js";
import type { Store } from "../../store/store.js";
import type { StoreTransaction } from "../../store/transaction.js";
import { ConflictError, NotFoundError } from "../errors.js";
import { hashApiKey, newApiKey, newId } from "../ids.js";
import { requiredText } from "../validation.js";

export interface Account {
  readonly id: string;
  readonly name: string;
  readonly isAdmin: boolean;
  readonly createdAt: number;
}

export interface ApiKey {
  readonly id: string;
  readonly accountId: string;
  readonly name: string | null;
  /** The first characters of the key, enough to recognise it. */
  readonly prefix: string;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

export interface Authenticated {
  readonly account: Account;
  readonly keyId: string;
}

/** An account's columns, read with the key, session or access token that authenticates it. */
export const ACCOUNT_COLUMNS = [
  "accounts.id",
  "accounts.name",
  "accounts.is_admin",
  "accounts.created_at",
] as const;

export function toAccount(row: { id: string; name: string; is_admin: number; created_at: number }): Account {
  return { id: row.id, name: row.name, isAdmin: row.is_admin === 1, createdAt: Number(row.created_at) };
}

const KEY_PREFIX_LENGTH = 7;
const MAX_NAME_LENGTH = 200;
/** last_used_at is refreshed at most this often, so reads stay reads. */
const LAST_USED_RESOLUTION_MS = 60_000;

/** Creates an account with its first key, in the caller's transaction `outer` when it has one. */
export async function createAccount(
  store: Pick<Store, "transaction" | "dbIn">,
  input: { name: unknown; isAdmin?: boolean; apiKey?: string },
  outer?: StoreTransaction,
): Promise<{ account: Account; apiKey: string }> {
  const name = requiredText(input.name, "name", MAX_NAME_LENGTH);
  const account: Account = { id: newId("u"), name, isAdmin: input.isAdmin ?? false, createdAt: Date.now() };
  const apiKey = input.apiKey ?? newApiKey();
  await store.transaction(
    async (tx) => {
      const db = store.dbIn(tx);
      await db
        .insertInto("accounts")
        .values({ id: account.id, name, is_admin: account.isAdmin ? 1 : 0, created_at: account.createdAt })
        .execute();
      await insertApiKey(db, account.id, apiKey, "default");
    },
    { in: outer },
  );
  return { account, apiKey };
}

/** The account a raw API key belongs to, or null if the key is unknown or revoked. */
export async function authenticate(db: Executor, rawKey: string): Promise<Authenticated | null> {
  const row = await db
    .selectFrom("api_keys")
    .innerJoin("accounts", "accounts.id", "api_keys.account_id")
    .select(["api_keys.id as key_id", "api_keys.last_used_at", ...ACCOUNT_COLUMNS])
    .where("api_keys.key_hash", "=", hashApiKey(rawKey))
    .where("api_keys.revoked_at", "is", null)
    .executeTakeFirst();
  if (!row) return null;
  const now = Date.now();
  if (row.last_used_at === null || now - Number(row.last_used_at) > LAST_USED_RESOLUTION_MS) {
    await db.updateTable("api_keys").set({ last_used_at: now }).where("id", "=", row.key_id).execute();
  }
  return { keyId: row.key_id, account: toAccount(row) };
}

export async function createApiKey(
  db: Executor,
  accountId: string,
  input: { name?: unknown },
): Promise<{ key: ApiKey; apiKey: string }> {
  const name =
    input.name === undefined || input.name === null
      ? null
      : requiredText(input.name, "name", MAX_NAME_LENGTH);
  const apiKey = newApiKey();
  const key = await insertApiKey(db, accountId, apiKey, name);
  return { key, apiKey };
}

export async function listApiKeys(db: Executor, accountId: string): Promise<ApiKey[]> {
  const rows = await db
    .selectFrom("api_keys")
    .selectAll()
    .where("account_id", "=", accountId)
    .where("revoked_at", "is", null)
    .orderBy("id", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    prefix: row.key_prefix,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  }));
}

/** Revokes a key of the account. The account's last key cannot be revoked: that would lock it out. */
export async function revokeApiKey(
  store: Pick<Store, "transaction" | "dbIn">,
  accountId: string,
  keyId: string,
): Promise<void> {
  await store.transaction(async (tx) => {
    const db = store.dbIn(tx);
    const active = await db
      .selectFrom("api_keys")
      .select("id")
      .where("account_id", "=", accountId)
      .where("revoked_at", "is", null)
      .execute();
    if (!active.some((row) => row.id === keyId)) throw new NotFoundError("API key", keyId);
    if (active.length === 1) {
      throw new ConflictError(
        "last_api_key",
        "This is the account's only API key; create another key before revoking this one",
      );
    }
    await db.updateTable("api_keys").set({ revoked_at: Date.now() }).where("id", "=", keyId).execute();
  });
}

/**
 * On an empty database, creates the first account, an admin. Its key is the configured bootstrap
 * key, or a new one that the caller must show once. Safe when several nodes start together: only
 * the node that claims the bootstrap marker creates the account.
 */
export async function bootstrapFirstAccount(
  store: Pick<Store, "transaction" | "dbIn">,
  bootstrapApiKey: string | undefined,
): Promise<{ account: Account; apiKey: string; generated: boolean } | null> {
  return store.transaction(async (tx) => {
    const db = store.dbIn(tx);
    const claimed = await db
      .insertInto("meta")
      .values({ key: "bootstrapped_at", value: String(Date.now()) })
      .onConflict((conflict) => conflict.column("key").doNothing())
      .returning("key")
      .executeTakeFirst();
    if (!claimed) return null;
    const existing = await db.selectFrom("accounts").select("id").limit(1).executeTakeFirst();
    if (existing) return null;
    const { account, apiKey } = await createAccount(
      store,
      { name: "admin", isAdmin: true, apiKey: bootstrapApiKey },
      tx,
    );
    return { account, apiKey, generated: bootstrapApiKey === undefined };
  });
}

async function insertApiKey(
  db: Executor,
  accountId: string,
  apiKey: string,
  name: string | null,
): Promise<ApiKey> {
  const key: ApiKey = {
    id: newId("key"),
    accountId,
    name,
    prefix: apiKey.slice(0, KEY_PREFIX_LENGTH),
    createdAt: Date.now(),
    lastUsedAt: null,
  };
  await db
    .insertInto("api_keys")
    .values({
      id: key.id,
      account_id: accountId,
      key_hash: hashApiKey(apiKey),
      key_prefix: key.prefix,
      name,
      created_at: key.createdAt,
    })
    .execute();
  return key;
}

/**
 * Data stores (`ds_…`): account-level key-value stores. A `data_store` prop names one (by id, or
 * by name: created on first use), and every component configured with it reads and writes the
 * same records. Values are JSON, at most MAX_VALUE_BYTES each; keys at most MAX_KEY_LENGTH
 * characters; a store holds at most MAX_RECORDS records. A record set with a TTL is gone once it
 * expires (reads skip it; writes sweep the store's expired records).
 */
// Kysely here, not in the store: reads and writes only its own tables (data stores, their records).
import type { CoreContext } from "../context.js";
import { ConflictError, InvalidInputError, NotFoundError, SluiceError } from "../errors.js";
import { looksLikeId, newId } from "../ids.js";
import { checkJsonDepth, requiredText } from "../validation.js";

export const MAX_VALUE_BYTES = 64 * 1024;
export const MAX_KEY_LENGTH = 256;
export const MAX_RECORDS = 10_000;
const MAX_NAME_LENGTH = 100;
/** A TTL is at most a year, in seconds. */
const MAX_TTL_SECONDS = 365 * 24 * 3600;

export class DataStoreValueTooLargeError extends SluiceError {
  readonly kind = "too_large";
  constructor(key: string) {
    super(
      "value_too_large",
      `The value of '${key}' is larger than ${MAX_VALUE_BYTES / 1024} KB (a data store's limit)`,
    );
  }
}

export interface DataStore {
  readonly id: string;
  readonly name: string;
  readonly createdAt: number;
}

export async function createDataStore(
  context: CoreContext,
  accountId: string,
  name: unknown,
): Promise<DataStore> {
  const checked = requiredText(name, "name", MAX_NAME_LENGTH);
  if (/^ds_/.test(checked)) throw new InvalidInputError("A data store's name may not start with ds_");
  const existing = await findStore(context, accountId, "name", checked);
  if (existing)
    throw new ConflictError("data_store_exists", `A data store named '${checked}' exists: ${existing.id}`);
  const store = { id: newId("ds"), name: checked, createdAt: Date.now() };
  await context.store.db
    .insertInto("data_stores")
    .values({ id: store.id, account_id: accountId, name: store.name, created_at: store.createdAt })
    .execute();
  return store;
}

async function findStore(
  context: CoreContext,
  accountId: string,
  column: "id" | "name",
  value: string,
): Promise<DataStore | null> {
  const row = await context.store.db
    .selectFrom("data_stores")
    .selectAll()
    .where("account_id", "=", accountId)
    .where(column, "=", value)
    .executeTakeFirst();
  return row ? { id: row.id, name: row.name, createdAt: Number(row.created_at) } : null;
}

/** The account's store by `ds_` id or name (404 otherwise). */
export async function getDataStore(context: CoreContext, accountId: string, ref: string): Promise<DataStore> {
  const found = await findStore(context, accountId, looksLikeId(ref, "ds") ? "id" : "name", ref);
  if (!found) throw new NotFoundError("data store", ref);
  return found;
}

/** For a `data_store` prop: the store by id (404 when not the account's), or by name, created if absent. */
export async function resolveDataStoreProp(
  context: CoreContext,
  accountId: string,
  ref: string,
): Promise<DataStore> {
  if (ref.startsWith("ds_")) return getDataStore(context, accountId, ref);
  return (await findStore(context, accountId, "name", ref)) ?? createDataStore(context, accountId, ref);
}

export async function listDataStores(context: CoreContext, accountId: string) {
  const rows = await context.store.db
    .selectFrom("data_stores")
    .leftJoin("data_store_records", "data_store_records.store_id", "data_stores.id")
    .select(["data_stores.id", "data_stores.name", "data_stores.created_at"])
    .select((eb) => eb.fn.count<number>("data_store_records.key").as("records"))
    .where("data_stores.account_id", "=", accountId)
    .groupBy(["data_stores.id", "data_stores.name", "data_stores.created_at"])
    .orderBy("data_stores.id", "desc")
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    createdAt: Number(row.created_at),
    recordCount: Number(row.records),
  }));
}

export async function deleteDataStore(context: CoreContext, accountId: string, ref: string): Promise<string> {
  const store = await getDataStore(context, accountId, ref);
  await context.store.db.deleteFrom("data_store_records").where("store_id", "=", store.id).execute();
  await context.store.db.deleteFrom("data_stores").where("id", "=", store.id).execute();
  return store.id;
}

function checkKey(key: unknown): string {
  if (typeof key !== "string" || key === "")
    throw new InvalidInputError("A data store key is a non-empty string");
  if (key.length > MAX_KEY_LENGTH)
    throw new InvalidInputError(`A data store key is at most ${MAX_KEY_LENGTH} characters`);
  if (key.includes("\u0000")) throw new InvalidInputError("A data store key may not contain NUL");
  return key;
}

function expiresAt(ttl: unknown): number | null {
  if (ttl === undefined || ttl === null) return null;
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0 || ttl > MAX_TTL_SECONDS) {
    throw new InvalidInputError(
      `ttl must be a number of seconds, more than 0 and at most ${MAX_TTL_SECONDS}`,
    );
  }
  return Date.now() + Math.round(ttl * 1000);
}

/** Operations on one store's records; `storeId` is already checked to be the account's. */
export function dataStoreRecords(context: CoreContext, storeId: string) {
  const { db } = context.store;
  const live = () =>
    db
      .selectFrom("data_store_records")
      .where("store_id", "=", storeId)
      .where((eb) => eb.or([eb("expires_at", "is", null), eb("expires_at", ">", Date.now())]));
  const sweep = () =>
    db
      .deleteFrom("data_store_records")
      .where("store_id", "=", storeId)
      .where("expires_at", "<=", Date.now())
      .execute();
  return {
    async get(key: unknown): Promise<unknown> {
      const row = await live().select("value").where("key", "=", checkKey(key)).executeTakeFirst();
      return row ? JSON.parse(row.value) : undefined;
    },
    async has(key: unknown): Promise<boolean> {
      return (await live().select("key").where("key", "=", checkKey(key)).executeTakeFirst()) !== undefined;
    },
    /** Stores JSON text (from the runner) or a value (from REST). */
    async set(key: unknown, value: { json: string } | { value: unknown }, ttl?: unknown): Promise<void> {
      const checkedKey = checkKey(key);
      let json: string;
      if ("json" in value) json = value.json;
      else {
        if (value.value === undefined) throw new InvalidInputError("value is required: any JSON value");
        checkJsonDepth(value.value, "the value");
        json = JSON.stringify(value.value);
      }
      if (Buffer.byteLength(json) > MAX_VALUE_BYTES) throw new DataStoreValueTooLargeError(checkedKey);
      if (json.includes("\\u0000")) throw new InvalidInputError("A data store value may not contain NUL");
      await sweep();
      const count = await db
        .selectFrom("data_store_records")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("store_id", "=", storeId)
        .where("key", "!=", checkedKey)
        .executeTakeFirstOrThrow();
      if (Number(count.n) >= MAX_RECORDS) {
        throw new ConflictError(
          "data_store_full",
          `The data store holds ${MAX_RECORDS} records, its limit; delete some first`,
        );
      }
      const now = Date.now();
      const expires = expiresAt(ttl);
      await db
        .insertInto("data_store_records")
        .values({ store_id: storeId, key: checkedKey, value: json, expires_at: expires, updated_at: now })
        .onConflict((conflict) =>
          conflict
            .columns(["store_id", "key"])
            .doUpdateSet({ value: json, expires_at: expires, updated_at: now }),
        )
        .execute();
    },
    async setTtl(key: unknown, ttl: unknown): Promise<boolean> {
      const checkedKey = checkKey(key);
      if (!(await this.has(checkedKey))) return false;
      await db
        .updateTable("data_store_records")
        .set({ expires_at: expiresAt(ttl), updated_at: Date.now() })
        .where("store_id", "=", storeId)
        .where("key", "=", checkedKey)
        .execute();
      return true;
    },
    async delete(key: unknown): Promise<boolean> {
      const result = await db
        .deleteFrom("data_store_records")
        .where("store_id", "=", storeId)
        .where("key", "=", checkKey(key))
        .executeTakeFirst();
      return Number(result.numDeletedRows) > 0;
    },
    async keys(): Promise<string[]> {
      return (await live().select("key").orderBy("key").execute()).map((row) => row.key);
    },
    async entries(): Promise<{ key: string; value: unknown; expires_at: number | null }[]> {
      const rows = await live().select(["key", "value", "expires_at"]).orderBy("key").execute();
      return rows.map((row) => ({
        key: row.key,
        value: JSON.parse(row.value),
        expires_at: row.expires_at === null ? null : Math.floor(Number(row.expires_at) / 1000),
      }));
    },
    async clear(): Promise<void> {
      await db.deleteFrom("data_store_records").where("store_id", "=", storeId).execute();
    },
  };
}

/**
 * A `data_store` prop inside the runner: Pipedream's async data store API over an account-level
 * store (`ds_…`) that the parent keeps in the database. Every call goes to the parent and waits
 * for its answer; values cross as JSON. Two components that share a store see each other's writes.
 */
import { toStrictJson } from "./json-value.js";

export type DataStoreOp = "get" | "set" | "setTtl" | "has" | "delete" | "keys" | "entries" | "clear";

/** Sends one call to the parent; resolves with its (JSON-parsed) answer. */
export type DataStoreCall = (op: DataStoreOp, args: Record<string, unknown>) => Promise<unknown>;

function checkKey(key: unknown, op: string): string {
  if (typeof key !== "string" || key === "") {
    throw new TypeError(`dataStore.${op}: the key must be a non-empty string, got ${typeof key}`);
  }
  return key;
}

function checkTtl(options: unknown, op: string): number | null {
  const ttl = typeof options === "object" && options !== null ? (options as { ttl?: unknown }).ttl : options;
  if (ttl === undefined || ttl === null) return null;
  if (typeof ttl !== "number" || !Number.isFinite(ttl) || ttl <= 0) {
    throw new TypeError(`dataStore.${op}: ttl must be a positive number of seconds`);
  }
  return ttl;
}

export function createDataStore(call: DataStoreCall) {
  const store = {
    async get(key: unknown): Promise<unknown> {
      return call("get", { key: checkKey(key, "get") });
    },
    async set(key: unknown, value: unknown, options?: unknown): Promise<void> {
      const json = toStrictJson(value, `dataStore.set(${JSON.stringify(key)})`);
      await call("set", { key: checkKey(key, "set"), json, ttl: checkTtl(options, "set") });
    },
    async setTtl(key: unknown, ttl: unknown): Promise<boolean> {
      return (await call("setTtl", { key: checkKey(key, "setTtl"), ttl: checkTtl(ttl, "setTtl") })) === true;
    },
    async has(key: unknown): Promise<boolean> {
      return (await call("has", { key: checkKey(key, "has") })) === true;
    },
    async delete(key: unknown): Promise<void> {
      await call("delete", { key: checkKey(key, "delete") });
    },
    async keys(): Promise<string[]> {
      return (await call("keys", {})) as string[];
    },
    async entries(): Promise<{ key: string; value: unknown }[]> {
      return (await call("entries", {})) as { key: string; value: unknown }[];
    },
    async clear(): Promise<void> {
      await call("clear", {});
    },
    async *[Symbol.asyncIterator](): AsyncGenerator<[string, unknown]> {
      for (const entry of await store.entries()) yield [entry.key, entry.value];
    },
  };
  return store;
}

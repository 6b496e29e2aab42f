/**
 * `$.service.db` inside the runner: synchronous get/set over the snapshot of the component's state
 * that came with the invocation. Writes are kept as JSON (so a later get sees them, as a fresh
 * copy) and reported at once to the parent, which returns them as the invocation's dbWrites.
 * All db props of one invocation share one store.
 */
import { toStrictJson } from "./json-value.js";

/** The longest key `db.set` takes, in UTF-8 bytes (PostgreSQL indexes keys; an index entry has a bound). */
export const MAX_DB_KEY_BYTES = 1024;

export interface KeyValueStore {
  /** The stored value, or undefined when the key does not exist. Each call returns a fresh copy. */
  get(key: string): unknown;
  /** Stores a JSON-serializable value; anything else throws. */
  set(key: string, value: unknown): void;
}

export function createKeyValueStore(
  snapshot: Readonly<Record<string, unknown>>,
  reportSet: (key: string, json: string) => void,
): KeyValueStore {
  const written = new Map<string, string>();
  return {
    get(key: string): unknown {
      const json = written.get(checkKey(key, "get"));
      if (json !== undefined) return JSON.parse(json);
      if (!Object.hasOwn(snapshot, key)) return undefined;
      const value = snapshot[key];
      return typeof value === "object" && value !== null ? structuredClone(value) : value;
    },
    set(key: string, value: unknown): void {
      const bytes = Buffer.byteLength(checkKey(key, "set"), "utf8");
      if (bytes > MAX_DB_KEY_BYTES) {
        throw new RangeError(
          `db.set: the key is ${bytes} bytes long; keys are at most ${MAX_DB_KEY_BYTES} bytes (UTF-8). Store a long name's hash as the key instead`,
        );
      }
      const json = toStrictJson(value, `db.set(${JSON.stringify(key)})`);
      written.set(key, json);
      reportSet(key, json);
    },
  };
}

function checkKey(key: unknown, call: string): string {
  if (typeof key !== "string") throw new TypeError(`db.${call}: the key must be a string, got ${typeof key}`);
  return key;
}

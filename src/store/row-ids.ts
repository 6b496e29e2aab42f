/**
 * The time-ordered part of every id (`<prefix>_<ulid>`): a lower-case ULID, monotonic within this
 * process, so rows sort by creation time and lists page by id. Core's resource ids
 * (core/ids.ts) and the store's job ids share it; the store depends on nothing outside it.
 */
import { randomFillSync } from "node:crypto";
import { monotonicFactory } from "ulid";

/** ulid's own generator asks the kernel for a byte per character; the same bytes, drawn 4 KB at a time. */
function pooledRandom(): () => number {
  const pool = new Uint8Array(4096);
  let next = pool.length;
  return () => {
    if (next === pool.length) {
      randomFillSync(pool);
      next = 0;
    }
    return (pool[next++] as number) / 256;
  };
}

const nextUlid = monotonicFactory(pooledRandom());

export function newUlid(): string {
  return nextUlid().toLowerCase();
}

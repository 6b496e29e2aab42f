/**
 * A new job's id: `job_` and a lower-case ULID, the shape of every id of Sluice
 * (core/ids.ts), made here so that the store depends on nothing outside it. Job ids are the
 * store's own: no other module makes or reads one by its shape. The random bytes are drawn 4 KB
 * at a time, as core/ids.ts does, since an id is made for every job a hot path enqueues.
 */
import { randomFillSync } from "node:crypto";
import { monotonicFactory } from "ulid";

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

export function newJobId(): string {
  return `job_${nextUlid().toLowerCase()}`;
}

/**
 * Group commit for the embedded database. SQLite has one connection and one writer, and each
 * transaction pays a disk flush (docs/architecture.md, "Where an event waits"), so small write
 * transactions that queue up while one is being written go together in the next one: one flush
 * for all of them. A thousand timer sources ticking each second then pay a few dozen flushes, not
 * thousands. If the shared transaction fails, each piece of work runs again in a transaction of
 * its own, so one that cannot be written fails alone; work must therefore write only through its
 * transaction (nothing outside it that a rollback would not undo).
 *
 * On PostgreSQL each piece of work keeps a transaction of its own, on the pool's connections,
 * which run side by side.
 */
import type { Executor } from "./schema.js";
import type { Store } from "./store.js";

/** Pieces of work written in one transaction, at most. */
const MAX_WORK_PER_TRANSACTION = 64;

interface Waiting {
  readonly work: (tx: Executor) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

interface Writer {
  readonly waiting: Waiting[];
  writing: boolean;
}

const writers = new WeakMap<Store, Writer>();

/** Runs `work` in a transaction, shared on SQLite with the work that queued meanwhile. */
export function inSharedTransaction<T>(store: Store, work: (tx: Executor) => Promise<T>): Promise<T> {
  if (store.capabilities.name !== "sqlite") return store.db.transaction().execute(work);
  let writer = writers.get(store);
  if (!writer) {
    writer = { waiting: [], writing: false };
    writers.set(store, writer);
  }
  const current = writer;
  return new Promise<T>((resolve, reject) => {
    current.waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
    if (!current.writing) void write(store, current);
  });
}

async function write(store: Store, writer: Writer): Promise<void> {
  writer.writing = true;
  try {
    while (writer.waiting.length > 0) {
      const group = writer.waiting.splice(0, MAX_WORK_PER_TRANSACTION);
      if (group.length > 1) {
        const results = await store.db
          .transaction()
          .execute(async (tx) => {
            const done: unknown[] = [];
            for (const waiting of group) done.push(await waiting.work(tx));
            return done;
          })
          .catch(() => undefined);
        if (results) {
          for (const [index, waiting] of group.entries()) waiting.resolve(results[index]);
          continue;
        }
      }
      // Alone, or again one by one after the shared transaction failed.
      for (const waiting of group) {
        await store.db.transaction().execute(waiting.work).then(waiting.resolve, waiting.reject);
      }
    }
  } finally {
    writer.writing = false;
  }
}

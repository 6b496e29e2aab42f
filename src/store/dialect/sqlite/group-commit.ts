/**
 * Group commit for the embedded database. SQLite has one connection and one writer, and each
 * transaction pays a disk flush (docs/architecture.md, "Where an event waits"), so small write
 * transactions that queue up while one is being written go together in the next one: one flush
 * for all of them. A thousand timer sources ticking each second then pay a few dozen flushes, not
 * thousands. If the shared transaction fails, each piece of work runs again in a transaction of
 * its own, so one that cannot be written fails alone; work must therefore write only through its
 * transaction (nothing outside it that a rollback would not undo).
 */
import type { Kysely } from "kysely";
import type { Database, Executor } from "../../schema.js";

/** Pieces of work written in one transaction, at most. */
const MAX_WORK_PER_TRANSACTION = 64;

interface Waiting {
  readonly work: (tx: Executor) => Promise<unknown>;
  readonly resolve: (value: unknown) => void;
  readonly reject: (error: unknown) => void;
}

/** The queue of work waiting for the one writer; one per opened database. */
export class GroupCommit {
  readonly #waiting: Waiting[] = [];
  #writing = false;

  /** Runs `work` in a transaction shared with the work that queued meanwhile. */
  run<T>(db: Kysely<Database>, work: (tx: Executor) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.#waiting.push({ work, resolve: resolve as (value: unknown) => void, reject });
      if (!this.#writing) void this.#write(db);
    });
  }

  async #write(db: Kysely<Database>): Promise<void> {
    this.#writing = true;
    try {
      while (this.#waiting.length > 0) {
        const group = this.#waiting.splice(0, MAX_WORK_PER_TRANSACTION);
        if (group.length > 1) {
          const results = await db
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
          await db.transaction().execute(waiting.work).then(waiting.resolve, waiting.reject);
        }
      }
    } finally {
      this.#writing = false;
    }
  }
}

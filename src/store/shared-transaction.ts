/**
 * A write transaction that the database may share with other work: group commit on the embedded
 * database (store/dialect/sqlite/group-commit.ts), a transaction of its own on PostgreSQL. Work
 * must write only through its transaction (nothing outside it that a rollback would not undo),
 * since on SQLite it runs again alone when the shared transaction fails.
 */
import type { StoreConnection } from "./dialect/dialect.js";
import type { Executor } from "./schema.js";

/** Runs `work` in a transaction, shared on SQLite with the work that queued meanwhile. */
export function inSharedTransaction<T>(
  store: StoreConnection,
  work: (tx: Executor) => Promise<T>,
): Promise<T> {
  return store.dialect.inSharedTransaction(store.db, work);
}

/** Runs `work` in a transaction: the caller's when `db` already is one, a new one otherwise. */
import type { Executor } from "./schema.js";

export function inTransaction<T>(db: Executor, work: (tx: Executor) => Promise<T>): Promise<T> {
  return db.isTransaction ? work(db) : db.transaction().execute(work);
}

/**
 * The store's transaction as its operations take it: an opaque handle that callers pass on to
 * the store (`jobs.enqueue(job, tx)`, `writeIn(tx, …)`) but cannot query through, so the
 * contract names no connection type. Core code that still builds its own queries in the
 * transaction asks for them with `store.dbIn(tx)`, which says so where it happens.
 */
import type { Executor } from "./schema.js";

declare const opaque: unique symbol;

/** A transaction of the store, opened by `store.transaction` or `store.sharedTransaction`. */
export interface StoreTransaction {
  readonly [opaque]: "StoreTransaction";
}

export interface TransactionOptions {
  /** The caller's transaction, if it has one: the work joins it. */
  readonly in?: StoreTransaction | undefined;
}

/** What the store's operations run on: a transaction handle, or (inside the store) a query builder. */
export type InTransaction = StoreTransaction | Executor;

/** The query builder of `tx`. The handle is the transaction itself, only its type hidden. */
export function executorOf(tx: InTransaction): Executor {
  return tx as Executor;
}

/** `tx` as the handle the store's operations take. */
export function handleOf(tx: Executor): StoreTransaction {
  return tx as unknown as StoreTransaction;
}

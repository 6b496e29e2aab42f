/**
 * Several writes committed together, in as few round trips as the database allows. On PostgreSQL
 * they go as one statement, each a data-modifying `WITH` of a `SELECT 1`: one round trip, where a
 * transaction costs one per statement plus its BEGIN and COMMIT (and each round trip is a write
 * and a read on a socket, for both processes). On SQLite, in process, they run in a transaction.
 *
 * The writes must be independent: PostgreSQL runs a statement's `WITH` parts on one snapshot and
 * in no set order, so none may read what another writes, and no two may change the same row.
 */
import {
  type DeleteQueryBuilder,
  type DeleteResult,
  type InsertQueryBuilder,
  type InsertResult,
  type QueryCreator,
  sql,
  type UpdateQueryBuilder,
  type UpdateResult,
} from "kysely";
import type { Database } from "./schema.js";
import type { Store } from "./store.js";

/** An INSERT, UPDATE or DELETE of one table, without RETURNING. */
export type WriteQuery = {
  [T in keyof Database]:
    | InsertQueryBuilder<Database, T, InsertResult>
    | UpdateQueryBuilder<Database, T, T, UpdateResult>
    | DeleteQueryBuilder<Database, T, DeleteResult>;
}[keyof Database];
/** One write, built on the creator it is given (the store, a transaction, or a `WITH`). */
export type Write = (creator: QueryCreator<Database>) => WriteQuery;

export async function writeTogether(store: Store, writes: readonly Write[]): Promise<void> {
  if (store.capabilities.name !== "postgres") {
    await store.db.transaction().execute(async (tx) => {
      for (const write of writes) await write(tx).execute();
    });
    return;
  }
  let query: QueryCreator<Database> = store.db;
  for (const [index, write] of writes.entries()) {
    query = query.with(`write_${index}`, (creator) => write(creator)) as unknown as QueryCreator<Database>;
  }
  await query.selectNoFrom(sql<number>`1`.as("written")).execute();
}

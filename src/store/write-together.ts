/**
 * Several writes committed together, in as few round trips as the database allows. On PostgreSQL
 * they go as one statement, each a data-modifying `WITH` of a `SELECT 1`: one round trip, where a
 * transaction costs one per statement plus its BEGIN and COMMIT (and each round trip is a write
 * and a read on a socket, for both processes). On SQLite, in process, they run one after another.
 *
 * The writes must be independent: PostgreSQL runs a statement's `WITH` parts on one snapshot and
 * in no set order, so none may read what another writes, and no two may change the same row.
 */
import { type CompiledQuery, type QueryCreator, sql } from "kysely";
import { combinedWrites } from "./combined-writes.js";
import type { DialectCapabilities } from "./dialect/capabilities.js";
import type { StoreConnection } from "./dialect/dialect.js";
import { endingTransaction } from "./dialect/postgres/driver.js";
import { type Notice, notifyQuery } from "./notifier.js";
import type { Database, Executor } from "./schema.js";
import { inSharedTransaction } from "./shared-transaction.js";
import { executorOf, type InTransaction } from "./transaction.js";
import { compiledWrite, preparedTexts, type ReturningWrite, type Write } from "./write.js";

export {
  compiledWrite,
  insertWrites,
  preparedReturning,
  preparedTexts,
  preparedWrite,
  type ReturningWrite,
  type Write,
  type WriteQuery,
} from "./write.js";

/**
 * Parameters one statement may carry: PostgreSQL's protocol counts them in 16 bits (65,535).
 * Writes that need more go as several statements.
 */
const MAX_PARAMETERS = 60_000;

/**
 * Commits `writes` all or none: one statement on PostgreSQL when they fit in one, else a
 * transaction. On SQLite the transaction is shared with the writes that queue meanwhile (group
 * commit, store/dialect/sqlite/group-commit.ts): one flush for many.
 */
export async function writeTogether(store: StoreConnection, writes: readonly Write[]): Promise<void> {
  const statement = store.dialect.capabilities.combinesWrites ? oneStatement(store.db, writes) : undefined;
  if (statement) {
    await store.db.executeQuery(statement);
    return;
  }
  await inSharedTransaction(store, (tx) => writeIn(tx, store.dialect.capabilities, writes));
}

/**
 * Commits `writes` and `last` all or none, in one transaction (shared on SQLite, as in
 * `writeTogether`), `last` after the others, and returns the rows `last` returns. (A caller
 * that wants them in one statement on PostgreSQL composes it with `withWrites`, as
 * core/delivery/hand-off.ts does.) With no `writes`, `last` alone goes as a statement of its own
 * on PostgreSQL, which commits by itself: a transaction around it would only add round trips.
 */
export async function writeTogetherReturning<R>(
  store: StoreConnection,
  writes: readonly Write[],
  last: ReturningWrite<R>,
): Promise<R[]> {
  const { capabilities } = store.dialect;
  if (writes.length === 0 && capabilities.combinesWrites) {
    return (await store.db.executeQuery(compiledWrite(last, store.db, capabilities.name))).rows as R[];
  }
  return inSharedTransaction(store, async (tx) => {
    await writeIn(tx, capabilities, writes);
    return (await tx.executeQuery(compiledWrite(last, tx, capabilities.name))).rows as R[];
  });
}

/** What goes with a transaction's writes (`writeIn`). */
export interface WritesEnd {
  /** PostgreSQL's NOTIFY, delivered when the transaction commits (store/notifier.ts). */
  readonly notice?: Notice | undefined;
  /**
   * The transaction runs nothing after these writes: its COMMIT goes right behind their last
   * statement (store/dialect/postgres/driver.ts), a round trip fewer.
   */
  readonly last?: boolean;
}

/**
 * Runs `writes` on `executor`, the caller's transaction: on PostgreSQL as one statement (or as
 * few as the parameter limit allows), on SQLite one after another. A notice goes in the same
 * statement.
 */
export async function writeIn(
  tx: InTransaction,
  capabilities: DialectCapabilities,
  writes: readonly Write[],
  { notice, last = false }: WritesEnd = {},
): Promise<void> {
  const executor = executorOf(tx);
  // Marked only where a statement is a round trip (PostgreSQL): SQLite's driver has no use for
  // the mark, and its transaction may be shared with other work (store/dialect/sqlite/group-commit.ts).
  const marks = last && capabilities.roundTrips;
  const ends = (query: CompiledQuery) => (marks ? endingTransaction(query) : query);
  const statement = capabilities.combinesWrites ? oneStatement(executor, writes, notice) : undefined;
  if (statement) {
    await executor.executeQuery(ends(statement));
  } else if (capabilities.combinesWrites && writes.length > 1) {
    const half = Math.ceil(writes.length / 2);
    await writeIn(executor, capabilities, writes.slice(0, half));
    await writeIn(executor, capabilities, writes.slice(half), { notice, last });
  } else {
    const queries = writes.map((write) => compiledWrite(write, executor, capabilities.name));
    if (notice && capabilities.combinesWrites) queries.push(notifyQuery(notice));
    for (const [index, query] of queries.entries())
      await executor.executeQuery(index === queries.length - 1 ? ends(query) : query);
  }
}

/**
 * The writes (and the notice) as one statement; undefined if they are too many parameters for
 * one, or nothing to run.
 */
function oneStatement(
  executor: Executor,
  writes: readonly Write[],
  notice?: Notice,
): CompiledQuery | undefined {
  if (writes.length === 0) return notice && notifyQuery(notice);
  if (writes.length === 1 && !notice) {
    const [write] = writes as [Write];
    const only = compiledWrite(write, executor, "postgres");
    return fitsOneStatement(only) ? only : undefined;
  }
  const then = notice && notifyQuery(notice);
  const texts = preparedTexts(executor, writes);
  const prepared = texts ? combinedWrites(texts, then) : undefined;
  const compiled =
    prepared ??
    withWrites(executor, writes)
      .selectNoFrom(
        notice
          ? sql<unknown>`pg_notify(${notice.channel}, ${notice.payload})`.as("written")
          : sql<unknown>`1`.as("written"),
      )
      .compile();
  return fitsOneStatement(compiled) ? compiled : undefined;
}

/**
 * `creator` with `writes` as data-modifying `WITH`s (PostgreSQL), for a statement that selects
 * something after them: one round trip for the writes and the read.
 */
export function withWrites(
  creator: QueryCreator<Database>,
  writes: readonly Write[],
): QueryCreator<Database> {
  let query = creator;
  for (const [index, write] of writes.entries()) {
    query = query.with(`write_${index}`, (inner) => write(inner)) as unknown as QueryCreator<Database>;
  }
  return query;
}

/** Whether a statement's parameters fit in one statement (PostgreSQL's protocol limit). */
export function fitsOneStatement(compiled: CompiledQuery): boolean {
  return compiled.parameters.length <= MAX_PARAMETERS;
}

/**
 * Kysely's driver for PostgreSQL, with a transaction's BEGIN and COMMIT sent along with its
 * statements instead of as round trips of their own. The pool's connections are pipelined (pg's
 * `pipeline` mode: a statement is sent without waiting for the answer to the one before), so:
 *
 * - BEGIN waits for the transaction's first statement and goes with it: a transaction that runs
 *   no statement sends nothing at all;
 * - COMMIT goes right behind a statement marked as the transaction's last (`endingTransaction`),
 *   and the commit then waits for its answer instead of sending it. If that statement fails,
 *   PostgreSQL answers the COMMIT by rolling back, as it does for any COMMIT after an error.
 *
 * A commit of an invocation (BEGIN, the locked read, the writes, COMMIT) is then two round trips.
 * Each statement keeps its own answer (or error). Statements behind an error are not
 * skipped, which is why only BEGIN and COMMIT ride along: a BEGIN cannot fail but with the
 * connection, and a COMMIT behind a failed statement rolls back.
 */
import type { CompiledQuery, DatabaseConnection, Driver, QueryResult, TransactionSettings } from "kysely";
import type pg from "pg";

const ending = new WeakSet<CompiledQuery>();

/**
 * `query`, marked to be followed at once by its transaction's COMMIT: for a statement after which
 * the transaction runs nothing more. Outside a transaction the mark is ignored.
 */
export function endingTransaction<Q extends CompiledQuery>(query: Q): Q {
  ending.add(query);
  return query;
}

/** The driver, on a pool whose clients are pipelined (`pipeline: true`). */
export class PipelinedPostgresDriver implements Driver {
  #pool: pg.Pool | undefined;
  readonly #connections = new WeakMap<pg.PoolClient, PipelinedConnection>();

  constructor(pool: pg.Pool) {
    this.#pool = pool;
  }

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    const pool = this.#pool;
    if (!pool) throw new Error("the database connection pool has been closed");
    const client = await pool.connect();
    let connection = this.#connections.get(client);
    if (!connection) {
      connection = new PipelinedConnection(client);
      this.#connections.set(client, connection);
    }
    return connection;
  }

  async beginTransaction(connection: DatabaseConnection, settings: TransactionSettings): Promise<void> {
    let begin = "begin";
    if (settings.isolationLevel) begin += ` isolation level ${settings.isolationLevel}`;
    if (settings.accessMode) begin += ` ${settings.accessMode}`;
    (connection as PipelinedConnection).begin(begin);
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PipelinedConnection).commit();
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    await (connection as PipelinedConnection).rollback();
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    (connection as PipelinedConnection).release();
  }

  async destroy(): Promise<void> {
    const pool = this.#pool;
    this.#pool = undefined;
    await pool?.end();
  }
}

/** Where a connection's transaction stands. */
type TransactionState =
  | { readonly kind: "none" }
  /** BEGIN is to go with the first statement. */
  | { readonly kind: "pending"; readonly begin: string }
  | { readonly kind: "open" }
  /** COMMIT went with the last statement; its answer. */
  | { readonly kind: "ending"; readonly commit: Promise<unknown> };

class PipelinedConnection implements DatabaseConnection {
  readonly #client: pg.PoolClient;
  #transaction: TransactionState = { kind: "none" };

  constructor(client: pg.PoolClient) {
    this.#client = client;
  }

  begin(statement: string): void {
    this.#transaction = { kind: "pending", begin: statement };
  }

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    const transaction = this.#transaction;
    if (transaction.kind === "ending") {
      throw new Error("a statement after the one marked as its transaction's last (endingTransaction)");
    }
    const begun = transaction.kind === "pending" ? this.#client.query(transaction.begin) : undefined;
    // Awaited after the statement's answer, whose error is the one to report if both fail.
    begun?.catch(() => {});
    if (begun) this.#transaction = { kind: "open" };
    const answer = this.#client.query(query.sql, [...query.parameters]);
    if (transaction.kind !== "none" && ending.has(query)) {
      const commit = this.#client.query("commit");
      // Awaited by `commit` or `rollback`; until then, its failure is not an unhandled rejection.
      commit.catch(() => {});
      this.#transaction = { kind: "ending", commit };
    }
    try {
      const result = await answer;
      await begun;
      return asResult<R>(result);
    } catch (error) {
      throw withCallersStack(error);
    }
  }

  streamQuery<R>(): AsyncIterableIterator<QueryResult<R>> {
    throw new Error("streaming a query's rows is not supported on a pipelined connection");
  }

  async commit(): Promise<void> {
    const transaction = this.#transaction;
    this.#transaction = { kind: "none" };
    if (transaction.kind === "ending") await transaction.commit;
    else if (transaction.kind === "open") await this.#client.query("commit");
  }

  async rollback(): Promise<void> {
    const transaction = this.#transaction;
    this.#transaction = { kind: "none" };
    // Sent along, the COMMIT behind a failed statement rolled back already; behind one that
    // succeeded it committed, and the transaction cannot be undone: nothing is left to roll back.
    if (transaction.kind === "ending") await transaction.commit.catch(() => {});
    else if (transaction.kind === "open") await this.#client.query("rollback");
  }

  release(): void {
    this.#transaction = { kind: "none" };
    this.#client.release();
  }
}

function asResult<R>(result: pg.QueryResult): QueryResult<R> {
  const { command, rowCount, rows } = result;
  const changes = command === "INSERT" || command === "UPDATE" || command === "DELETE" || command === "MERGE";
  return {
    numAffectedRows: changes && rowCount !== null ? BigInt(rowCount) : undefined,
    rows: (rows ?? []) as R[],
  };
}

/** pg's errors carry the stack of the socket's read; add the caller's, as Kysely's driver does. */
function withCallersStack(error: unknown): unknown {
  if (error instanceof Error && error.stack) {
    const caller = new Error().stack?.split("\n").slice(1).join("\n");
    if (caller) error.stack += `\n${caller}`;
  }
  return error;
}

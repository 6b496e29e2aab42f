/**
 * Several statements run as one transaction in one round trip to PostgreSQL. The pool's
 * connections are pipelined (`pipeline: true`, store/dialect/postgres/adapter.ts): a statement is sent without
 * waiting for the answer to the one before. So BEGIN, the statements and COMMIT are written to
 * the socket together, in one write, and PostgreSQL answers them together.
 *
 * Each statement goes by the extended protocol, with its parameters, so it can be a named
 * statement whose plan PostgreSQL keeps (store/named-statements.ts `reusePlanOf`). Under READ COMMITTED
 * each statement still reads what committed before it started: a lock the first one takes
 * (`pg_advisory_xact_lock`) is held until the COMMIT, and the statements after it see what the
 * lock's previous holder committed.
 *
 * A failed statement aborts the transaction: the statements after it fail too ("current
 * transaction is aborted"), the COMMIT rolls back, and the batch rejects with the first error.
 */
import type { CompiledQuery } from "kysely";
import pg from "pg";
import { databaseFailure } from "../../database-errors.js";

/** Runs `queries` as one transaction, in one round trip; resolves to each one's rows, in order. */
export type StatementBatch = (queries: readonly CompiledQuery[]) => Promise<unknown[][]>;

export function createStatementBatch(pool: pg.Pool): StatementBatch {
  return async (queries) => {
    const client = await pool.connect();
    const answers: Promise<pg.QueryResult>[] = [];
    const send = (text: string, values?: unknown[]) => {
      const answer = client.query(text, values);
      // Awaited below; until then (or if a later one throws), a failure is not an unhandled rejection.
      answer.catch(() => {});
      answers.push(answer);
    };
    const socket = client.connection.stream;
    // pg writes each statement as it is submitted; held until the last, they go in one write.
    socket.cork();
    try {
      send("begin");
      for (const query of queries) send(query.sql, [...query.parameters]);
      send("commit");
    } catch (error) {
      // Sent in part, or not at all: the connection is in no known state.
      client.release(error instanceof Error ? error : new Error(String(error)));
      throw error;
    } finally {
      socket.uncork();
    }
    const settled = await Promise.allSettled(answers);
    const failure = settled.find((answer) => answer.status === "rejected");
    // A statement's failure leaves the connection usable (the COMMIT rolled the transaction back);
    // any other (the connection lost, the session ended) leaves it in no known state: not reused.
    const broken = failure !== undefined && !rolledBack(failure.reason);
    client.release(broken ? (failure.reason as Error) : undefined);
    if (failure) throw failure.reason;
    return settled
      .slice(1, -1)
      .map((answer) => (answer as PromiseFulfilledResult<pg.QueryResult>).value.rows as unknown[]);
  };
}

/**
 * The batch failed on a statement and its session lives on: PostgreSQL rolled the transaction
 * back, nothing of it committed. Not so for a lost connection, nor for PostgreSQL's own answer
 * that it ends the session (a restart's `57P01`, say), after which the COMMIT may have happened.
 */
export function rolledBack(error: unknown): boolean {
  return error instanceof pg.DatabaseError && databaseFailure(error) !== "unavailable";
}

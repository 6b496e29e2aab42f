/**
 * Several statements sent to PostgreSQL in one round trip. The extended protocol, which carries
 * parameters, takes one statement per message and the pg driver waits for each answer; the simple
 * protocol takes a script, but no parameters. So the parameters are written into the text as
 * literals (numbers as they are, strings escaped as the driver escapes them), and the script runs
 * as one implicit transaction: a lock the first statement takes (`pg_advisory_xact_lock`) is held
 * until the last one ends, and each statement still reads what committed before it started.
 *
 * Only for statements whose parameters are numbers, strings and nulls the server made itself
 * (queue names, ids, times): a parameter of any other type is refused rather than guessed at.
 */
import type { CompiledQuery } from "kysely";
import pg from "pg";

/** Runs `queries` as one script, in one round trip; resolves to each one's rows, in order. */
export type StatementBatch = (queries: readonly CompiledQuery[]) => Promise<unknown[][]>;

export function createStatementBatch(pool: pg.Pool): StatementBatch {
  return async (queries) => {
    const script = queries.map((query) => inlineParameters(query)).join(";\n");
    const results = (await pool.query(script)) as pg.QueryResult | pg.QueryResult[];
    return (Array.isArray(results) ? results : [results]).map((result) => result.rows);
  };
}

/** The query's text with `$n` replaced by its parameter as a literal. */
export function inlineParameters(query: CompiledQuery): string {
  // Kysely numbers its placeholders $1..$n, each used; anything else is a `$` the text holds itself.
  const misplaced = () => new Error("a batched statement's text may hold no $ but its placeholders");
  const used = new Set<number>();
  const text = query.sql.replace(/\$(\d+)/g, (_, digits: string) => {
    const position = Number(digits);
    if (position < 1 || position > query.parameters.length) throw misplaced();
    used.add(position);
    return literal(query.parameters[position - 1]);
  });
  if (used.size !== query.parameters.length) throw misplaced();
  return text;
}

function literal(value: unknown): string {
  if (value === null) return "null";
  if (typeof value === "number" && Number.isFinite(value)) return String(value);
  if (typeof value === "bigint") return value.toString();
  if (typeof value === "string") return pg.escapeLiteral(value);
  throw new Error(`a batched statement takes numbers, strings and nulls, not ${typeof value}`);
}

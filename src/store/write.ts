/**
 * One write (an INSERT, UPDATE or DELETE) as a value: built on whatever creator it is given (the
 * store, a transaction, a `WITH`), and compiled from its kept statement when it is prepared. The
 * store's operations hand writes out, and store/write-together.ts commits them together.
 */
import type {
  Compilable,
  CompiledQuery,
  DeleteQueryBuilder,
  DeleteResult,
  Insertable,
  InsertQueryBuilder,
  InsertResult,
  QueryCreator,
  UpdateQueryBuilder,
  UpdateResult,
} from "kysely";
import type { DialectName } from "./dialect/capabilities.js";
import { type Prepared, prepared, type Row, type Values } from "./prepared.js";
import type { Database, Executor } from "./schema.js";

/** An INSERT, UPDATE or DELETE of one table, without RETURNING. */
export type WriteQuery = {
  [T in keyof Database]:
    | InsertQueryBuilder<Database, T, InsertResult>
    | UpdateQueryBuilder<Database, T, T, UpdateResult>
    | DeleteQueryBuilder<Database, T, DeleteResult>;
}[keyof Database];
/**
 * One write, built on the creator it is given (the store, a transaction, or a `WITH`). A
 * prepared write (`preparedWrite`) also compiles from its kept statement, without building.
 */
export type Write = ((creator: QueryCreator<Database>) => WriteQuery) & {
  readonly compiled?: (executor: Executor, dialect: DialectName) => CompiledQuery;
};

/** A write or returning write compiled on `executor`: from its kept statement if it is prepared. */
export function compiledWrite<R>(
  write: ReturningWrite<R> | Write,
  executor: Executor,
  dialect: DialectName,
): CompiledQuery {
  return write.compiled ? write.compiled(executor, dialect) : write(executor).compile();
}

/**
 * The writes compiled on PostgreSQL from their kept statements, for joining their texts
 * (store/combined-writes.ts); undefined when one of them is not prepared.
 */
export function preparedTexts(executor: Executor, writes: readonly Write[]): CompiledQuery[] | undefined {
  const texts: CompiledQuery[] = [];
  for (const write of writes) {
    if (!write.compiled) return undefined;
    texts.push(write.compiled(executor, "postgres"));
  }
  return texts;
}

/** `statement` with `values` as a write: compiled from the kept statement when it runs alone. */
export function preparedWrite<V extends Values>(statement: Prepared<V, unknown>, values: V): Write {
  return Object.assign((creator: QueryCreator<Database>) => statement.build(creator, values) as WriteQuery, {
    compiled: (executor: Executor, dialect: DialectName) =>
      statement.compile(executor, dialect, values) as CompiledQuery,
  });
}

/**
 * A statement that writes and returns rows (an UPDATE … RETURNING), built on the creator it is
 * given, to be committed with other writes (`writeTogetherReturning`). A prepared one
 * (`preparedReturning`) also compiles from its kept statement, without building.
 */
export type ReturningWrite<R> = ((creator: QueryCreator<Database>) => Compilable<R>) & {
  readonly compiled?: (executor: Executor, dialect: DialectName) => CompiledQuery<R>;
};

/** `statement` with `values` as a returning write (see `preparedWrite`). */
export function preparedReturning<V extends Values, R>(
  statement: Prepared<V, R>,
  values: V,
): ReturningWrite<R> {
  return Object.assign((creator: QueryCreator<Database>) => statement.build(creator, values), {
    compiled: (executor: Executor, dialect: DialectName) => statement.compile(executor, dialect, values),
  });
}

/** The insert of rows into each table, prepared (store/prepared.ts) once per table. */
const inserts = new Map<keyof Database, Prepared<{ rows: readonly Row[] }, unknown>>();

/** Inserts of `rows` into `table`, `perStatement` rows to a statement, as writes. */
export function insertWrites<T extends keyof Database>(
  table: T,
  rows: readonly Insertable<Database[T]>[],
  perStatement = 200,
): Write[] {
  let insert = inserts.get(table);
  if (!insert) {
    insert = prepared(
      (creator, values: { rows: readonly Row[] }) => creator.insertInto(table).values(values.rows as never),
      { reusePlan: true },
    );
    inserts.set(table, insert);
  }
  const writes: Write[] = [];
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement) as unknown as readonly Row[];
    writes.push(preparedWrite(insert, { rows: chunk }));
  }
  return writes;
}

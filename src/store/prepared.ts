/**
 * Statements Kysely builds and compiles once, then runs many times with new values: on the hot
 * paths (an ingest commit, a delivery's record) building and compiling every time cost much of
 * the server's CPU. A statement is built once for each shape of its values, with a marker in
 * the place of each value; each run puts its values in the markers' places.
 *
 * The rule for a builder: **it must not look at its values**, only pass them to Kysely. It gets
 * markers, not the values, so a branch on a value would follow the marker's branch for every
 * call. What decides the statement's shape goes into the shape instead:
 * - which properties are present, and which are undefined (Kysely leaves undefined columns out);
 * - how many items each array holds (the rows of an insert, the ids of an `in` list).
 * A marker that ends up in the SQL text rather than among the parameters (`sql.lit`, `sql.raw`,
 * an identifier) is refused when the statement is first built.
 *
 * On PostgreSQL a statement prepared with `reusePlan` is also prepared by the server, once per
 * connection (store/named-statements.ts), so it is parsed once and, after a few runs, planned
 * once. Only for statements whose best plan does not depend on their values: a lookup or a change
 * by primary key, an insert. A claim's plan does (how many jobs wait, in which groups); the capped
 * claim is named all the same, to be parsed once, and runs only in a transaction that forbids
 * generic plans around it (store/dialect/postgres/capped-claim.ts `CUSTOM_PLANS`).
 */
import type { Compilable, CompiledQuery, Kysely, QueryCreator } from "kysely";
import type { DialectCapabilities, DialectName } from "./dialect/capabilities.js";
import { endingTransaction } from "./dialect/postgres/driver.js";
import { reusePlanOf } from "./named-statements.js";
import type { Database, Executor } from "./schema.js";
import { executorOf, type InTransaction } from "./transaction.js";

/** A value a statement passes to the database as a parameter. */
type Parameter = string | number | bigint | boolean | null | undefined | Uint8Array;
/** An object of parameters (one row of an insert). */
export type Row = { readonly [column: string]: Parameter };
/** What a prepared statement is run with: parameters, lists of them, and rows. */
export type Values = {
  readonly [name: string]: Parameter | readonly Parameter[] | readonly Row[];
};

/** Where a compiled statement's parameter comes from: a value of the call, or a constant. */
type Slot = { readonly leaf: number } | { readonly constant: unknown };

interface Compiled {
  readonly query: CompiledQuery;
  readonly slots: readonly Slot[];
}

/** Where a prepared statement runs: in a transaction of the store, and whether it ends it. */
export interface RunOptions {
  /** The transaction to run in; the store itself (a statement that commits alone) when absent. */
  readonly in?: InTransaction;
  /**
   * Nothing runs after it in its transaction: on PostgreSQL its COMMIT goes right behind it
   * (store/dialect/postgres/driver.ts), a round trip fewer.
   */
  readonly last?: boolean;
}

/** What a statement runs on: the store's database and its dialect's flags (a `StoreConnection` is one). */
export interface StatementTarget {
  readonly db: Kysely<Database>;
  readonly dialect: { readonly capabilities: DialectCapabilities };
}

export interface Prepared<V extends Values, R> {
  /** The statement for `values`, compiled on `executor` for `dialect` (inside the store). */
  compile(executor: Executor, dialect: DialectName, values: V): CompiledQuery<R>;
  /** Runs the statement for `values` on `store` (or in a transaction of it); its rows. */
  execute(store: StatementTarget, values: V, options?: RunOptions): Promise<R[]>;
  /** The statement for `values` built the ordinary way, for a caller that composes it further. */
  build(creator: QueryCreator<Database>, values: V): Compilable<R>;
}

/** Shapes kept per statement; more (inserts of every row count up to a chunk's) are built again. */
const SHAPES_PER_STATEMENT = 256;
/** No value of a call can be this string: it marks leaf `n` while a statement is built. */
const MARK = "\u0000sluice-prepared:";

export function prepared<V extends Values, R = unknown>(
  build: (creator: QueryCreator<Database>, values: V) => Compilable<R>,
  options: { readonly reusePlan?: boolean } = {},
): Prepared<V, R> {
  const shapes = new Map<string, Compiled>();

  const compile = (executor: Executor, dialect: DialectName, values: V): CompiledQuery<R> => {
    const leaves: Parameter[] = [];
    const shape = `${dialect}|${shapeOf(values, leaves)}`;
    let compiled = shapes.get(shape);
    if (!compiled) {
      compiled = compileShape(executor, values, build);
      if (shapes.size >= SHAPES_PER_STATEMENT) shapes.delete(shapes.keys().next().value as string);
      shapes.set(shape, compiled);
    }
    // At each run, not only the first: a text forgotten while it was rare is counted again.
    if (options.reusePlan && dialect === "postgres") reusePlanOf(compiled.query.sql);
    const parameters = compiled.slots.map((slot) => ("leaf" in slot ? leaves[slot.leaf] : slot.constant));
    return { ...compiled.query, parameters } as CompiledQuery<R>;
  };

  return {
    compile,
    async execute(store, values, options = {}) {
      const executor = options.in === undefined ? store.db : executorOf(options.in);
      const { capabilities } = store.dialect;
      const query = compile(executor, capabilities.name, values);
      const ends = options.last === true && capabilities.roundTrips;
      return (await executor.executeQuery(ends ? endingTransaction(query) : query)).rows;
    },
    build,
  };
}

/**
 * The shape of `values` as a string (property names, undefined ones, array lengths), pushing
 * each defined leaf onto `leaves` in a fixed order: the order `markedCopy` numbers them in.
 */
function shapeOf(values: Values, leaves: Parameter[]): string {
  let shape = "";
  for (const name in values) {
    const value = values[name];
    if (Array.isArray(value)) {
      shape += `${name}[`;
      for (const item of value as readonly (Parameter | Row)[]) {
        if (isRow(item)) {
          shape += "{";
          for (const column in item) {
            const cell = item[column];
            if (cell === undefined) shape += `${column}?,`;
            else {
              shape += `${column},`;
              leaves.push(cell);
            }
          }
          shape += "}";
        } else {
          shape += ".";
          leaves.push(item);
        }
      }
      shape += "],";
    } else if (value === undefined) {
      shape += `${name}?,`;
    } else {
      shape += `${name},`;
      leaves.push(value as Parameter);
    }
  }
  return shape;
}

/** A copy of `values` with leaf n replaced by its marker (undefined ones stay undefined). */
function markedCopy(values: Values): Values {
  let leaf = 0;
  const mark = (value: Parameter): Parameter => (value === undefined ? undefined : `${MARK}${leaf++}`);
  const copy: Record<string, Values[string]> = {};
  for (const name in values) {
    const value = values[name];
    if (Array.isArray(value)) {
      copy[name] = (value as readonly (Parameter | Row)[]).map((item) => {
        if (!isRow(item)) return mark(item);
        const row: Record<string, Parameter> = {};
        for (const column in item) row[column] = mark(item[column]);
        return row;
      }) as readonly Parameter[];
    } else {
      copy[name] = mark(value as Parameter);
    }
  }
  return copy;
}

function compileShape<V extends Values, R>(
  executor: Executor,
  values: V,
  build: (creator: QueryCreator<Database>, values: V) => Compilable<R>,
): Compiled {
  const query = build(executor, markedCopy(values) as V).compile();
  if (query.sql.includes(MARK)) {
    throw new Error("a prepared statement put one of its values in its SQL text; pass it as a parameter");
  }
  const slots = query.parameters.map((parameter): Slot => {
    if (typeof parameter === "string" && parameter.startsWith(MARK)) {
      return { leaf: Number(parameter.slice(MARK.length)) };
    }
    return { constant: parameter };
  });
  return { query, slots };
}

function isRow(item: unknown): item is Row {
  return typeof item === "object" && item !== null && !(item instanceof Uint8Array);
}

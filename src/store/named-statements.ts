/**
 * The texts PostgreSQL runs as named statements: parsed once per connection, their plans kept
 * (store/prepared.ts says which statements may be). The pool's client looks each text up here
 * (store/dialect/postgres/adapter.ts); a leaf, so the dialect and the statements that mark texts
 * need not import each other.
 */

/**
 * Named statements at most: each costs memory on every connection that ran it (its plan) and in
 * the driver, and the texts of inserts and their combinations vary with their row counts.
 */
const MAX_SERVER_NAMES = 256;
/**
 * Runs of a `reusePlan` text before it is named: a text run once or twice (an insert of a row
 * count seldom seen) takes no name, so the names go to the texts that keep coming back, whenever
 * they first came.
 */
const RUNS_BEFORE_NAMING = 3;
/**
 * `reusePlan` texts not named yet kept at most, with their runs; past it the oldest are forgotten
 * (and counted from nothing if they come again).
 */
const MAX_UNNAMED = 4096;

/** The name of each `reusePlan` text named so far; never more than `MAX_SERVER_NAMES`. */
const names = new Map<string, string>();
/** The runs so far of each `reusePlan` text not named yet. */
const unnamed = new Map<string, number>();

/** Marks `sql` as a statement whose plan does not depend on its values (`reusePlan`). */
export function reusePlanOf(sql: string): void {
  if (names.has(sql) || unnamed.has(sql)) return;
  if (unnamed.size >= MAX_UNNAMED) unnamed.delete(unnamed.keys().next().value as string);
  unnamed.set(sql, 0);
}

/** Whether `sql` was marked with `reusePlanOf`. */
export function reusesPlan(sql: string): boolean {
  return names.has(sql) || unnamed.has(sql);
}

/**
 * The name to run `sql` under on PostgreSQL, counting this run: a `reusePlan` text is named at
 * its `RUNS_BEFORE_NAMING`th run, while names are left. Undefined: run it unnamed.
 */
export function serverStatementName(sql: string): string | undefined {
  const name = names.get(sql);
  if (name !== undefined) return name;
  const runs = unnamed.get(sql);
  if (runs === undefined) return undefined;
  if (runs + 1 < RUNS_BEFORE_NAMING || names.size >= MAX_SERVER_NAMES) {
    unnamed.set(sql, runs + 1);
    return undefined;
  }
  unnamed.delete(sql);
  const given = `sluice_${names.size + 1}`;
  names.set(sql, given);
  return given;
}

/**
 * Holds every delete from `table` for `seconds` before it runs, on PostgreSQL: a trigger that
 * sleeps. A transaction deleting a source or a workflow then stays open between its statements,
 * so that what runs concurrently (the commit of a run in flight) comes in between. On SQLite the
 * server's transactions share one connection and nothing can come between: nothing is installed.
 * With `perRow`, each row's delete is held instead: one statement deleting many rows then holds the
 * rows it has deleted while it walks on to the rest. Resolves to the undo.
 */
import { sql } from "kysely";
import type { Store } from "../../src/store/store.js";
import type { TestDatabase } from "./dialects.js";
import { waitUntil } from "./wait.js";

export async function slowDeletesFrom(
  database: TestDatabase,
  db: Store["db"],
  table: string,
  seconds: number,
  { perRow = false }: { perRow?: boolean } = {},
): Promise<() => Promise<void>> {
  if (database.dialect !== "postgres") return async () => {};
  const name = sql.raw(`slow_delete_${table}`);
  await sql`create function ${name}() returns trigger language plpgsql as $$ begin perform pg_sleep(${sql.raw(String(seconds))}); return ${sql.raw(perRow ? "old" : "null")}; end $$`.execute(
    db,
  );
  await sql`create trigger ${name} before delete on ${sql.table(table)} for each ${sql.raw(perRow ? "row" : "statement")} execute function ${name}()`.execute(
    db,
  );
  return async () => {
    await sql`drop trigger ${name} on ${sql.table(table)}`.execute(db);
    await sql`drop function ${name}()`.execute(db);
  };
}

/**
 * Resolves once `deleting` is under way in `table`: on PostgreSQL, once a delete from it is running
 * (held by `slowDeletesFrom`) on this database; on SQLite, where nothing comes between a delete's
 * steps, once `deleting` has settled.
 */
export async function deleteUnderWay(
  database: TestDatabase,
  db: Store["db"],
  table: string,
  deleting: Promise<unknown>,
): Promise<void> {
  if (database.dialect !== "postgres") {
    await deleting.catch(() => {});
    return;
  }
  const pattern = `delete from "${table}"%`;
  await waitUntil(`a delete from ${table} under way`, async () => {
    const { rows } = await sql<{ n: string }>`select count(*) as n from pg_stat_activity
      where datname = current_database() and state = 'active' and query ilike ${pattern}`.execute(db);
    return Number(rows[0]?.n ?? 0) > 0;
  });
}

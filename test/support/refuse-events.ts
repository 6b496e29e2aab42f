/**
 * Makes every insert of an event fail, on the server's own database, until the returned undo is
 * called: a trigger that raises. Commits that store events fail as a database error would fail
 * them, while the rest of the server works.
 */
import { sql } from "kysely";
import type { Store } from "../../src/store/store.js";
import type { TestDatabase } from "./dialects.js";

export async function refuseEventInserts(
  database: TestDatabase,
  db: Store["db"],
): Promise<() => Promise<void>> {
  if (database.dialect === "sqlite") {
    await sql`create trigger refuse_events before insert on events begin select raise(abort, 'refused by the test'); end`.execute(
      db,
    );
    return async () => {
      await sql`drop trigger refuse_events`.execute(db);
    };
  }
  await sql`create function refuse_events() returns trigger language plpgsql as $$ begin raise exception 'refused by the test'; end $$`.execute(
    db,
  );
  await sql`create trigger refuse_events before insert on events for each row execute function refuse_events()`.execute(
    db,
  );
  return async () => {
    await sql`drop trigger refuse_events on events`.execute(db);
    await sql`drop function refuse_events()`.execute(db);
  };
}

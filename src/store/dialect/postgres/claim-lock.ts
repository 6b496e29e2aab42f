/**
 * The queue's claim lock on PostgreSQL, for the transaction it begins: claims and turns of the
 * queue take it, one at a time in this schema, so no two count the same free room. Its plan is
 * kept (a named statement).
 */
import type { CompiledQuery, Kysely } from "kysely";
import { sql } from "kysely";
import { reusePlanOf } from "../../named-statements.js";
import type { Database } from "../../schema.js";

export function queueLock(db: Kysely<Database>, queue: string): CompiledQuery {
  const locked =
    sql`select pg_advisory_xact_lock(hashtextextended(current_schema() || ':claim:' || ${queue}, 0))`.compile(
      db,
    );
  reusePlanOf(locked.sql);
  return locked;
}

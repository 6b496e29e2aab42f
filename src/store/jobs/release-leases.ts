/** Freeing every lease at once, for a server that knows no other process holds one. */
import type { Kysely } from "kysely";
import type { Database } from "../schema.js";

/** Frees every lease; how many were freed. */
export async function releaseAllLeases(db: Kysely<Database>): Promise<number> {
  const result = await db
    .updateTable("jobs")
    .set({ lease_token: null, locked_until: null })
    .where("locked_until", "is not", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * The jobs indexes in the order claims read them: due time, then id (store/jobs/). With the id
 * in the index, the first jobs in order are its first entries whatever the planner estimates; the
 * index it replaces (without the id) let a planner with stale statistics (a table that was empty
 * when last analyzed, as a queue often is) read and sort a whole backlog to take one job.
 *
 * And an index of each group's due jobs in the same order, for handing a finished job's place in
 * its group to the group's next job (`takeNextWrite`) without reading other groups' backlogs.
 */
import type { Kysely } from "kysely";
import { createIndex } from "./indexes.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await createIndex(db, "jobs_due_in_order", "jobs", ["queue", "state", "run_at", "id"]);
  await db.schema.dropIndex("jobs_due").execute();
  await createIndex(db, "jobs_group_due", "jobs", ["queue", "group_key", "state", "run_at", "id"]);
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("jobs_group_due").execute();
  await createIndex(db, "jobs_due", "jobs", ["queue", "state", "run_at"]);
  await db.schema.dropIndex("jobs_due_in_order").execute();
}

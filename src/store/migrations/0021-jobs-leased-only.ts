/**
 * `jobs_leased` holds the jobs in flight only (`where locked_until is not null`): a claim counts
 * them per group against each group's cap, and the next-due probe reads the lease that ends
 * first (store/jobs/). A queued job that nobody holds is no longer in it.
 *
 * The full index served one more statement, badly: the hand-off to a group's next job
 * (`takeNextWrite`, run with a plan kept on each connection) asks for a free job of the queue,
 * and a plan made on a young queue (a few hundred jobs, the table never analyzed, as a new
 * deployment's is) could read every free job of the queue from `jobs_leased` and sort them, to
 * take one. Its cost there was estimated the same as reading the group's own jobs in order
 * (`jobs_group_due`), so which one a connection kept was a toss: with 5,000 jobs waiting, a hand-off
 * on such a connection read 3,400 index entries where it needs a few, and PostgreSQL's CPU a
 * delivery at the max rate went from 0.2 to 0.5–1.0 ms in the runs it happened in
 * (bench/RESULTS.md). A free job is not in the index now, so no plan can read free jobs from it.
 * It is also smaller, and a job enqueued no longer writes to it.
 */
import type { Kysely } from "kysely";
import { createIndex } from "./indexes.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("jobs_leased").execute();
  await createIndex(db, "jobs_leased", "jobs", ["queue", "locked_until"], { whereNotNull: "locked_until" });
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("jobs_leased").execute();
  await createIndex(db, "jobs_leased", "jobs", ["queue", "locked_until"]);
}

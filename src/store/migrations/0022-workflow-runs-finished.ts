/**
 * `workflow_runs_finished`: a workflow's finished runs in order (`where finished_at is not
 * null`), for the trim that keeps the newest MAX_RUNS_KEPT of them as each run ends
 * (core/workflows/run-commit.ts). The trim counted every run before, the queued ones too, so a
 * workflow with more than 1,000 runs waiting removed the oldest of them before they ran. It now
 * counts finished runs only, and reads them from this index alone, as it read all runs from
 * `workflow_runs_workflow` before: a run still queued or running is not in it.
 */
import type { Kysely } from "kysely";
import { createIndex } from "./indexes.js";

// biome-ignore lint/suspicious/noExplicitAny: migrations run against the schema as it was, not as it is now.
export async function up(db: Kysely<any>): Promise<void> {
  await createIndex(db, "workflow_runs_finished", "workflow_runs", ["workflow_id", "id"], {
    whereNotNull: "finished_at",
  });
}

// biome-ignore lint/suspicious/noExplicitAny: see up().
export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropIndex("workflow_runs_finished").execute();
}

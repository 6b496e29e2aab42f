/**
 * Starting runs and reading them back: a manual run, a replay (the same trigger event, run again
 * by the workflow as it is now), an HTTP request to the workflow's endpoint; the runs of a
 * workflow, newest first; one run.
 */
// Kysely here, not in the store: reads and writes only its own table (workflow_runs).
import { randomUUID } from "node:crypto";
import type { WorkflowRunStatus } from "../../store/schema.js";
import type { CoreContext } from "../context.js";
import { ConflictError } from "../errors.js";
import { ownedRow } from "../owned-rows.js";
import { type Page, type PageRequest, readQueryPage } from "../pagination.js";
import { type ReplayStart, replayOf } from "./replays.js";
import { type NewRun, queueRun, type RunTrigger, WORKFLOW_RUNS_TOPIC } from "./run-queue.js";
import { type RunRecord, toRunRecord } from "./run-record.js";
import { RUN_LEASE_MS } from "./run-worker.js";
import { getWorkflow, type Workflow } from "./workflows.js";

const RUNS = { table: "workflow_runs", name: "workflow run" } as const;

/** Queues a run of the workflow for `event` (a manual run). */
export async function startRun(
  context: CoreContext,
  accountId: string,
  workflowId: string,
  event: unknown,
): Promise<RunRecord> {
  const workflow = await getWorkflow(context, accountId, workflowId);
  if (!workflow.active) {
    throw new ConflictError(
      "workflow_inactive",
      `Workflow ${workflow.id} is paused; resume it with PUT {"active": true}`,
    );
  }
  return queued(context, {
    workflowId: workflow.id,
    accountId: workflow.accountId,
    trigger: { event: event ?? null, context: { trigger: "manual" } },
  });
}

/**
 * Queues a new run with the trigger event of run `runId`, `replay_of` pointing at it; from `start`
 * on, reusing the original's outcomes of the steps before it (replays.ts).
 */
export async function replayRun(
  context: CoreContext,
  accountId: string,
  runId: string,
  start?: ReplayStart,
): Promise<RunRecord> {
  const original = await getRun(context, accountId, runId);
  const workflow = await getWorkflow(context, accountId, original.workflowId);
  return queued(context, replayOf(original, workflow, start));
}

/**
 * Queues the run of an HTTP request. When the caller waits for the response, the run's job is
 * claimed for this node at once: the returned lease goes to `WorkflowRunner.runClaimed`.
 */
export async function queueHttpRun(
  context: CoreContext,
  workflow: Workflow,
  trigger: RunTrigger,
  claim: boolean,
): Promise<{ runId: string; lease: { id: string; leaseToken: string } | null }> {
  const leaseToken = randomUUID();
  const { runId, jobId } = await context.store.sharedTransaction((tx) =>
    queueRun(tx, context.store, {
      workflowId: workflow.id,
      accountId: workflow.accountId,
      trigger,
      // Across nodes the run starts when its turn comes (WorkflowRunner.runClaimed); alone, at once.
      ...(claim
        ? {
            claim: {
              leaseToken,
              leaseMs: RUN_LEASE_MS,
              waitsForTurn: !context.store.capabilities.singleProcess,
            },
          }
        : {}),
    }),
  );
  if (!claim) context.store.notifier.publish(WORKFLOW_RUNS_TOPIC);
  return { runId, lease: claim ? { id: jobId, leaseToken } : null };
}

async function queued(context: CoreContext, run: NewRun): Promise<RunRecord> {
  const { runId } = await context.store.transaction((tx) => queueRun(tx, context.store, run));
  context.store.notifier.publish(WORKFLOW_RUNS_TOPIC);
  return getRun(context, run.accountId, runId);
}

export async function getRun(context: CoreContext, accountId: string, runId: string): Promise<RunRecord> {
  return toRunRecord(await ownedRow(context.store.db, RUNS, accountId, runId));
}

/** The workflow's runs, newest first; only those of `statuses` when any are given. */
export async function listRuns(
  context: CoreContext,
  accountId: string,
  workflowId: string,
  page: PageRequest,
  statuses: readonly WorkflowRunStatus[] = [],
): Promise<Page<RunRecord>> {
  const workflow = await getWorkflow(context, accountId, workflowId);
  const runs = context.store.db
    .selectFrom("workflow_runs")
    .selectAll()
    .where("workflow_id", "=", workflow.id);
  return readQueryPage(
    page,
    statuses.length === 0 ? runs : runs.where("status", "in", statuses),
    toRunRecord,
  );
}

/**
 * Queuing workflow runs. A run is a row of workflow_runs (its record) and a job of the
 * `workflow_run` queue (the work), written in the same transaction as what caused it: the
 * source event that triggered it, the HTTP request, the manual run or the replay. So a trigger
 * that committed always has its run, across crashes.
 */
// Kysely here, not in the store: a plain insert of run rows; their jobs come from store.jobs.
import type { Insertable } from "kysely";
import type { JobQueue, NewJob } from "../../store/jobs/contract.js";
import type { WorkflowRunsTable } from "../../store/schema.js";
import type { Store } from "../../store/store.js";
import type { StoreTransaction } from "../../store/transaction.js";
import { insertWrites, type Write, writeIn } from "../../store/write-together.js";
import type { StoredEvent } from "../events/emitter-events.js";
import { newId } from "../ids.js";

export const WORKFLOW_RUN_QUEUE = "workflow_run";
export const WORKFLOW_RUNS_TOPIC = "workflow_runs";

export interface RunJob {
  readonly runId: string;
}

/** What `steps.trigger` holds: the event, and where it came from. */
export interface RunTrigger {
  readonly event: unknown;
  readonly context: Record<string, unknown>;
}

export interface NewRun {
  readonly workflowId: string;
  readonly accountId: string;
  readonly trigger: RunTrigger;
  readonly replayOf?: string;
  /** A replay from a step: the original's records of the steps before it, and its index. */
  readonly resume?: { readonly steps: string; readonly nextStep: number };
  /** The caller runs it at once, holding this lease (an HTTP-triggered run). */
  readonly claim?: NewJob["claim"];
}

/** A run's row of workflow_runs, queued now. */
function runRow(runId: string, run: NewRun, now: number): Insertable<WorkflowRunsTable> {
  return {
    id: runId,
    workflow_id: run.workflowId,
    account_id: run.accountId,
    status: "queued",
    trigger: JSON.stringify({
      event: run.trigger.event ?? null,
      context: {
        ...run.trigger.context,
        id: runId,
        workflow_id: run.workflowId,
        ts: new Date(now).toISOString(),
        // A replay keeps its original's trace, as Pipedream's `trace_id` does.
        trace_id: run.trigger.context.trace_id ?? runId,
        replay: run.replayOf !== undefined,
      },
    }),
    steps: run.resume?.steps ?? "[]",
    ...(run.resume ? { next_step: run.resume.nextStep } : {}),
    error: null,
    exit: null,
    replay_of: run.replayOf ?? null,
    created_at: now,
    started_at: null,
    finished_at: null,
  };
}

/** Records a queued run and its job, in `tx` of `store`; returns the run id and the job id. */
export async function queueRun(
  tx: StoreTransaction,
  store: Pick<Store, "jobs" | "capabilities">,
  run: NewRun,
): Promise<{ runId: string; jobId: string }> {
  const runId = newId("wr");
  await writeIn(tx, store.capabilities, insertWrites("workflow_runs", [runRow(runId, run, Date.now())]));
  const jobId = await store.jobs.enqueue(
    {
      queue: WORKFLOW_RUN_QUEUE,
      payload: { runId } satisfies RunJob,
      groupKey: run.workflowId,
      ...(run.claim ? { claim: run.claim } : {}),
    },
    tx,
  );
  return { runId, jobId: jobId ?? "" };
}

/**
 * Inside a source's commit: the writes that queue one run per event and active workflow linked
 * to the source (their rows and jobs), and how many.
 */
export function triggeredRunWrites(
  jobs: JobQueue,
  source: { readonly id: string; readonly accountId: string },
  events: readonly StoredEvent[],
  links: readonly { readonly workflowId: string; readonly eventName: string }[],
): { readonly writes: Write[]; readonly count: number } {
  const now = Date.now();
  const rows: Insertable<WorkflowRunsTable>[] = [];
  const queued: NewJob[] = [];
  for (const event of events) {
    for (const link of links) {
      if (link.eventName !== "" && link.eventName !== event.channel) continue;
      const runId = newId("wr");
      rows.push(
        runRow(
          runId,
          {
            workflowId: link.workflowId,
            accountId: source.accountId,
            trigger: {
              event: event.payload,
              context: { emitter_id: source.id, event_id: event.id, channel: event.channel },
            },
          },
          now,
        ),
      );
      queued.push({
        queue: WORKFLOW_RUN_QUEUE,
        payload: { runId } satisfies RunJob,
        groupKey: link.workflowId,
        runAt: now,
      });
    }
  }
  return {
    writes: [...insertWrites("workflow_runs", rows), ...jobs.enqueueWrites(queued)],
    count: rows.length,
  };
}

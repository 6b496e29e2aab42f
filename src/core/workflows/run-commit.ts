/**
 * The record of a workflow run's attempt, committed in one transaction with its job's end: its
 * events with their fan-out, the workflow's counters, the run's row, the job's completion, its
 * release for a retry or its rescheduling for the end of a wait, and the NOTIFY. On PostgreSQL at most three round trips: BEGIN with the
 * workflow's locked row (when the run emitted), the writes as one statement, the trim with COMMIT.
 */

// Kysely here, not in the store: plain prepared statements that run alike on both databases.
import type { QueryCreator } from "kysely";
import type { FlowWaitKind } from "../../runtime/sandbox/sandbox.js";
import type { Lease } from "../../store/jobs/contract.js";
import { prepared } from "../../store/prepared.js";
import type { Database, WorkflowRunStatus } from "../../store/schema.js";
import type { Store } from "../../store/store.js";
import { preparedWrite, type Write, writeIn } from "../../store/write-together.js";
import { type NewEvent, planAppend, retention, trimOldest } from "../events/emitter-events.js";
import { type Committed, commitWakeUps } from "../events/topics.js";
import { emitterWithListeners } from "../fan-out/emitter-listeners.js";
import { listenersOf, planFanOut } from "../fan-out/fan-out.js";

/** Finished runs kept per workflow; older ones are removed as new ones finish. Runs queued or running are never removed. */
export const MAX_RUNS_KEPT = 1000;

/** A wait the run begins: its job comes due at `at` (a suspended run is then cancelled). */
export interface RunWaitEnd {
  readonly at: number;
  readonly kind: FlowWaitKind;
  /** The step that called `$.flow.*`. */
  readonly step: string;
}

export interface RunRecord {
  readonly workflow: { readonly id: string; readonly accountId: string };
  readonly runId: string;
  readonly lease: Lease;
  /** What the run emitted (or its error event), in order. */
  readonly events: readonly NewEvent[];
  /** Its steps' `$.service.db` writes (core/actions/action-state.ts), kept whatever the run's end. */
  readonly stateWrites: readonly Write[];
  readonly status: WorkflowRunStatus;
  /** The columns of the run's row as stored (JSON text). */
  readonly steps: string;
  /** The step a retry goes on from. */
  readonly nextStep: number;
  readonly error: string | null;
  readonly exit: string | null;
  /** When the failed run is tried again (its job released until then), or null. */
  readonly retry: { readonly at: number; readonly error: string } | null;
  /** The wait the run begins, or null. Without a retry or a wait, the run is over. */
  readonly wait: RunWaitEnd | null;
  /** The run's waits before this attempt: a wait it begins is the next. */
  readonly waits: number;
}

/** Commits `record`; what it stored, for the caller to publish (core/events/topics.ts `commitWakeUps`). */
export async function commitRun(
  store: Store,
  record: RunRecord,
): Promise<Committed & { readonly othersTold: boolean }> {
  const { workflow, retry, wait } = record;
  const over = !retry && !wait;
  return store.sharedTransaction(async (tx) => {
    const writes: Write[] = [];
    let committed: Committed = { events: 0, logLines: 0, deliveries: 0, webhooks: [], runs: 0 };
    let excess = 0;
    if (record.events.length > 0) {
      const rows = await (store.capabilities.skipLocked ? readWorkflowLocked : readWorkflow).execute(
        store,
        { id: workflow.id },
        { in: tx },
      );
      const emitter = rows[0];
      // A workflow deleted while it ran keeps nothing of what it emitted.
      if (emitter) {
        const now = Date.now();
        const planned = planAppend(
          workflow,
          { ms: Number(emitter.last_event_ms), seq: emitter.last_event_seq },
          record.events,
          now,
        );
        const fannedOut = planFanOut(store.jobs, workflow, planned.events, listenersOf(rows));
        const kept = retention(emitter.event_count + planned.events.length, emitter.max_events);
        excess = kept.excess;
        writes.push(
          ...planned.writes,
          ...fannedOut.writes,
          preparedWrite(updateWorkflowEvents, {
            id: workflow.id,
            last_event_ms: planned.last.ms,
            last_event_seq: planned.last.seq,
            event_count: kept.kept,
          }),
        );
        const { deliveries, webhooks, runs } = fannedOut;
        committed = { events: planned.events.length, logLines: 0, deliveries, webhooks, runs };
      }
    }
    writes.push(
      ...record.stateWrites,
      preparedWrite(updateRun, {
        id: record.runId,
        holder: record.lease.leaseToken,
        next_step: record.nextStep,
        status: retry ? "queued" : record.status,
        steps: record.steps,
        error: record.error,
        exit: record.exit,
        finished_at: over ? Date.now() : null,
        resume_at: wait ? wait.at : null,
        // A retry is a wait too: its step's $attempt URLs end it.
        wait_seq: wait || retry ? record.waits + 1 : record.waits,
        job_id: wait || retry ? record.lease.id : null,
      }),
      wait
        ? store.jobs.rescheduleWrite(record.lease, { runAt: wait.at, payload: { runId: record.runId } })
        : store.jobs.endWrite(record.lease, retry ? { error: retry.error, retryAt: retry.at } : undefined),
    );
    const notice = store.notifier.noticeToOthers(
      commitWakeUps(workflow.id, committed).map((wakeUp) => wakeUp.topic),
    );
    // A run that is over trims the workflow's old runs last; a retried or waiting one, its events at most.
    const trims = excess > 0 || over;
    await writeIn(tx, store.capabilities, writes, { notice, last: !trims });
    if (excess > 0) await trimOldest(tx, store, "events", workflow.id, excess);
    if (over) await trimRuns.execute(store, { workflow_id: workflow.id }, { in: tx, last: true });
    return { ...committed, othersTold: notice !== undefined };
  });
}

/** The workflow's event state and what listens to it (a row per subscription). */
function workflowWithListeners(creator: QueryCreator<Database>, id: string) {
  return emitterWithListeners(creator, "workflows")
    .where("emitter.id", "=", id)
    .select(["emitter.last_event_ms", "emitter.last_event_seq", "emitter.event_count", "emitter.max_events"]);
}

type WorkflowRow = Awaited<ReturnType<ReturnType<typeof workflowWithListeners>["executeTakeFirstOrThrow"]>>;

/** The workflow's row and listeners (SQLite: its one writer needs no row lock). */
const readWorkflow = prepared<{ id: string }, WorkflowRow>(
  (creator, values) => workflowWithListeners(creator, values.id),
  { reusePlan: true },
);

/** The same, the workflow's row locked until the commit (`FOR UPDATE OF emitter`: PostgreSQL). */
const readWorkflowLocked = prepared<{ id: string }, WorkflowRow>(
  (creator, values) => workflowWithListeners(creator, values.id).forUpdate(["emitter"]),
  { reusePlan: true },
);

const updateWorkflowEvents = prepared(
  (creator, values: { id: string; last_event_ms: number; last_event_seq: number; event_count: number }) => {
    const { id, ...state } = values;
    return creator.updateTable("workflows").set(state).where("id", "=", id);
  },
  { reusePlan: true },
);

/**
 * The run's row at its end, queued again for a retry, or waiting (no `finished_at`); only by the
 * attempt that holds it, as the job's end is.
 */
const updateRun = prepared(
  (
    creator,
    values: {
      id: string;
      holder: string;
      next_step: number;
      status: WorkflowRunStatus;
      steps: string;
      error: string | null;
      exit: string | null;
      finished_at: number | null;
      resume_at: number | null;
      wait_seq: number;
      job_id: string | null;
    },
  ) => {
    const { id, holder, ...columns } = values;
    return creator
      .updateTable("workflow_runs")
      .set(columns)
      .where("id", "=", id)
      .where("holder", "=", holder);
  },
  { reusePlan: true },
);

/**
 * Removes the workflow's finished runs older than its newest MAX_RUNS_KEPT finished ones, in one
 * statement, reading them from `workflow_runs_finished` (migration 0022). A run queued or running
 * is never removed, however many wait behind it.
 */
const trimRuns = prepared((creator, values: { workflow_id: string }) =>
  creator
    .deleteFrom("workflow_runs")
    .where("workflow_id", "=", values.workflow_id)
    .where("finished_at", "is not", null)
    .where("id", "<=", (eb) =>
      eb
        .selectFrom("workflow_runs")
        .select("id")
        .where("workflow_id", "=", values.workflow_id)
        .where("finished_at", "is not", null)
        .orderBy("id", "desc")
        .limit(1)
        .offset(MAX_RUNS_KEPT),
    ),
);

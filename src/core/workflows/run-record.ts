/**
 * What a run records, and how the API shows it: the trigger event, per step its status,
 * duration, return value, exports, summary, logs and error with stack, and the run's history
 * (its attempts, waits, resumes, retries and cancellation).
 */
// Kysely here, not in the store: only the row type of a run, read by the run path.
import type { Selectable } from "kysely";
import type { LogLine, QueuedSend } from "../../runtime/sandbox/sandbox.js";
import type { WorkflowRunStatus, WorkflowRunsTable } from "../../store/schema.js";
import type { SendReport } from "../actions/action-sends.js";

export type StepStatus = "success" | "error" | "exited";

export interface StepRecord {
  readonly name: string;
  readonly status: StepStatus;
  readonly started_at_ms: number;
  readonly duration_ms: number;
  readonly return_value: unknown;
  readonly exports: Readonly<Record<string, unknown>>;
  readonly summary: string | null;
  readonly logs: readonly LogLine[];
  readonly error: { readonly reason: string; readonly message: string; readonly stack: string | null } | null;
  readonly flow_exit: { readonly reason: string | null } | null;
}

export interface RunError {
  readonly step: string;
  readonly reason: string;
  readonly message: string;
  readonly stack: string | null;
}

export interface RunExit {
  readonly step: string;
  readonly reason: string | null;
}

/** Something that happened to a run, with when and why (the API's `history`). */
export interface RunHistoryEntry {
  readonly at_ms: number;
  readonly event: "attempt" | "paused" | "suspended" | "rerun" | "resumed" | "retry" | "cancelled";
  /** The step it happened at, if any. */
  readonly step?: string;
  /** Why: what resumed or cancelled it, which attempt started. */
  readonly cause?: string;
  /** A wait's or retry's end: when the run goes on, or (suspended) is cancelled. */
  readonly until_ms?: number;
}

/**
 * A step that called `$.flow.rerun`: how many times it has run, and what its next run gets as
 * `$.context.run` (`context`, and the request to its resume URL as `callback_request`).
 */
export interface RerunState {
  readonly index: number;
  readonly runs: number;
  readonly max_retries: number;
  readonly context?: unknown;
  readonly callback_request?: unknown;
}

/** What a waiting run waits for: `paused` or `suspended`, or `queued` for a failed step's retry. */
export interface RunWait {
  readonly kind: "delay" | "suspend" | "rerun" | "retry";
  /** The step that called `$.flow.*`. */
  readonly step: string;
  readonly until_ms: number;
}

export interface RunRecord {
  readonly id: string;
  readonly workflowId: string;
  readonly accountId: string;
  readonly status: WorkflowRunStatus;
  readonly trigger: { readonly event: unknown; readonly context: Record<string, unknown> };
  readonly steps: readonly StepRecord[];
  readonly sends: readonly SendReport[];
  readonly error: RunError | null;
  readonly exit: RunExit | null;
  readonly attempts: number;
  readonly history: readonly RunHistoryEntry[];
  /** Set while the run is paused or suspended. */
  readonly wait: RunWait | null;
  readonly replayOf: string | null;
  readonly createdAt: number;
  readonly startedAt: number | null;
  readonly finishedAt: number | null;
}

/**
 * The steps column holds the step records and the sends' outcomes; while the run goes on, the
 * sends of its committed steps wait in `pending` (a run sends when it ends or waits). `history`
 * and `wait` as the API shows them.
 */
interface StoredSteps {
  readonly steps: readonly StepRecord[];
  readonly sends: readonly SendReport[];
  readonly pending?: readonly QueuedSend[];
  readonly history?: readonly RunHistoryEntry[];
  readonly wait?: RunWait;
  readonly rerun?: RerunState;
}

/** What the steps column holds (all but `steps` may be left out). */
export interface StepsColumn {
  readonly steps: readonly StepRecord[];
  readonly sends?: readonly SendReport[];
  readonly pending?: readonly QueuedSend[];
  readonly history?: readonly RunHistoryEntry[];
  readonly wait?: RunWait | null;
  readonly rerun?: RerunState | null;
}

export function storeSteps(column: StepsColumn): string {
  const { steps, sends = [], pending = [], history = [], wait = null, rerun = null } = column;
  return JSON.stringify({
    steps,
    sends,
    ...(pending.length > 0 ? { pending } : {}),
    ...(history.length > 0 ? { history } : {}),
    ...(wait ? { wait } : {}),
    ...(rerun ? { rerun } : {}),
  } satisfies StoredSteps);
}

/**
 * Where an attempt goes on from: the steps whose outcome committed, their sends not made yet,
 * the sends made already (at a wait), and the history so far.
 */
export interface Progress {
  readonly steps: readonly StepRecord[];
  readonly pending: readonly QueuedSend[];
  readonly sent: readonly SendReport[];
  readonly history: readonly RunHistoryEntry[];
  /** The wait the run went on from, when its time ended it (a resume by request clears it). */
  readonly wait: RunWait | null;
  /** The step that runs again (`$.flow.rerun`), when the run goes on from it. */
  readonly rerun: RerunState | null;
}

export function progressOf(row: Selectable<WorkflowRunsTable>): Progress {
  const stored = storedSteps(row.steps);
  return {
    steps: row.next_step === 0 ? [] : stored.steps.slice(0, row.next_step),
    pending: row.next_step === 0 ? [] : (stored.pending ?? []),
    // A retried run's record lists its sends as not made yet: they are still pending.
    sent: stored.sends.filter((report) => report.outcome.ok || report.outcome.skipped !== true),
    history: stored.history ?? [],
    wait: stored.wait ?? null,
    rerun: stored.rerun && stored.rerun.index === row.next_step ? stored.rerun : null,
  };
}

/** The steps column as stored (`[]` before the first checkpoint). */
export function storedSteps(column: string): StoredSteps {
  const stored = JSON.parse(column) as StoredSteps | [];
  return Array.isArray(stored) ? { steps: [], sends: [] } : stored;
}

/** Whether a run in `status` still waits as `wait` says (a retry waits while the run is queued). */
export function waitsStill(status: WorkflowRunStatus, wait: RunWait): boolean {
  return wait.kind === "retry" ? status === "queued" : status === "paused" || status === "suspended";
}

export function toRunRecord(row: Selectable<WorkflowRunsTable>): RunRecord {
  const stored = storedSteps(row.steps);
  return {
    id: row.id,
    workflowId: row.workflow_id,
    accountId: row.account_id,
    status: row.status,
    trigger: JSON.parse(row.trigger),
    steps: stored.steps,
    sends: stored.sends,
    error: row.error === null ? null : JSON.parse(row.error),
    exit: row.exit === null ? null : JSON.parse(row.exit),
    attempts: row.attempts,
    history: stored.history ?? [],
    wait: stored.wait && waitsStill(row.status, stored.wait) ? stored.wait : null,
    replayOf: row.replay_of,
    createdAt: Number(row.created_at),
    startedAt: row.started_at === null ? null : Number(row.started_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  };
}

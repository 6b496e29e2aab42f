/**
 * What a run records, and how the API shows it: the trigger event, and per step its status,
 * duration, return value, exports, summary, logs and error with stack.
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
  readonly replayOf: string | null;
  readonly createdAt: number;
  readonly startedAt: number | null;
  readonly finishedAt: number | null;
}

/**
 * The steps column holds the step records and the sends' outcomes; while the run goes on, the
 * sends of its committed steps wait in `pending` (a run sends only when it ends).
 */
interface StoredSteps {
  readonly steps: readonly StepRecord[];
  readonly sends: readonly SendReport[];
  readonly pending?: readonly QueuedSend[];
}

export function storeSteps(
  steps: readonly StepRecord[],
  sends: readonly SendReport[],
  pending: readonly QueuedSend[] = [],
): string {
  return JSON.stringify(
    (pending.length > 0 ? { steps, sends, pending } : { steps, sends }) satisfies StoredSteps,
  );
}

/** Where an attempt goes on from: the steps whose outcome committed, and their sends not made yet. */
export interface Progress {
  readonly steps: readonly StepRecord[];
  readonly pending: readonly QueuedSend[];
}

export function progressOf(row: Selectable<WorkflowRunsTable>): Progress {
  if (row.next_step === 0) return { steps: [], pending: [] };
  const stored = JSON.parse(row.steps) as StoredSteps | [];
  if (Array.isArray(stored)) return { steps: [], pending: [] };
  return { steps: stored.steps.slice(0, row.next_step), pending: stored.pending ?? [] };
}

export function toRunRecord(row: Selectable<WorkflowRunsTable>): RunRecord {
  const stored = JSON.parse(row.steps) as StoredSteps | [];
  return {
    id: row.id,
    workflowId: row.workflow_id,
    accountId: row.account_id,
    status: row.status,
    trigger: JSON.parse(row.trigger),
    steps: Array.isArray(stored) ? [] : stored.steps,
    sends: Array.isArray(stored) ? [] : stored.sends,
    error: row.error === null ? null : JSON.parse(row.error),
    exit: row.exit === null ? null : JSON.parse(row.exit),
    attempts: row.attempts,
    replayOf: row.replay_of,
    createdAt: Number(row.created_at),
    startedAt: row.started_at === null ? null : Number(row.started_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  };
}

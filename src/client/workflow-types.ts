/** Workflows and their runs as they appear on the wire (`/v1/workflows`, `/v1/workflow_runs`). */
import type { ActionSendReport } from "./types.js";

/** `trigger` in a workflow document: what starts a run; absent or null for manual runs only. */
export type WorkflowTriggerParams =
  | { http: { customResponse?: boolean } }
  | { timer: { intervalSeconds: number } | { cron: string; timezone?: string } }
  | { source: string; event_name?: string }
  | WorkflowSourceTriggerParams;

/** A source component deployed for the workflow: one of uses, code, key or component_id. */
export interface WorkflowSourceTriggerParams {
  /** A published key or an `sc_` id (not a file path: the CLI bundles files into `code`). */
  uses?: string;
  code?: string;
  /** The file `code` came from, for the server's messages (`.ts` for TypeScript to compile). */
  filename?: string;
  key?: string;
  component_id?: string;
  props?: Record<string, unknown>;
}

/** One step of a workflow document: exactly one of code, key, component_id or uses. */
export interface WorkflowStepParams {
  name: string;
  /** An action's source code. */
  code?: string;
  /** The file `code` came from, for the server's messages (`.ts` for TypeScript to compile). */
  filename?: string;
  /** A published key: `key` (the latest version) or `key@version`. */
  key?: string;
  component_id?: string;
  /** A published key or an `sc_` id. */
  uses?: string;
  /** Prop values; strings may hold `{{ expression }}`s evaluated against `steps`. */
  props?: Record<string, unknown>;
  timeout_seconds?: number;
}

/** The body of `POST /v1/workflows` and `PUT /v1/workflows/{id}`. */
export interface WorkflowParams {
  name: string;
  trigger?: WorkflowTriggerParams | null;
  /** Runs at the same time at most; default 1. */
  concurrency?: number;
  /** Attempts after a failed one; default 0. */
  retries?: number;
  /** Per step; default 30. */
  timeout_seconds?: number;
  active?: boolean;
  steps: WorkflowStepParams[];
}

export type WorkflowTrigger =
  | { type: "http"; custom_response: boolean }
  | { type: "timer"; interval_seconds?: number; cron?: string; timezone?: string; source_id: string }
  | { type: "source"; source_id: string; event_name: string | null }
  | { type: "uses"; source_id: string; component_id: string }
  | { type: "none" };

export interface WorkflowStep {
  name: string;
  component_id: string;
  component_key: string | null;
  component_version: string | null;
  props: Record<string, unknown>;
  /** Only when the step sets its own. */
  timeout_seconds?: number;
}

export interface Workflow {
  id: string;
  owner_id: string;
  name: string;
  active: boolean;
  trigger: WorkflowTrigger;
  /** `{base}/e/<id>` for an HTTP-triggered workflow; null otherwise. */
  endpoint_url: string | null;
  concurrency: number;
  retries: number;
  timeout_seconds: number;
  steps: WorkflowStep[];
  created_at: number;
  updated_at: number;
}

export type WorkflowRunStatus = "queued" | "running" | "success" | "error" | "exited";

/** A step that ran; the steps after a failed or exiting one do not run and are not listed. */
export interface WorkflowRunStep {
  name: string;
  status: "success" | "error" | "exited";
  started_at_ms: number;
  duration_ms: number;
  return_value: unknown;
  exports: Record<string, unknown>;
  summary: string | null;
  logs: { ts: number; level: string; message: string }[];
  /** `reason`: error, timeout, crash, out_of_memory, exit, load_error, expression… */
  error: { reason: string; message: string; stack: string | null } | null;
  flow_exit: { reason: string | null } | null;
}

export interface WorkflowRun {
  id: string;
  workflow_id: string;
  status: WorkflowRunStatus;
  trigger: { event: unknown; context: unknown };
  steps: WorkflowRunStep[];
  /** What the run's `$.send.*` calls became, as for a single action run. */
  sends: ActionSendReport[];
  error: { step: string; reason: string; message: string; stack: string | null } | null;
  exit: { step: string; reason: string | null } | null;
  attempts: number;
  /** The run this one replays, if it is a replay. */
  replay_of: string | null;
  created_at_ms: number;
  started_at_ms: number | null;
  finished_at_ms: number | null;
  duration_ms: number | null;
}

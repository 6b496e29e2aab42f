/**
 * Workflows and their runs as they appear on the wire (`/v1/workflows`, `/v1/workflow_runs`), and
 * the document a workflow is deployed from: names for the generated types (./openapi.ts).
 */
import type { BodyOf, DataOf, QueryOf } from "./wire.js";

/** The body of `POST /v1/workflows` and `PUT /v1/workflows/{id}`: the workflow document. */
export type WorkflowParams = BodyOf<"createWorkflow">;
/** One step of a workflow document: exactly one of code, key, component_id or uses. */
export type WorkflowStepParams = WorkflowParams["steps"][number];
/** `trigger` in a workflow document: what starts a run; absent or null for manual runs only. */
export type WorkflowTriggerParams = NonNullable<WorkflowParams["trigger"]>;
/** A source component deployed for the workflow: one of uses, code, key or component_id. */
export type WorkflowSourceTriggerParams = Exclude<
  WorkflowTriggerParams,
  { http: unknown } | { timer: unknown } | { source: unknown }
>;

export type Workflow = DataOf<"getWorkflow">;
/** What starts a run; `type` says which kind. */
export type WorkflowTrigger = Workflow["trigger"];
export type WorkflowStep = Workflow["steps"][number];

export type WorkflowRun = DataOf<"getWorkflowRun">;
export type WorkflowRunStatus = WorkflowRun["status"];
/** A step that ran; the steps after a failed or exiting one do not run and are not listed. */
export type WorkflowRunStep = WorkflowRun["steps"][number];

/** `GET /v1/workflows/{id}/runs`: a page, and `status` (one, or a comma-separated list). */
export type WorkflowRunsQuery = QueryOf<"listWorkflowRuns">;
/** Where a replay starts: `from_step` (a step's name) or `from_failed_step`; the first step without. */
export type WorkflowReplayStart = NonNullable<BodyOf<"replayWorkflowRun">>;
/** `POST /v1/workflows/{id}/replays`: which runs, from where, how many at once, or a count only. */
export type WorkflowReplayParams = BodyOf<"replayWorkflowRuns">;
/** A bulk replay and its progress. */
export type WorkflowReplay = DataOf<"getWorkflowReplay">;
/** What `dry_run` answers: how many runs it would replay. */
export type WorkflowReplayCount = DataOf<"replayWorkflowRuns">;

/**
 * Replays: a new run of the workflow as it is deployed now, with a past run's trigger event and
 * `replay_of` naming it. A replay from a step reuses the original's outcomes (return value,
 * exports, summary, logs) of the steps before that step, which do not run again, and runs from it
 * on, as a retry goes on from its failed step: its row starts with those records and `next_step`
 * at that step.
 */
import { ConflictError, InvalidInputError } from "../errors.js";
import type { NewRun } from "./run-queue.js";
import { type RunRecord, storeSteps } from "./run-record.js";
import type { Workflow } from "./workflows.js";

/** Where a replay starts: the first step (undefined), a step by name, or the original's failed step. */
export type ReplayStart = { readonly fromStep: string } | { readonly fromFailedStep: true } | undefined;

/** The run that replays `original` from `start`; a ConflictError or InvalidInputError says why it cannot. */
export function replayOf(original: RunRecord, workflow: Workflow, start: ReplayStart): NewRun {
  const resume = start === undefined ? undefined : resumeAt(original, workflow, start);
  const { id: _id, ts: _ts, ...origin } = original.trigger.context;
  return {
    workflowId: workflow.id,
    accountId: workflow.accountId,
    trigger: { event: original.trigger.event, context: { ...origin, replay_of: original.id } },
    replayOf: original.id,
    ...(resume ? { resume } : {}),
  };
}

/**
 * The original's records of the steps before the start, which must be the workflow's first steps
 * by name, in order, each with a successful outcome. Undefined when it starts at the first step.
 */
function resumeAt(
  original: RunRecord,
  workflow: Workflow,
  start: NonNullable<ReplayStart>,
): NewRun["resume"] {
  const name = "fromStep" in start ? start.fromStep : failedStepOf(original);
  const names = workflow.document.steps.map((step) => step.name);
  const index = names.indexOf(name);
  if (index === -1) {
    if ("fromStep" in start) {
      throw new InvalidInputError(
        `Workflow ${workflow.name} has no step '${name}'; its steps are ${names.join(", ")}`,
        "unknown_step",
      );
    }
    throw stepsChanged(original, `its failed step '${name}' is no longer one of the workflow's steps`);
  }
  for (const [at, expected] of names.slice(0, index).entries()) {
    const record = original.steps[at];
    if (record !== undefined && record.name !== expected) {
      throw stepsChanged(original, `step ${at + 1} is now '${expected}', the run had '${record.name}'`);
    }
    if (record?.status !== "success") {
      throw new ConflictError(
        "step_not_reached",
        `Run ${original.id} has no successful outcome of step '${expected}' to reuse; replay it from '${expected}' or an earlier step`,
      );
    }
  }
  if (index === 0) return undefined;
  return { steps: storeSteps({ steps: original.steps.slice(0, index) }), nextStep: index };
}

function failedStepOf(original: RunRecord): string {
  if (original.status !== "error" || original.error === null) {
    throw new ConflictError(
      "run_not_failed",
      `Run ${original.id} did not fail (it is ${original.status}): replay it from a step with from_step, or from the start`,
    );
  }
  return original.error.step;
}

function stepsChanged(original: RunRecord, what: string): ConflictError {
  return new ConflictError(
    "workflow_changed",
    `The workflow's steps changed since run ${original.id} (${what}): its outcomes cannot be reused; replay it from the start`,
  );
}

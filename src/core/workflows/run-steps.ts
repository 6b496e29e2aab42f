/**
 * The steps of one attempt of a workflow run, from where the run stands: each with its props
 * evaluated in the sandbox against the steps before it, and its outcome committed before the next
 * starts (a checkpoint). They stop at a step that fails, exits (`$.flow.exit`) or waits
 * (`$.flow.delay`, `suspend`, `rerun`); the attempt commits what they did (run-executor.ts).
 */
// Kysely here, not in the store: a plain prepared update of the run's own row.
import type { FlowWait, HttpResponse, InvocationResult, QueuedSend } from "../../runtime/sandbox/sandbox.js";
import { prepared } from "../../store/prepared.js";
import type { Store } from "../../store/store.js";
import {
  preparedReturning,
  type Write,
  writeIn,
  writeTogetherReturning,
} from "../../store/write-together.js";
import { actionStateWrites, keepsState, readActionState } from "../actions/action-state.js";
import { invokeAction } from "../actions/actions.js";
import { configureProps } from "../components/props.js";
import type { SavedComponent } from "../components/saved-components.js";
import type { CoreContext } from "../context.js";
import { SluiceError } from "../errors.js";
import { unsealProps } from "../sources/source-props.js";
import { fillHoles } from "./expressions.js";
import {
  type Progress,
  type RerunState,
  type RunError,
  type RunExit,
  type RunHistoryEntry,
  type StepRecord,
  storeSteps,
} from "./run-record.js";
import { flowUrls } from "./run-waits.js";
import type { StoredStep } from "./steps.js";
import { type RunnableWorkflow, stepComponent } from "./workflow-cache.js";
import { expressionsRunnerId, slotRunnerId, type Workflow } from "./workflows.js";

const EXPRESSIONS_TIMEOUT_MS = 10_000;
/** A step's failure that a retry would only repeat. */
export const RESPOND_AFTER_WAIT = "respond_after_wait";

export interface Attempt {
  readonly workflow: RunnableWorkflow;
  readonly runId: string;
  /** The lease token the run's row must still name for this attempt to write it. */
  readonly holder: string;
  readonly trigger: unknown;
  readonly slot: number;
  /** What its steps get as `$.context`. */
  readonly runContext: Readonly<Record<string, unknown>>;
  /** The run's waits so far: a step's resume and cancel URLs name the next. */
  readonly waits: number;
  /** The run's history, with this attempt's start (or resume) last. */
  readonly history: readonly RunHistoryEntry[];
}

export interface StepsRun {
  readonly steps: readonly StepRecord[];
  readonly sends: readonly QueuedSend[];
  readonly error: RunError | null;
  readonly exit: RunExit | null;
  /** The index of the step that failed, if one did. */
  readonly failedAt: number | null;
  /** The step that asked the run to wait, and how; a rerun's state for the step's next run. */
  readonly wait: {
    readonly index: number;
    readonly flow: FlowWait;
    readonly rerun: RerunState | null;
  } | null;
  /** The `$.service.db` writes not yet committed with a checkpoint. */
  readonly stateWrites: readonly Write[];
}

/**
 * The workflow's steps from where the run stands: each step's outcome is committed before the
 * next one starts (the last one's with the run's record). Null when the run was taken over.
 */
export async function runSteps(
  context: CoreContext,
  attempt: Attempt,
  progress: Progress,
  onRespond: (response: HttpResponse) => void,
): Promise<StepsRun | null> {
  const { workflow } = attempt;
  const all = workflow.document.steps;
  const steps: StepRecord[] = [...progress.steps];
  const sends: QueuedSend[] = [...progress.pending];
  const view: Record<string, unknown> = { trigger: attempt.trigger };
  for (const record of progress.steps) view[record.name] = stepView(record.exports, record.return_value);
  let stateWrites: Write[] = [];
  const ran = { steps, sends, error: null, exit: null, failedAt: null, wait: null };
  const changed = progress.steps.findIndex((record, index) => all[index]?.name !== record.name);
  if (changed !== -1) {
    // No step of this attempt failed (failedAt null), so it is not retried: every retry would
    // meet the same steps. The record keeps the steps that still match.
    const error = {
      step: progress.steps[changed]?.name ?? "",
      reason: "workflow_changed",
      message: "the workflow's steps changed while the run waited; replay the run to run the new steps",
      stack: null,
    };
    return { ...ran, steps: steps.slice(0, changed), error, stateWrites };
  }

  for (let index = progress.steps.length; index < all.length; index++) {
    const step = all[index] as StoredStep;
    const began = Date.now();
    const rerun = progress.rerun?.index === index ? progress.rerun : null;
    const result = await runStep(context, attempt, step, index, view, onRespond, rerun);
    const record = afterWait(attempt, stepRecord(step.name, began, result), result);
    steps.push(record);
    stateWrites.push(...actionStateWrites({ workflowId: workflow.id, step: step.name }, result.dbWrites));
    if (record.error) {
      return { ...ran, error: { step: step.name, ...record.error }, failedAt: index, stateWrites };
    }
    view[step.name] = stepView(result.exports ?? {}, result.returnValue ?? null);
    sends.push(...(result.sends ?? []));
    if (result.flowExit) {
      return { ...ran, exit: { step: step.name, reason: result.flowExit.reason }, stateWrites };
    }
    const wait = result.flowWait && waitOf(index, result.flowWait, rerun);
    if (wait) return { ...ran, wait, stateWrites };
    if (index < all.length - 1) {
      const kept = await saveCheckpoint(context.store, attempt, progress, steps, sends, stateWrites);
      if (!kept) return null;
      stateWrites = [];
    }
  }
  return { ...ran, stateWrites };
}

/**
 * The wait a step asked for. A step that asks to run again more than its `maxRetries` times
 * goes on to the next step instead, as on Pipedream.
 */
function waitOf(index: number, flow: FlowWait, rerun: RerunState | null): StepsRun["wait"] {
  if (flow.kind !== "rerun") return { index, flow, rerun: null };
  const runs = (rerun?.runs ?? 0) + 1;
  const maxRetries = flow.maxRetries ?? 10;
  if (runs > maxRetries) return null;
  return {
    index,
    flow,
    rerun: {
      index,
      runs,
      max_retries: maxRetries,
      ...(flow.context === undefined ? {} : { context: flow.context }),
    },
  };
}

/**
 * A step of a run that waited may not `$.respond()`: the HTTP request that started the run was
 * answered when it began to wait, as on Pipedream.
 */
function afterWait(attempt: Attempt, record: StepRecord, result: InvocationResult): StepRecord {
  if (attempt.waits === 0 || record.error || !result.response) return record;
  const message =
    "$.respond() is not allowed after the run waited ($.flow.delay, suspend or rerun): the HTTP request that started it was answered when it began to wait; respond before the step that waits";
  return { ...record, status: "error", error: { reason: RESPOND_AFTER_WAIT, message, stack: null } };
}

/** What later steps see of a step: `steps.<name>.<export>` and `steps.<name>.$return_value`. */
function stepView(exports: Readonly<Record<string, unknown>>, returnValue: unknown): Record<string, unknown> {
  return { ...exports, $return_value: returnValue };
}

/**
 * Commits the steps so far (and their `$.service.db` writes) as the run's checkpoint, while this
 * attempt still holds the run. False when another attempt took it over: this one stops.
 */
async function saveCheckpoint(
  store: Store,
  attempt: Attempt,
  progress: Progress,
  steps: readonly StepRecord[],
  pending: readonly QueuedSend[],
  stateWrites: readonly Write[],
): Promise<boolean> {
  const values = {
    id: attempt.runId,
    holder: attempt.holder,
    steps: storeSteps({ steps, sends: progress.sent, pending, history: attempt.history }),
    next_step: steps.length,
  };
  if (stateWrites.length === 0) {
    return (await writeTogetherReturning(store, [], preparedReturning(checkpoint, values))).length > 0;
  }
  return store.sharedTransaction(async (tx) => {
    // The run's row first: a lost hold writes nothing else.
    const held = await checkpoint.execute(store, values, { in: tx });
    if (held.length === 0) return false;
    await writeIn(tx, store.capabilities, stateWrites, { last: true });
    return true;
  });
}

/**
 * The run's steps so far, written only while `holder` still holds the run; the wait it went on
 * from, if any, is over (the next attempt to start is a new one).
 */
const checkpoint = prepared(
  (creator, values: { id: string; holder: string; steps: string; next_step: number }) =>
    creator
      .updateTable("workflow_runs")
      .set({ steps: values.steps, next_step: values.next_step, resume_at: null })
      .where("id", "=", values.id)
      .where("holder", "=", values.holder)
      .returning("id"),
  { reusePlan: true },
);

/** One step: its props (expressions evaluated, then checked against the component), then its run. */
async function runStep(
  context: CoreContext,
  attempt: Attempt,
  step: StoredStep,
  index: number,
  view: Readonly<Record<string, unknown>>,
  onRespond: (response: HttpResponse) => void,
  rerun: RerunState | null,
): Promise<InvocationResult> {
  const { workflow, slot } = attempt;
  const began = Date.now();
  let component: SavedComponent;
  let values: Record<string, unknown>;
  try {
    component = await stepComponent(context, workflow, step.componentId);
    let props = unsealProps(step.props, context.secrets);
    if (step.holes.length > 0) {
      const evaluated = await evaluateHoles(context, workflow, index, view, slot);
      if (!evaluated.ok) return evaluated.result;
      props = fillHoles(props, step.holes, evaluated.values);
    }
    values = configureProps(component.definition, props);
  } catch (error) {
    if (!(error instanceof SluiceError)) throw error;
    return failed(`props: ${error.message}`, began);
  }
  const db = keepsState(component.definition)
    ? await readActionState(context.store, { workflowId: workflow.id, step: step.name })
    : undefined;
  return invokeAction(context, {
    context: rerun ? { ...attempt.runContext, run: rerunContext(rerun) } : attempt.runContext,
    flowUrls: flowUrls(context, attempt.runId, index, attempt.waits + 1),
    accountId: workflow.accountId,
    component,
    values,
    steps: view,
    timeoutMs: (step.timeoutSeconds ?? workflow.timeoutSeconds) * 1000,
    onRespond,
    ...(db ? { db } : {}),
    ...(slot === 0 ? {} : { runnerId: slotRunnerId(component.id, slot) }),
  });
}

/** `$.context.run` of a step that runs again: its run count, its context, the request that resumed it. */
function rerunContext(rerun: RerunState): Record<string, unknown> {
  return {
    runs: rerun.runs + 1,
    ...(rerun.context === undefined ? {} : { context: rerun.context }),
    ...(rerun.callback_request === undefined ? {} : { callback_request: rerun.callback_request }),
  };
}

async function evaluateHoles(
  context: CoreContext,
  workflow: Workflow,
  index: number,
  view: Readonly<Record<string, unknown>>,
  slot: number,
): Promise<{ ok: true; values: unknown[] } | { ok: false; result: InvocationResult }> {
  const bundle = workflow.expressionsBundle;
  if (bundle === null || workflow.expressionsHash === null) return { ok: true, values: [] };
  const result = await context.sandbox.invoke(
    {
      componentId: slotRunnerId(expressionsRunnerId(workflow.id), slot),
      bundleHash: workflow.expressionsHash,
      bundle,
    },
    {
      method: "run",
      props: { step: { kind: "value", value: index } },
      db: {},
      steps: view,
      timeoutMs: EXPRESSIONS_TIMEOUT_MS,
    },
  );
  if (!result.ok) {
    const message = `props: evaluating the expressions failed (${result.failure?.reason ?? "error"}): ${result.failure?.message ?? ""}`;
    return {
      ok: false,
      result: { ...result, failure: { reason: result.failure?.reason ?? "error", message } },
    };
  }
  return { ok: true, values: Array.isArray(result.returnValue) ? result.returnValue : [] };
}

function failed(message: string, began: number): InvocationResult {
  return {
    ok: false,
    failure: { reason: "error", message },
    emits: [],
    dbWrites: {},
    logs: [],
    durationMs: Date.now() - began,
  };
}

export function stepRecord(name: string, began: number, result: InvocationResult): StepRecord {
  return {
    name,
    status: !result.ok ? "error" : result.flowExit ? "exited" : "success",
    started_at_ms: began,
    duration_ms: Math.round(result.durationMs),
    return_value: result.returnValue ?? null,
    exports: result.exports ?? {},
    summary: result.summary ?? null,
    logs: result.logs,
    error: result.failure
      ? {
          reason: result.failure.reason,
          message: result.failure.message,
          stack: result.failure.stack ?? null,
        }
      : null,
    flow_exit: result.flowExit ?? null,
  };
}

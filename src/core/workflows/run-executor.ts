/**
 * One attempt of a workflow run, from its queued row to its record: the steps in order from where
 * the run stands, each with its props evaluated in the sandbox against the steps before it and its
 * outcome committed before the next starts (a checkpoint), then the run's sends, its emitted
 * events (and, for a failed run, its error on `$errors`) and its final record committed in one
 * transaction with the completion of its job (run-commit.ts). A step that throws fails the run
 * (a retry goes on from it); `$.flow.exit()` ends it after the step that called it.
 */
// Kysely here, not in the store: a plain prepared update of the run's own row.
import type { HttpResponse, InvocationResult, QueuedSend } from "../../runtime/sandbox/sandbox.js";
import type { Lease } from "../../store/jobs/contract.js";
import { prepared } from "../../store/prepared.js";
import type { WorkflowRunStatus } from "../../store/schema.js";
import type { Store } from "../../store/store.js";
import {
  preparedReturning,
  type Write,
  writeIn,
  writeTogetherReturning,
} from "../../store/write-together.js";
import type { SendReport } from "../actions/action-sends.js";
import { actionStateWrites, keepsState, readActionState } from "../actions/action-state.js";
import { invokeAction } from "../actions/actions.js";
import { configureProps } from "../components/props.js";
import type { SavedComponent } from "../components/saved-components.js";
import type { CoreContext } from "../context.js";
import { SluiceError } from "../errors.js";
import type { NewEvent } from "../events/emitter-events.js";
import { commitWakeUps } from "../events/topics.js";
import { unsealProps } from "../sources/source-props.js";
import { retryWhileDatabaseRecovers } from "../workers/database-retry.js";
import { fillHoles } from "./expressions.js";
import { commitRun } from "./run-commit.js";
import {
  type Progress,
  progressOf,
  type RunError,
  type RunExit,
  type RunRecord,
  type StepRecord,
  storeSteps,
  toRunRecord,
} from "./run-record.js";
import type { StoredStep } from "./steps.js";
import { type RunnableWorkflow, runnableWorkflow, stepComponent } from "./workflow-cache.js";
import { expressionsRunnerId, slotRunnerId, type Workflow } from "./workflows.js";

/** Failures retried only when the workflow asks (`retry_timeouts`), as Pipedream's auto-retry. */
const OUT_OF_TIME: ReadonlySet<string> = new Set(["timeout", "out_of_memory"]);
/** The channel of failed runs' errors. */
export const ERRORS_CHANNEL = "$errors";
/** The channels of `$.send.sse` events: `$sse:<channel>`. */
export const SSE_CHANNEL_PREFIX = "$sse:";
const EXPRESSIONS_TIMEOUT_MS = 10_000;
/**
 * How long the record is retried while the database is away. It outlasts the run's lease
 * (LEASE_MS), so another claim may start the run again meanwhile: a run is at-least-once.
 */
const COMMIT_RETRY_MS = 35_000;

export interface RunHooks {
  /** Called as soon as a step calls `$.respond()`. */
  readonly onRespond?: (response: HttpResponse) => void;
}

export interface AttemptOutcome {
  readonly runId: string;
  readonly status: WorkflowRunStatus;
  /** The last response a step gave with `$.respond()`, if any. */
  readonly response: HttpResponse | null;
  readonly error: RunError | null;
  /** Set when the run failed and will be tried again then. */
  readonly retryAt: number | null;
}

export interface AttemptOptions {
  /** Seconds between attempts of a failed run (the last repeats). */
  readonly retryScheduleSeconds: readonly number[];
  /** Which of the workflow's concurrent slots runs this attempt: each has runners of its own. */
  readonly slot?: number;
}

/** Runs one attempt of the run the claimed job names. Null when the run or workflow is gone, or the run was taken over. */
export async function runAttempt(
  context: CoreContext,
  lease: Lease,
  runId: string,
  options: AttemptOptions,
  hooks: RunHooks = {},
): Promise<AttemptOutcome | null> {
  const { store } = context;
  // The run's row as this attempt starts it, in one statement: running, one more attempt, started
  // at its first attempt's start, held by this attempt's lease.
  const [row] = await writeTogetherReturning(
    store,
    [],
    preparedReturning(startAttempt, { id: runId, now: Date.now(), holder: lease.leaseToken }),
  );
  const workflow = row ? await runnableWorkflow(context, row.workflow_id) : null;
  if (!row || !workflow) {
    await store.jobs.complete(lease);
    return null;
  }
  const run = toRunRecord(row);
  let response: HttpResponse | null = null;
  const onRespond = (given: HttpResponse) => {
    response = given;
    hooks.onRespond?.(given);
  };
  const attempt: Attempt = {
    workflow,
    runId,
    holder: lease.leaseToken,
    trigger: run.trigger,
    slot: options.slot ?? 0,
    runContext: runContextOf(workflow, run),
  };
  const ran = await runSteps(context, attempt, progressOf(row), onRespond);
  if (ran === null) return null;
  const { sends, error, exit, failedAt, stateWrites } = ran;

  const status: WorkflowRunStatus = error ? "error" : exit ? "exited" : "success";
  const retryAt =
    failedAt !== null &&
    run.attempts <= workflow.retries &&
    (workflow.retryTimeouts || !OUT_OF_TIME.has(error?.reason ?? ""))
      ? Date.now() + retryDelayMs(options.retryScheduleSeconds, run.attempts)
      : null;
  const steps =
    retryAt === null
      ? ran.steps
      : ran.steps.map((record, index) =>
          index === failedAt ? retriedStep(record, run.attempts, workflow.retries, retryAt) : record,
        );
  // A retried run goes on from the failed step: the earlier steps' sends wait for its end.
  const reports: SendReport[] = error
    ? context.sender.skip(
        sends,
        retryAt === null ? "not sent: the run failed" : "not sent yet: the step is retried",
      )
    : await context.sender.perform(sends);
  const events: NewEvent[] = error
    ? retryAt === null
      ? [errorEvent(workflow, runId, run.trigger, error)]
      : []
    : sends.filter((send) => send.kind === "emit" || send.kind === "sse").map(emittedEvent);

  // The sends went out: the record is written even if the database is briefly away, rather than
  // the run being repeated when its lease expires.
  let committed: Awaited<ReturnType<typeof commitRun>> | undefined;
  await retryWhileDatabaseRecovers(
    async () => {
      committed = await commitRun(store, {
        workflow,
        runId,
        lease,
        events,
        stateWrites,
        status,
        steps: storeSteps(steps, reports, retryAt === null ? [] : sends),
        nextStep: retryAt === null ? steps.length : (failedAt ?? steps.length),
        error: error === null ? null : JSON.stringify(error),
        exit: exit === null ? null : JSON.stringify(exit),
        retry: retryAt === null ? null : { at: retryAt, error: `${error?.step}: ${error?.message}` },
      });
    },
    {
      until: Date.now() + COMMIT_RETRY_MS,
      keepTrying: () => true,
      onFirstFailure: () => {},
    },
  );
  if (committed) {
    for (const { topic, groups } of commitWakeUps(workflow.id, committed))
      store.notifier.publish(topic, groups, { othersTold: committed.othersTold });
  }
  return { runId, status, response, error, retryAt };
}

interface Attempt {
  readonly workflow: RunnableWorkflow;
  readonly runId: string;
  /** The lease token the run's row must still name for this attempt to write it. */
  readonly holder: string;
  readonly trigger: unknown;
  readonly slot: number;
  /** What its steps get as `$.context`. */
  readonly runContext: Readonly<Record<string, unknown>>;
}

/**
 * `$.context` as Pipedream's steps get it: the run's id, start and trace (a replay keeps its
 * original's), the workflow, and the step's run count (`run.runs`).
 */
function runContextOf(workflow: Workflow, run: RunRecord): Record<string, unknown> {
  const { context } = run.trigger;
  return {
    id: run.id,
    ts: context.ts ?? new Date(run.createdAt).toISOString(),
    workflow_id: workflow.id,
    workflow_name: workflow.name,
    owner_id: workflow.accountId,
    trace_id: context.trace_id ?? run.id,
    replay: run.replayOf !== null,
    attempt: run.attempts,
    run: { runs: 1 },
  };
}

interface StepsRun {
  readonly steps: readonly StepRecord[];
  readonly sends: readonly QueuedSend[];
  readonly error: RunError | null;
  readonly exit: RunExit | null;
  /** The index of the step that failed, if one did. */
  readonly failedAt: number | null;
  /** The `$.service.db` writes not yet committed with a checkpoint. */
  readonly stateWrites: readonly Write[];
}

/**
 * The workflow's steps from where the run stands: each step's outcome is committed before the
 * next one starts (the last one's with the run's record). Null when the run was taken over.
 */
async function runSteps(
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
    return { steps: steps.slice(0, changed), sends, error, exit: null, failedAt: null, stateWrites };
  }

  for (let index = progress.steps.length; index < all.length; index++) {
    const step = all[index] as StoredStep;
    const began = Date.now();
    const result = await runStep(context, attempt, step, index, view, onRespond);
    steps.push(stepRecord(step.name, began, result));
    stateWrites.push(...actionStateWrites({ workflowId: workflow.id, step: step.name }, result.dbWrites));
    if (!result.ok) {
      const error = {
        step: step.name,
        reason: result.failure?.reason ?? "error",
        message: result.failure?.message ?? "the step failed",
        stack: result.failure?.stack ?? null,
      };
      return { steps, sends, error, exit: null, failedAt: index, stateWrites };
    }
    view[step.name] = stepView(result.exports ?? {}, result.returnValue ?? null);
    sends.push(...(result.sends ?? []));
    if (result.flowExit) {
      const exit = { step: step.name, reason: result.flowExit.reason };
      return { steps, sends, error: null, exit, failedAt: null, stateWrites };
    }
    if (index < all.length - 1) {
      const kept = await saveCheckpoint(context.store, attempt, steps, sends, stateWrites);
      if (!kept) return null;
      stateWrites = [];
    }
  }
  return { steps, sends, error: null, exit: null, failedAt: null, stateWrites };
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
  steps: readonly StepRecord[],
  pending: readonly QueuedSend[],
  stateWrites: readonly Write[],
): Promise<boolean> {
  const values = {
    id: attempt.runId,
    holder: attempt.holder,
    steps: storeSteps(steps, [], pending),
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

/** The run's row as an attempt starts it: running, one more attempt, started at its first attempt's start. */
const startAttempt = prepared(
  (creator, values: { id: string; now: number; holder: string }) =>
    creator
      .updateTable("workflow_runs")
      .set({
        status: "running",
        attempts: (eb) => eb("attempts", "+", 1),
        started_at: (eb) => eb.fn.coalesce("started_at", eb.val(values.now)),
        holder: values.holder,
      })
      .where("id", "=", values.id)
      .returningAll(),
  { reusePlan: true },
);

/** The run's steps so far, written only while `holder` still holds the run. */
const checkpoint = prepared(
  (creator, values: { id: string; holder: string; steps: string; next_step: number }) =>
    creator
      .updateTable("workflow_runs")
      .set({ steps: values.steps, next_step: values.next_step })
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
    context: attempt.runContext,
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

function stepRecord(name: string, began: number, result: InvocationResult): StepRecord {
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

/**
 * `$.send.emit({ raw_event, name? })` is an event of the workflow; `$.send.sse({ channel, payload })`
 * one on the reserved channel `$sse:<channel>`, streamed at /sse/p/{id}/emits but delivered only to
 * webhooks subscribed to that channel by name.
 */
function emittedEvent(send: QueuedSend): NewEvent {
  const params = send.params as Record<string, unknown>;
  if (send.kind === "sse") {
    return {
      payload: params.payload ?? null,
      channel: `${SSE_CHANNEL_PREFIX}${String(params.channel)}`,
      eventKey: null,
      summary: null,
    };
  }
  const { raw_event: payload, name, summary, id } = params;
  return {
    payload: payload ?? null,
    channel: typeof name === "string" && name !== "" ? name : null,
    eventKey: id === undefined || id === null ? null : String(id),
    summary: typeof summary === "string" ? summary : null,
  };
}

function errorEvent(workflow: Workflow, runId: string, trigger: unknown, error: RunError): NewEvent {
  return {
    payload: {
      workflow_id: workflow.id,
      workflow_name: workflow.name,
      run_id: runId,
      step: error.step,
      error: { reason: error.reason, message: error.message, stack: error.stack },
      trigger,
    },
    channel: ERRORS_CHANNEL,
    eventKey: runId,
    summary: `${error.step}: ${error.message}`.slice(0, 500),
  };
}

/** The wait before attempt `attempt + 1`, give or take a tenth so that failed runs spread out. */
function retryDelayMs(schedule: readonly number[], attempt: number): number {
  const seconds = schedule[Math.min(attempt, schedule.length - 1)] ?? 60;
  return Math.max(0, Math.round(seconds * 1000 * (0.9 + Math.random() * 0.2)));
}

/**
 * The failed step of a run that will be retried, as Pipedream's auto-retry shows it: a summary
 * saying which try failed, and `$attempt` with the error and when the step is tried again.
 */
function retriedStep(record: StepRecord, attempt: number, retries: number, retryAt: number): StepRecord {
  const resumeTs = new Date(retryAt).toISOString();
  return {
    ...record,
    summary: `Try ${attempt} of ${retries + 1} failed; the step is tried again at ${resumeTs}`,
    exports: { ...record.exports, $attempt: { error: record.error, resume_ts: resumeTs } },
  };
}

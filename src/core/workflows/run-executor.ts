/**
 * One attempt of a workflow run, from its queued row to its record: the steps in order, each
 * with its props evaluated in the sandbox against the steps before it, then the run's sends, its
 * emitted events (and, for a failed run, its error on `$errors`) and its final record committed
 * in one transaction with the completion of its job (run-commit.ts). A step that throws fails the
 * run and the later steps do not run; `$.flow.exit()` ends it after the step that called it.
 */
// Kysely here, not in the store: a plain prepared update of the run's own row.
import type { HttpResponse, InvocationResult, QueuedSend } from "../../runtime/sandbox/sandbox.js";
import type { Lease } from "../../store/jobs/contract.js";
import { prepared } from "../../store/prepared.js";
import type { WorkflowRunStatus } from "../../store/schema.js";
import { preparedReturning, type Write, writeTogetherReturning } from "../../store/write-together.js";
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
import { type RunError, type RunExit, type StepRecord, storeSteps, toRunRecord } from "./run-record.js";
import type { StoredStep } from "./steps.js";
import { runnableWorkflow, stepComponent } from "./workflow-cache.js";
import { expressionsRunnerId, slotRunnerId, type Workflow } from "./workflows.js";

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

/** Runs one attempt of the run the claimed job names. Null when the run or workflow is gone. */
export async function runAttempt(
  context: CoreContext,
  lease: Lease,
  runId: string,
  options: AttemptOptions,
  hooks: RunHooks = {},
): Promise<AttemptOutcome | null> {
  const { store } = context;
  // The run's row as this attempt starts it, in one statement: running, one more attempt, started
  // at its first attempt's start.
  const [row] = await writeTogetherReturning(
    store,
    [],
    preparedReturning(startAttempt, { id: runId, now: Date.now() }),
  );
  const workflow = row ? await runnableWorkflow(context, row.workflow_id) : null;
  if (!row || !workflow) {
    await store.jobs.complete(lease);
    return null;
  }
  const run = toRunRecord(row);
  const { attempts } = run;

  const steps: StepRecord[] = [];
  const view: Record<string, unknown> = { trigger: run.trigger };
  const sends: QueuedSend[] = [];
  let response: HttpResponse | null = null;
  let error: RunError | null = null;
  let exit: RunExit | null = null;
  const onRespond = (given: HttpResponse) => {
    response = given;
    hooks.onRespond?.(given);
  };

  const stateWrites: Write[] = [];
  for (const [index, step] of workflow.document.steps.entries()) {
    const began = Date.now();
    const result = await runStep(context, workflow, step, index, view, onRespond, options.slot ?? 0);
    const record = stepRecord(step.name, began, result);
    steps.push(record);
    stateWrites.push(...actionStateWrites({ workflowId: workflow.id, step: step.name }, result.dbWrites));
    if (!result.ok) {
      error = {
        step: step.name,
        reason: result.failure?.reason ?? "error",
        message: result.failure?.message ?? "the step failed",
        stack: result.failure?.stack ?? null,
      };
      break;
    }
    view[step.name] = { ...(result.exports ?? {}), $return_value: result.returnValue ?? null };
    sends.push(...(result.sends ?? []));
    if (result.flowExit) {
      exit = { step: step.name, reason: result.flowExit.reason };
      break;
    }
  }

  const status: WorkflowRunStatus = error ? "error" : exit ? "exited" : "success";
  const retryAt =
    error && attempts <= workflow.retries
      ? Date.now() + retryDelayMs(options.retryScheduleSeconds, attempts)
      : null;
  const reports: SendReport[] = error
    ? context.sender.skip(sends, "not sent: the run failed")
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
        steps: storeSteps(steps, reports),
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

/** The run's row as an attempt starts it: running, one more attempt, started at its first attempt's start. */
const startAttempt = prepared(
  (creator, values: { id: string; now: number }) =>
    creator
      .updateTable("workflow_runs")
      .set({
        status: "running",
        attempts: (eb) => eb("attempts", "+", 1),
        started_at: (eb) => eb.fn.coalesce("started_at", eb.val(values.now)),
      })
      .where("id", "=", values.id)
      .returningAll(),
  { reusePlan: true },
);

/** One step: its props (expressions evaluated, then checked against the component), then its run. */
async function runStep(
  context: CoreContext,
  workflow: Workflow,
  step: StoredStep,
  index: number,
  view: Readonly<Record<string, unknown>>,
  onRespond: (response: HttpResponse) => void,
  slot: number,
): Promise<InvocationResult> {
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

function retryDelayMs(schedule: readonly number[], attempt: number): number {
  const seconds = schedule[Math.min(attempt, schedule.length - 1)] ?? 60;
  return Math.max(0, seconds * 1000);
}

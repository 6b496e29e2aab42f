/**
 * One attempt of a workflow run, from its queued row to its record: the steps from where the run
 * stands (run-steps.ts, each committed before the next starts), then the run's sends, its emitted
 * events (and, for a failed run, its error on `$errors`) and its record committed in one
 * transaction with its job's end (run-commit.ts). A step that throws fails the run (a retry goes
 * on from it); `$.flow.exit()` ends it after the step; `$.flow.delay`, `suspend` and `rerun` leave
 * it waiting after the step, its job due when the wait ends (run-waits.ts ends it sooner).
 */
// Kysely here, not in the store: plain prepared statements on the run's own row.
import { sql } from "kysely";
import type { FlowUrls, HttpResponse, QueuedSend } from "../../runtime/sandbox/sandbox.js";
import type { Lease } from "../../store/jobs/contract.js";
import { prepared } from "../../store/prepared.js";
import type { WorkflowRunStatus } from "../../store/schema.js";
import { preparedReturning, writeTogetherReturning } from "../../store/write-together.js";
import type { SendReport } from "../actions/action-sends.js";
import type { CoreContext } from "../context.js";
import type { NewEvent } from "../events/emitter-events.js";
import { commitWakeUps } from "../events/topics.js";
import { retryWhileDatabaseRecovers } from "../workers/database-retry.js";
import { commitRun, type RunWaitEnd } from "./run-commit.js";
import {
  type Progress,
  progressOf,
  type RunError,
  type RunHistoryEntry,
  type RunRecord,
  type StepRecord,
  storeSteps,
  toRunRecord,
} from "./run-record.js";
import { type Attempt, RESPOND_AFTER_WAIT, runSteps, type StepsRun } from "./run-steps.js";
import { flowUrls, settleWaitingRun } from "./run-waits.js";
import { runnableWorkflow } from "./workflow-cache.js";
import type { Workflow } from "./workflows.js";

/** Failures retried only when the workflow asks (`retry_timeouts`), as Pipedream's auto-retry. */
const OUT_OF_TIME: ReadonlySet<string> = new Set(["timeout", "out_of_memory"]);
/** Failures a retry would only repeat. */
const NEVER_RETRIED: ReadonlySet<string> = new Set([RESPOND_AFTER_WAIT]);
/** The channel of failed runs' errors. */
export const ERRORS_CHANNEL = "$errors";
/** The channels of `$.send.sse` events: `$sse:<channel>`. */
export const SSE_CHANNEL_PREFIX = "$sse:";
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

/**
 * Runs one attempt of the run the claimed job names. Null when the run or workflow is gone, the
 * run was taken over, or it is waiting (its job then ends as its wait says: run-waits.ts).
 */
export async function runAttempt(
  context: CoreContext,
  lease: Lease,
  runId: string,
  options: AttemptOptions,
  hooks: RunHooks = {},
): Promise<AttemptOutcome | null> {
  const { store } = context;
  const now = Date.now();
  // The run's row as this attempt starts it, in one statement: running, held by this attempt's
  // lease, one more attempt unless it goes on from a wait.
  const [row] = await writeTogetherReturning(
    store,
    [],
    preparedReturning(startAttempt, { id: runId, now, holder: lease.leaseToken }),
  );
  if (!row) {
    await settleWaitingRun(context, lease, runId, now);
    return null;
  }
  const workflow = await runnableWorkflow(context, row.workflow_id);
  if (!workflow) {
    await store.jobs.complete(lease);
    return null;
  }
  const run = toRunRecord(row);
  const progress = progressOf(row);
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
    waits: row.wait_seq,
    history: [...progress.history, ...startedEntry(row.resume_at !== null, run.attempts, progress, now)],
  };
  const ran = await runSteps(context, attempt, progress, onRespond);
  if (ran === null) return null;
  const record = await recordOf(context, workflow, attempt, run, progress, ran, options);

  // The sends went out: the record is written even if the database is briefly away, rather than
  // the run being repeated when its lease expires.
  let committed: Awaited<ReturnType<typeof commitRun>> | undefined;
  await retryWhileDatabaseRecovers(
    async () => {
      committed = await commitRun(store, { ...record, workflow, runId, lease, waits: row.wait_seq });
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
  const { status, retry } = record;
  return { runId, status, response, error: ran.error, retryAt: retry?.at ?? null };
}

/** What an attempt adds to the run's history as it starts: a new attempt, or the end of a wait by its time. */
function startedEntry(
  fromWait: boolean,
  attempts: number,
  progress: Progress,
  now: number,
): RunHistoryEntry[] {
  if (!fromWait) return [{ at_ms: now, event: "attempt", cause: `attempt ${attempts}` }];
  const { wait } = progress;
  if (!wait) return [];
  const cause = wait.kind === "delay" ? "the delay ended" : "the wait before the rerun ended";
  return [{ at_ms: now, event: wait.kind === "rerun" ? "rerun" : "resumed", step: wait.step, cause }];
}

/** The run's record at the end of the attempt: over, waiting, or queued for a retry. */
async function recordOf(
  context: CoreContext,
  workflow: Workflow,
  attempt: Attempt,
  run: RunRecord,
  progress: Progress,
  ran: StepsRun,
  options: AttemptOptions,
) {
  const { sends, error, exit, failedAt, stateWrites, wait } = ran;
  const now = Date.now();
  const retryAt =
    failedAt !== null &&
    run.attempts <= workflow.retries &&
    !NEVER_RETRIED.has(error?.reason ?? "") &&
    (workflow.retryTimeouts || !OUT_OF_TIME.has(error?.reason ?? ""))
      ? now + retryDelayMs(options.retryScheduleSeconds, run.attempts)
      : null;
  const steps =
    retryAt === null
      ? ran.steps
      : ran.steps.map((record, index) =>
          index === failedAt
            ? retriedStep(
                record,
                { attempts: run.attempts, retries: workflow.retries, retryAt },
                flowUrls(context, attempt.runId, index, attempt.waits + 1),
              )
            : record,
        );
  // A retried run goes on from the failed step: the earlier steps' sends wait for its end. A run
  // that waits sends what it has: a suspended step's email with its resume URL, say.
  const reports: SendReport[] = error
    ? context.sender.skip(
        sends,
        retryAt === null ? "not sent: the run failed" : "not sent yet: the step is retried",
      )
    : await context.sender.perform(sends);
  const events: NewEvent[] = error
    ? retryAt === null
      ? [errorEvent(workflow, attempt.runId, run.trigger, error)]
      : []
    : sends.filter((send) => send.kind === "emit" || send.kind === "sse").map(emittedEvent);
  const waitEnd: RunWaitEnd | null =
    wait === null
      ? null
      : { at: now + wait.flow.ms, kind: wait.flow.kind, step: ran.steps[wait.index]?.name ?? "" };
  const history: RunHistoryEntry[] = [...attempt.history];
  if (retryAt !== null && error) {
    history.push({ at_ms: now, event: "retry", step: error.step, cause: error.message, until_ms: retryAt });
  } else if (waitEnd) {
    const event = waitEnd.kind === "suspend" ? "suspended" : "paused";
    history.push({
      at_ms: now,
      event,
      step: waitEnd.step,
      cause: `$.flow.${waitEnd.kind}`,
      until_ms: waitEnd.at,
    });
  }
  const status: WorkflowRunStatus = error
    ? "error"
    : exit
      ? "exited"
      : waitEnd
        ? waitEnd.kind === "suspend"
          ? "suspended"
          : "paused"
        : "success";
  return {
    events,
    stateWrites,
    status,
    steps: storeSteps({
      steps,
      sends: [...progress.sent, ...reports],
      pending: retryAt === null ? [] : sends,
      history,
      wait:
        retryAt !== null && error
          ? { kind: "retry", step: error.step, until_ms: retryAt }
          : waitEnd && { kind: waitEnd.kind, step: waitEnd.step, until_ms: waitEnd.at },
      // A retry of a step that reruns keeps its count of runs.
      rerun: retryAt !== null ? progress.rerun : (wait?.rerun ?? null),
    }),
    nextStep:
      retryAt !== null ? (failedAt ?? steps.length) : wait ? wait.index + (wait.rerun ? 0 : 1) : steps.length,
    error: error === null ? null : JSON.stringify(error),
    exit: exit === null ? null : JSON.stringify(exit),
    retry: retryAt === null ? null : { at: retryAt, error: `${error?.step}: ${error?.message}` },
    wait: waitEnd,
  };
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

/**
 * The run's row as an attempt starts it: running, held by the attempt. It counts as one more
 * attempt unless it goes on from a wait (`resume_at` set, until its first checkpoint); a paused
 * run starts only once its wait is over. Nothing when the run waits still or is over.
 */
const startAttempt = prepared(
  (creator, values: { id: string; now: number; holder: string }) =>
    creator
      .updateTable("workflow_runs")
      .set({
        status: "running",
        attempts: sql<number>`attempts + (case when resume_at is null then 1 else 0 end)`,
        started_at: (eb) => eb.fn.coalesce("started_at", eb.val(values.now)),
        holder: values.holder,
      })
      .where("id", "=", values.id)
      .where((eb) =>
        eb.or([
          eb("status", "in", ["queued", "running"]),
          eb.and([eb("status", "=", "paused"), eb("resume_at", "<=", values.now)]),
        ]),
      )
      .returningAll(),
  { reusePlan: true },
);

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
 * saying which try failed, and `$attempt` with the error, when the step is tried again, and the
 * URLs that retry it now (`rerun_url`) or cancel the run (`cancel_url`).
 */
function retriedStep(
  record: StepRecord,
  run: { readonly attempts: number; readonly retries: number; readonly retryAt: number },
  urls: FlowUrls,
): StepRecord {
  const resumeTs = new Date(run.retryAt).toISOString();
  const $attempt = {
    error: record.error,
    resume_ts: resumeTs,
    rerun_url: urls.resume_url,
    cancel_url: urls.cancel_url,
  };
  return {
    ...record,
    summary: `Try ${run.attempts} of ${run.retries + 1} failed; the step is tried again at ${resumeTs}`,
    exports: { ...record.exports, $attempt },
  };
}

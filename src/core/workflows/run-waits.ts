/**
 * Runs that wait: the resume and cancel URLs a step's `$.flow.delay`, `suspend` and `rerun` return,
 * and the ends of a wait other than its time (a request to one of those URLs, the API's resume and
 * cancel, a suspend's time-out). A waiting run is a row (`paused` or `suspended`) and its job, due
 * when the wait ends; ending it early changes the row, guarded by the wait's number so that one
 * wait ends once, and makes the job due now, in one transaction.
 */
// Kysely here, not in the store: reads and guarded updates of its own table (workflow_runs).
import { timingSafeEqual } from "node:crypto";
import type { Selectable } from "kysely";
import type { FlowUrls } from "../../runtime/sandbox/sandbox.js";
import type { Lease } from "../../store/jobs/contract.js";
import type { WorkflowRunsTable } from "../../store/schema.js";
import { writeIn, writeTogether } from "../../store/write-together.js";
import type { CoreContext } from "../context.js";
import { ConflictError, GoneError, NotFoundError, TooLargeError } from "../errors.js";
import { ownedRow } from "../owned-rows.js";
import { WORKFLOW_RUNS_TOPIC } from "./run-queue.js";
import {
  type RunHistoryEntry,
  type RunRecord,
  storedSteps,
  storeSteps,
  toRunRecord,
  waitsStill,
} from "./run-record.js";

export type FlowAction = "resume" | "cancel";

/** What a request to a resume URL (or the API's resume) hands the suspended step as `$resume_data`. */
export interface ResumeData {
  readonly body: unknown;
  readonly headers: Readonly<Record<string, string>>;
}

/** The most a resume may carry for `$resume_data`: the body, and the headers with it. */
export const RESUME_BODY_LIMIT_BYTES = 1024 * 1024;
/** Headers that carry credentials: a step's `$resume_data` never holds them. */
const PRIVATE_HEADERS = new Set(["authorization", "cookie", "proxy-authorization"]);

/** What a resume hands the step, checked against the limit; credentials left out. */
export function resumeData(
  body: unknown,
  headers: Readonly<Record<string, string | string[] | undefined>>,
): ResumeData {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || PRIVATE_HEADERS.has(name.toLowerCase())) continue;
    kept[name.toLowerCase()] = Array.isArray(value) ? value.join(", ") : value;
  }
  const data = { body: body ?? null, headers: kept };
  if (Buffer.byteLength(JSON.stringify(data)) > RESUME_BODY_LIMIT_BYTES) {
    throw new TooLargeError(
      "resume_data_too_large",
      `A resume's data may be at most ${RESUME_BODY_LIMIT_BYTES / 1024 / 1024} MB (the body with its headers, as JSON); send a smaller body, or a link to the data`,
    );
  }
  return data;
}

/** The part of the master key's tags that is for flow URLs alone. */
const TAG_PURPOSE = "flow-url";

/**
 * The URLs that end wait `wait` of run `runId`, begun by its step at `step`: unguessable (a tag
 * under the master key), bound to that run, step and wait, valid on every node and across restarts.
 */
export function flowUrls(context: CoreContext, runId: string, step: number, wait: number): FlowUrls {
  const url = (action: FlowAction) =>
    `${context.baseUrl}/flow/${runId}/${action}/${step}.${wait}.${flowTag(context, runId, action, step, wait)}`;
  return { resume_url: url("resume"), cancel_url: url("cancel") };
}

function flowTag(
  context: CoreContext,
  runId: string,
  action: FlowAction,
  step: number,
  wait: number,
): string {
  return context.secrets.tag(TAG_PURPOSE, `${runId}:${action}:${step}:${wait}`);
}

/** A URL's token, `<step>.<wait>.<tag>`, checked: its step and wait, or null when it was not made here. */
function readToken(
  context: CoreContext,
  runId: string,
  action: FlowAction,
  token: string,
): { step: number; wait: number } | null {
  const match = /^(\d{1,6})\.(\d{1,9})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return null;
  const step = Number(match[1]);
  const wait = Number(match[2]);
  const expected = Buffer.from(flowTag(context, runId, action, step, wait));
  const given = Buffer.from(match[3] as string);
  return expected.length === given.length && timingSafeEqual(expected, given) ? { step, wait } : null;
}

/** A run's row, or null. */
async function readRun(context: CoreContext, runId: string): Promise<Selectable<WorkflowRunsTable> | null> {
  const row = await context.store.db
    .selectFrom("workflow_runs")
    .selectAll()
    .where("id", "=", runId)
    .executeTakeFirst();
  return row ?? null;
}

/** Whether the row waits: paused, suspended, or queued for a failed step's retry (`wait`, its stored wait). */
function isWaiting(row: Selectable<WorkflowRunsTable>, wait = storedSteps(row.steps).wait): boolean {
  return wait ? waitsStill(row.status, wait) : row.status === "paused" || row.status === "suspended";
}

/** How long a request to a URL whose wait has not begun yet (its step still running) waits for it. */
const EARLY_REQUEST_WAIT_MS = 30_000;
const EARLY_REQUEST_POLL_MS = 25;

/** Whether the row's wait `bound.wait` may still begin: the run is at the step that hands it out, or before. */
function waitsToBegin(row: Selectable<WorkflowRunsTable>, bound: { step: number; wait: number }): boolean {
  return (
    (row.status === "running" || row.status === "queued") &&
    row.wait_seq === bound.wait - 1 &&
    row.next_step <= bound.step
  );
}

/** Why a suspended run ended cancelled at its time-out (its error's reason). */
export const SUSPEND_TIMEOUT = "suspend_timeout";

/**
 * A request to a resume or cancel URL. Unknown or forged: not found, as for any run one may not
 * see. Made here, but its wait is over: 410 `flow_url_used`, or `flow_url_expired` when the
 * suspend timed out first.
 */
export async function endWaitByUrl(
  context: CoreContext,
  runId: string,
  action: FlowAction,
  token: string,
  data: ResumeData,
): Promise<RunRecord> {
  const bound = readToken(context, runId, action, token);
  let row = bound ? await readRun(context, runId) : null;
  if (!bound || !row) throw new NotFoundError("resume or cancel URL of run", runId);
  // A callback may come before the step that handed out the URL has ended (and its wait been
  // committed): the request waits for it rather than being refused.
  const asked = Date.now();
  while (row && waitsToBegin(row, bound) && Date.now() - asked < EARLY_REQUEST_WAIT_MS) {
    await new Promise((resolve) => setTimeout(resolve, EARLY_REQUEST_POLL_MS));
    row = await readRun(context, runId);
  }
  if (!row) throw new NotFoundError("resume or cancel URL of run", runId);
  // A rerun or a retry goes on from the step that waits; the other waits from the step after it.
  const { wait } = storedSteps(row.steps);
  const sameStep = wait?.kind === "rerun" || wait?.kind === "retry";
  if (
    row.wait_seq !== bound.wait ||
    row.next_step !== bound.step + (sameStep ? 0 : 1) ||
    !isWaiting(row, wait)
  ) {
    const timedOut =
      row.wait_seq === bound.wait &&
      row.status === "cancelled" &&
      row.error?.includes(`"${SUSPEND_TIMEOUT}"`);
    throw timedOut
      ? new GoneError(
          "flow_url_expired",
          `Run ${runId} waited past its $.flow.suspend time-out and was cancelled; this URL no longer works`,
        )
      : new GoneError(
          "flow_url_used",
          `Run ${runId} is no longer waiting at this step (it is ${row.status}): this URL was used, or the wait ended otherwise`,
        );
  }
  return endWait(context, row, action, action === "resume" ? "resume_url" : "cancel_url", data);
}

/** `POST /v1/workflow_runs/{id}/resume|cancel`: the same, by a run's owner, for its current wait. */
export async function endWaitById(
  context: CoreContext,
  accountId: string,
  runId: string,
  action: FlowAction,
  data: ResumeData,
): Promise<RunRecord> {
  const row = await ownedRow(
    context.store.db,
    { table: "workflow_runs", name: "workflow run" },
    accountId,
    runId,
  );
  if (!isWaiting(row)) {
    throw new ConflictError(
      "run_not_waiting",
      `Run ${runId} is ${row.status}: only a paused or suspended run can be ${action === "resume" ? "resumed" : "cancelled"}`,
    );
  }
  return endWait(context, row, action, "the API", data);
}

/**
 * Ends the row's current wait: resumed (queued again, going on at once; a suspended step gets
 * `$resume_data`, a step that reruns `$.context.run.callback_request`) or cancelled. Guarded by the wait's number and status, so of two requests at
 * once one wins and the other is told the URL was used.
 */
async function endWait(
  context: CoreContext,
  row: Selectable<WorkflowRunsTable>,
  action: FlowAction,
  cause: string,
  data: ResumeData,
): Promise<RunRecord> {
  const { store } = context;
  const now = Date.now();
  const stored = storedSteps(row.steps);
  const waitedAt = row.next_step - 1;
  const step = stored.steps[waitedAt];
  const stepName = stored.wait?.step ?? step?.name;
  const entry: RunHistoryEntry = {
    at_ms: now,
    event: action === "resume" ? "resumed" : "cancelled",
    ...(stepName === undefined ? {} : { step: stepName }),
    cause,
  };
  const steps =
    action === "resume" && row.status === "suspended" && step
      ? stored.steps.map((record, index) =>
          index === waitedAt ? { ...record, exports: { ...record.exports, $resume_data: data } } : record,
        )
      : stored.steps;
  const rerun =
    action === "resume" && stored.rerun && stored.wait?.kind === "rerun"
      ? { ...stored.rerun, callback_request: data }
      : stored.rerun;
  const column = storeSteps({
    ...stored,
    steps,
    rerun,
    history: [...(stored.history ?? []), entry],
    wait: null,
  });
  const ended = await store.transaction(async (tx) => {
    const updated = await store
      .dbIn(tx)
      .updateTable("workflow_runs")
      .set(
        action === "resume"
          ? // A retry stays an attempt of its own (no resume_at): only the ends of other waits are not.
            { status: "queued", resume_at: stored.wait?.kind === "retry" ? null : now, steps: column }
          : { status: "cancelled", resume_at: null, steps: column, finished_at: now },
      )
      .where("id", "=", row.id)
      .where("wait_seq", "=", row.wait_seq)
      .where("status", "=", row.status)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) return false;
    // Cancelled too: the job comes due, and its claim finds the run over and ends it.
    if (row.job_id !== null) await writeIn(tx, store.capabilities, [store.jobs.wakeWrite(row.job_id, now)]);
    return true;
  });
  if (!ended) {
    throw new GoneError(
      "flow_url_used",
      `Run ${row.id} is no longer waiting: another request ended its wait first`,
    );
  }
  store.notifier.publish(WORKFLOW_RUNS_TOPIC);
  return toRunRecord((await readRun(context, row.id)) ?? row);
}

/**
 * The job of a run whose attempt could not start it: while the run waits, the job sleeps again
 * until the wait's end; at a suspend's time-out the run ends cancelled, as Pipedream's does; a run
 * that is over or gone ends its job.
 */
export async function settleWaitingRun(
  context: CoreContext,
  lease: Lease,
  runId: string,
  now: number,
): Promise<void> {
  const { store } = context;
  const row = await readRun(context, runId);
  if (!row || !isWaiting(row) || row.resume_at === null) {
    await store.jobs.complete(lease);
    return;
  }
  if (row.status === "paused" || row.resume_at > now) {
    const runAt = Math.max(row.resume_at, now);
    await writeTogether(store, [store.jobs.rescheduleWrite(lease, { runAt, payload: { runId } })]);
    return;
  }
  const stored = storedSteps(row.steps);
  const step = stored.wait?.step ?? stored.steps[row.next_step - 1]?.name ?? "";
  const waited =
    row.resume_at -
    (stored.history?.findLast((entry) => entry.event === "suspended")?.at_ms ?? row.resume_at);
  const error = {
    step,
    reason: SUSPEND_TIMEOUT,
    message: `no request came to the step's resume_url within its $.flow.suspend time-out (${waited} ms): the run was cancelled`,
    stack: null,
  };
  const entry: RunHistoryEntry = { at_ms: now, event: "cancelled", step, cause: "the suspend timed out" };
  const column = storeSteps({ ...stored, history: [...(stored.history ?? []), entry], wait: null });
  await store.transaction(async (tx) => {
    const updated = await store
      .dbIn(tx)
      .updateTable("workflow_runs")
      .set({
        status: "cancelled",
        resume_at: null,
        steps: column,
        error: JSON.stringify(error),
        finished_at: now,
      })
      .where("id", "=", row.id)
      .where("wait_seq", "=", row.wait_seq)
      .where("status", "=", "suspended")
      .executeTakeFirst();
    // A request that resumed the run first left it to be run: the job comes due again at once.
    const end =
      Number(updated.numUpdatedRows) > 0
        ? store.jobs.endWrite(lease, undefined)
        : store.jobs.rescheduleWrite(lease, { runAt: now, payload: { runId } });
    await writeIn(tx, store.capabilities, [end]);
  });
  store.notifier.publish(WORKFLOW_RUNS_TOPIC);
}

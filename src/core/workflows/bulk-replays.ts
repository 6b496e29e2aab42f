/**
 * Bulk replays: the runs of a workflow that match a filter (statuses, the failed step, a time
 * window), replayed oldest first, each as replays.ts makes one. Starting one counts the runs and
 * records the bulk replay with the job of its pacer (replay-pacer.ts), which queues the replays a
 * batch at a time, never more than `max_in_flight` of them queued or running at once, so the
 * workflow's live runs never wait behind all of them. It covers the runs there were when it
 * started (up to `upto_id`), not those queued since, its own replays among them.
 */
// Kysely here, not in the store: reads runs and reads and writes its own table (workflow_replays).
import type { Selectable } from "kysely";
import type { Executor, WorkflowReplaysTable, WorkflowRunStatus } from "../../store/schema.js";
import type { CoreContext } from "../context.js";
import { InvalidInputError, NotFoundError } from "../errors.js";
import { newId } from "../ids.js";
import { ownedRow } from "../owned-rows.js";
import { getWorkflow } from "./workflows.js";

export const REPLAY_QUEUE = "workflow_replay";
export const REPLAYS_TOPIC = "workflow_replays";
export const DEFAULT_MAX_IN_FLIGHT = 10;
export const MAX_IN_FLIGHT = 100;

export interface ReplayJob {
  readonly replayId: string;
}

/** Which runs a bulk replay covers, as stored: epoch ms for the window. */
export interface ReplayFilter {
  readonly statuses: readonly WorkflowRunStatus[];
  readonly failed_step?: string;
  readonly since?: number;
  readonly until?: number;
}

export interface BulkReplayRequest {
  readonly filter: {
    readonly statuses?: readonly WorkflowRunStatus[];
    readonly failedStep?: string;
    /** An ISO 8601 time or epoch ms. */
    readonly since?: string | number;
    readonly until?: string | number;
  };
  readonly fromFailedStep: boolean;
  readonly dryRun: boolean;
  readonly maxInFlight?: number;
}

export interface BulkReplay {
  readonly id: string;
  readonly workflowId: string;
  readonly filter: ReplayFilter;
  readonly fromFailedStep: boolean;
  readonly maxInFlight: number;
  /** The runs it matched when it started. */
  readonly total: number;
  readonly queued: number;
  /** Runs not replayed: they no longer matched, or (from their failed step) could not be. */
  readonly skipped: number;
  /** Its replays queued or running now. */
  readonly inFlight: number;
  /** Its replays that ended. */
  readonly done: number;
  /** `queuing` while runs are left to queue, then `running` until its replays have ended. */
  readonly status: "queuing" | "running" | "done";
  readonly createdAt: number;
  readonly finishedAt: number | null;
}

const REPLAYS = { table: "workflow_replays", name: "bulk replay", prefix: "rp" } as const;
/** The statuses of a run that holds a place among a bulk replay's `max_in_flight`. */
export const IN_FLIGHT: readonly WorkflowRunStatus[] = ["queued", "running"];

/** Counts the runs a bulk replay would cover (`dry_run`), or starts it. */
export async function startBulkReplay(
  context: CoreContext,
  accountId: string,
  workflowId: string,
  request: BulkReplayRequest,
): Promise<{ readonly dryRun: true; readonly total: number } | BulkReplay> {
  const workflow = await getWorkflow(context, accountId, workflowId);
  const filter = replayFilter(request);
  const maxInFlight = request.maxInFlight ?? DEFAULT_MAX_IN_FLIGHT;
  if (!Number.isInteger(maxInFlight) || maxInFlight < 1 || maxInFlight > MAX_IN_FLIGHT) {
    throw new InvalidInputError(`max_in_flight must be an integer from 1 to ${MAX_IN_FLIGHT}`);
  }
  const { db } = context.store;
  const newest = await db
    .selectFrom("workflow_runs")
    .select("id")
    .where("workflow_id", "=", workflow.id)
    .orderBy("id", "desc")
    .limit(1)
    .executeTakeFirst();
  const scope = { workflowId: workflow.id, uptoId: newest?.id ?? "", filter };
  const total = newest === undefined ? 0 : await countMatching(db, scope);
  if (request.dryRun) return { dryRun: true, total };
  const id = newId("rp");
  const now = Date.now();
  await context.store.transaction(async (tx) => {
    await context.store
      .dbIn(tx)
      .insertInto("workflow_replays")
      .values({
        id,
        account_id: workflow.accountId,
        workflow_id: workflow.id,
        filter: JSON.stringify(filter),
        upto_id: scope.uptoId,
        from_failed_step: request.fromFailedStep ? 1 : 0,
        max_in_flight: maxInFlight,
        total,
        cursor: null,
        created_at: now,
        finished_at: total === 0 ? now : null,
      })
      .execute();
    if (total > 0) {
      await context.store.jobs.enqueue(
        { queue: REPLAY_QUEUE, payload: { replayId: id } satisfies ReplayJob, uniqueKey: id },
        tx,
      );
    }
  });
  if (total > 0) context.store.notifier.publish(REPLAYS_TOPIC);
  return getBulkReplay(context, accountId, workflow.id, id);
}

/** A bulk replay of the workflow, with its progress as it is now. */
export async function getBulkReplay(
  context: CoreContext,
  accountId: string,
  workflowId: string,
  replayId: string,
): Promise<BulkReplay> {
  const workflow = await getWorkflow(context, accountId, workflowId);
  const row = await ownedRow(context.store.db, REPLAYS, accountId, replayId);
  if (row.workflow_id !== workflow.id) throw new NotFoundError(REPLAYS.name, replayId);
  const queuedIds = JSON.parse(row.in_flight) as string[];
  const inFlight = (await stillInFlight(context.store.db, queuedIds)).length;
  return toBulkReplay(row, inFlight);
}

function toBulkReplay(row: Selectable<WorkflowReplaysTable>, inFlight: number): BulkReplay {
  const finishedQueuing = row.finished_at !== null;
  return {
    id: row.id,
    workflowId: row.workflow_id,
    filter: JSON.parse(row.filter) as ReplayFilter,
    fromFailedStep: row.from_failed_step === 1,
    maxInFlight: row.max_in_flight,
    total: row.total,
    queued: row.queued,
    skipped: row.skipped,
    inFlight,
    done: row.queued - inFlight,
    status: !finishedQueuing ? "queuing" : inFlight > 0 ? "running" : "done",
    createdAt: Number(row.created_at),
    finishedAt: row.finished_at === null ? null : Number(row.finished_at),
  };
}

/** Of `runIds`, those still queued or running. */
export async function stillInFlight(db: Executor, runIds: readonly string[]): Promise<string[]> {
  if (runIds.length === 0) return [];
  const rows = await db
    .selectFrom("workflow_runs")
    .select("id")
    .where("id", "in", runIds)
    .where("status", "in", IN_FLIGHT)
    .execute();
  return rows.map((row) => row.id);
}

/** The runs a bulk replay covers: its workflow's, up to the newest when it started, matching its filter. */
export interface ReplayScope {
  readonly workflowId: string;
  readonly uptoId: string;
  readonly filter: ReplayFilter;
}

/** The query of the runs in `scope` after `cursor` (all of them without one), in no order. */
export function matchingRuns(db: Executor, scope: ReplayScope, cursor: string | null) {
  const { filter } = scope;
  let query = db
    .selectFrom("workflow_runs")
    .where("workflow_id", "=", scope.workflowId)
    .where("id", "<=", scope.uptoId);
  if (cursor !== null) query = query.where("id", ">", cursor);
  if (filter.statuses.length > 0) query = query.where("status", "in", filter.statuses);
  if (filter.since !== undefined) query = query.where("created_at", ">=", filter.since);
  if (filter.until !== undefined) query = query.where("created_at", "<=", filter.until);
  if (filter.failed_step !== undefined) query = query.where("error", "is not", null);
  return query;
}

/** Whether a run's row passes the part of the filter SQL leaves to the code: its failed step. */
export function failedAtFilter(filter: ReplayFilter, error: string | null): boolean {
  if (filter.failed_step === undefined) return true;
  return error !== null && (JSON.parse(error) as { step?: unknown }).step === filter.failed_step;
}

async function countMatching(db: Executor, scope: ReplayScope): Promise<number> {
  const runs = matchingRuns(db, scope, null);
  if (scope.filter.failed_step === undefined) {
    const row = await runs.select((eb) => eb.fn.countAll<number>().as("count")).executeTakeFirstOrThrow();
    return Number(row.count);
  }
  const rows = await runs.select("error").execute();
  return rows.filter((row) => failedAtFilter(scope.filter, row.error)).length;
}

/** The stored filter of a request: statuses, the failed step, and the window in epoch ms. */
function replayFilter(request: BulkReplayRequest): ReplayFilter {
  const { filter } = request;
  const asked: readonly WorkflowRunStatus[] = filter.statuses ?? (request.fromFailedStep ? ["error"] : []);
  const statuses = [...new Set(asked)];
  if (request.fromFailedStep && statuses.some((status) => status !== "error")) {
    throw new InvalidInputError(
      "from_failed_step replays failed runs: leave filter.status out, or set it to error",
      "invalid_filter",
    );
  }
  const since = instant(filter.since, "since");
  const until = instant(filter.until, "until");
  if (since !== undefined && until !== undefined && since > until) {
    throw new InvalidInputError("filter.since is after filter.until", "invalid_filter");
  }
  return {
    statuses,
    ...(filter.failedStep === undefined ? {} : { failed_step: filter.failedStep }),
    ...(since === undefined ? {} : { since }),
    ...(until === undefined ? {} : { until }),
  };
}

/** An ISO 8601 time (a date alone is midnight UTC) or epoch ms, as epoch ms. */
function instant(value: string | number | undefined, field: string): number | undefined {
  if (value === undefined) return undefined;
  const ms = typeof value === "number" ? value : /^\d+$/.test(value) ? Number(value) : Date.parse(value);
  if (!Number.isFinite(ms) || ms < 0) {
    throw new InvalidInputError(
      `filter.${field} must be an ISO 8601 time (2026-12-01, 2026-12-01T09:30:00Z) or epoch milliseconds, got ${JSON.stringify(value)}`,
      "invalid_filter",
    );
  }
  return ms;
}

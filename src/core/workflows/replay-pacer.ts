/**
 * The pacer of bulk replays (bulk-replays.ts): one job of the `workflow_replay` queue per bulk
 * replay, claimed by any node's claim loop. Each turn looks which of its replays are still queued
 * or running, queues the next runs up to `max_in_flight`, and ends its job or makes it due again,
 * all in one transaction that writes only over the revision of the row it read: a turn taken
 * twice (a lease lost meanwhile) queues its runs once, and a restart loses none.
 */
// Kysely here, not in the store: reads runs and reads and writes its own table (workflow_replays).
import type { Selectable } from "kysely";
import type { ClaimedJob } from "../../store/jobs/contract.js";
import type { Executor, WorkflowReplaysTable } from "../../store/schema.js";
import { writeIn } from "../../store/write-together.js";
import type { CoreContext } from "../context.js";
import { SluiceError } from "../errors.js";
import { createClaimLoop } from "../workers/claim-loop.js";
import {
  failedAtFilter,
  matchingRuns,
  REPLAY_QUEUE,
  REPLAYS_TOPIC,
  type ReplayFilter,
  type ReplayJob,
  stillInFlight,
} from "./bulk-replays.js";
import { type ReplayStart, replayOf } from "./replays.js";
import { type NewRun, queueRun, WORKFLOW_RUNS_TOPIC } from "./run-queue.js";
import { toRunRecord } from "./run-record.js";
import { runnableWorkflow } from "./workflow-cache.js";
import type { Workflow } from "./workflows.js";

/** How long a bulk replay waits between turns while it has runs left or in flight. */
const TURN_MS = 500;
/** Runs read at once while looking for the next to replay. */
const PAGE = 200;

export interface ReplayPacer {
  start(): void;
  /** Stops claiming, and waits for the turns in flight. */
  stop(): Promise<void>;
}

export interface ReplayPacerOptions {
  readonly pollMs?: number;
  readonly onError?: (error: unknown) => void;
}

export function createReplayPacer(context: CoreContext, options: ReplayPacerOptions = {}): ReplayPacer {
  const loop = createClaimLoop(
    {
      store: context.store,
      queue: REPLAY_QUEUE,
      topic: REPLAYS_TOPIC,
      concurrency: 4,
      pollMs: options.pollMs ?? 1000,
      ...(options.onError ? { onError: options.onError } : {}),
    },
    {
      claimed(jobs) {
        for (const job of jobs) void loop.run(job, () => takeTurn(context, job));
      },
    },
  );
  return { start: () => loop.start(), stop: () => loop.stop() };
}

/** One turn of a bulk replay: its next runs queued, as many as it has room for. */
async function takeTurn(context: CoreContext, job: ClaimedJob): Promise<void> {
  const { store } = context;
  const { replayId } = job.payload as ReplayJob;
  const row = await store.db
    .selectFrom("workflow_replays")
    .selectAll()
    .where("id", "=", replayId)
    .executeTakeFirst();
  const workflow = row && row.finished_at === null ? await runnableWorkflow(context, row.workflow_id) : null;
  if (!row || !workflow) {
    await store.jobs.complete(job); // finished, or deleted with its workflow
    return;
  }
  const inFlight = await stillInFlight(store.db, JSON.parse(row.in_flight) as string[]);
  const batch = await nextBatch(store.db, row, workflow, row.max_in_flight - inFlight.length);
  const queued: string[] = [];
  const taken = await store.transaction(async (tx) => {
    const db = store.dbIn(tx);
    // First, so that a turn taken twice waits here for the other's commit, then writes nothing.
    const claimed = await db
      .updateTable("workflow_replays")
      .set({ revision: row.revision + 1 })
      .where("id", "=", row.id)
      .where("revision", "=", row.revision)
      .executeTakeFirst();
    if (Number(claimed.numUpdatedRows) === 0) return false;
    for (const run of batch.runs) queued.push((await queueRun(tx, store, run)).runId);
    const total = row.queued + queued.length;
    const skipped = row.skipped + batch.skipped;
    await db
      .updateTable("workflow_replays")
      .set({
        queued: total,
        // At the end, the runs counted at the start that no longer matched are skipped too.
        skipped: batch.exhausted ? Math.max(skipped, row.total - total) : skipped,
        cursor: batch.cursor,
        in_flight: JSON.stringify([...inFlight, ...queued]),
        finished_at: batch.exhausted ? Date.now() : null,
      })
      .where("id", "=", row.id)
      .execute();
    const end = batch.exhausted
      ? store.jobs.endWrite(job, undefined)
      : store.jobs.rescheduleWrite(job, { runAt: Date.now() + TURN_MS, payload: job.payload });
    await writeIn(tx, store.capabilities, [end]);
    return true;
  });
  if (taken && queued.length > 0) store.notifier.publish(WORKFLOW_RUNS_TOPIC);
}

interface Batch {
  readonly runs: readonly NewRun[];
  /** Runs that could not be replayed from their failed step. */
  readonly skipped: number;
  /** The last run looked at. */
  readonly cursor: string | null;
  /** No run is left to look at. */
  readonly exhausted: boolean;
}

/** The next `room` replays of the bulk replay's runs after its cursor, oldest first. */
async function nextBatch(
  db: Executor,
  row: Selectable<WorkflowReplaysTable>,
  workflow: Workflow,
  room: number,
): Promise<Batch> {
  const filter = JSON.parse(row.filter) as ReplayFilter;
  const scope = { workflowId: row.workflow_id, uptoId: row.upto_id, filter };
  const start: ReplayStart = row.from_failed_step === 1 ? { fromFailedStep: true } : undefined;
  const runs: NewRun[] = [];
  let skipped = 0;
  let cursor = row.cursor;
  while (runs.length < room) {
    const page = await matchingRuns(db, scope, cursor).selectAll().orderBy("id", "asc").limit(PAGE).execute();
    for (const candidate of page) {
      if (runs.length === room) return { runs, skipped, cursor, exhausted: false };
      cursor = candidate.id;
      if (!failedAtFilter(filter, candidate.error)) continue;
      try {
        runs.push(replayOf(toRunRecord(candidate), workflow, start));
      } catch (error) {
        // The run cannot be replayed from its failed step (the workflow's steps changed, say).
        if (!(error instanceof SluiceError)) throw error;
        skipped++;
      }
    }
    if (page.length < PAGE) return { runs, skipped, cursor, exhausted: true };
  }
  return { runs, skipped, cursor, exhausted: false };
}

/**
 * The workflow run worker: claims queued runs (grouped by workflow) and runs them in queue order,
 * at most `concurrency` at once per workflow across every node (the claim counts its leased runs).
 * An HTTP-triggered run that waits for its response skips the claim: its job is enqueued leased to
 * this node and starts once its turn comes (`awaitTurn`), under the claims' lock, so the cap holds
 * however the nodes' commits interleave; it may go before runs no node has claimed yet.
 */
// Kysely here, not in the store: one plain read of a workflow's row.
import type { Lease } from "../../store/jobs/contract.js";
import type { CoreContext } from "../context.js";
import { createClaimLoop, LEASE_MS } from "../workers/claim-loop.js";
import { type AttemptOptions, type AttemptOutcome, type RunHooks, runAttempt } from "./run-executor.js";
import { type RunJob, WORKFLOW_RUN_QUEUE, WORKFLOW_RUNS_TOPIC } from "./run-queue.js";
import { runnableWorkflow } from "./workflow-cache.js";

/** A run's claim (renewed while it runs: workers/claim-loop.ts). */
export const RUN_LEASE_MS = LEASE_MS;
/** How often a run that skipped the claim looks whether the runs ahead of it on other nodes are done. */
const TURN_POLL_MS = 100;

export interface WorkflowRunner {
  start(): void;
  /** Stops claiming, and waits for the runs in flight. */
  stop(): Promise<void>;
  /**
   * Runs a run whose job the caller enqueued already claimed, here, once its turn has come and a
   * slot is free. Null when it did not run here: its workflow is gone, or its job went to
   * another node (this one lost its lease while it waited).
   */
  runClaimed(
    lease: Lease,
    runId: string,
    workflowId: string,
    hooks: RunHooks,
  ): Promise<AttemptOutcome | null>;
}

export interface WorkflowRunnerOptions extends AttemptOptions {
  /** Runs at once on this node, all workflows together. */
  readonly concurrency?: number;
  readonly pollMs?: number;
  readonly onError?: (error: unknown) => void;
}

export function createWorkflowRunner(context: CoreContext, options: WorkflowRunnerOptions): WorkflowRunner {
  const { store } = context;
  const concurrency = options.concurrency ?? 16;
  const pollMs = options.pollMs ?? 1000;
  const onError = options.onError ?? (() => {});
  const slots = createSlots();
  /** The concurrency of each workflow, read in one query. */
  const limitsOf = async (workflowIds: readonly string[]): Promise<Map<string, number>> => {
    if (workflowIds.length === 0) return new Map();
    const rows = await store.db
      .selectFrom("workflows")
      .select(["id", "concurrency"])
      .where("id", "in", [...new Set(workflowIds)])
      .execute();
    return new Map(rows.map((row) => [row.id, row.concurrency]));
  };

  /**
   * Holds the lease while the run waits for its slot and runs; releases the slot after. The slot
   * is asked for before anything is awaited, so runs take their turns in the order they came.
   */
  const execute = async (lease: Lease, runId: string, workflowId: string, limit: number, hooks: RunHooks) => {
    const slot = await slots.acquire(workflowId, limit);
    try {
      return await runAttempt(context, lease, runId, { ...options, slot: slot.index }, hooks);
    } finally {
      slot.release();
    }
  };

  /**
   * Waits for the run's turn: until its job starts, which it does once fewer than `limit` runs of
   * the workflow are started or wait ahead of it on any node (store/jobs/contract.ts `takeTurn`, taken
   * under the claims' lock). False: the job is no longer this node's (its lease ran out and
   * another node took it, or the workflow was deleted). One node alone (the embedded SQLite)
   * needs no look: its slots are the whole cluster's.
   */
  const awaitTurn = async (lease: Lease, workflowId: string, limit: number): Promise<boolean> => {
    if (store.capabilities.singleProcess) return true;
    for (;;) {
      const turn = await store.jobs.takeTurn(lease, {
        queue: WORKFLOW_RUN_QUEUE,
        groupKey: workflowId,
        limit,
      });
      if (turn !== "waiting") return turn === "started";
      await new Promise((resolve) => setTimeout(resolve, TURN_POLL_MS));
    }
  };

  const loop = createClaimLoop(
    {
      store,
      queue: WORKFLOW_RUN_QUEUE,
      topic: WORKFLOW_RUNS_TOPIC,
      concurrency,
      // A workflow's `concurrency` holds across nodes: a claim counts its runs leased anywhere.
      // At 1, runs start one after another in the order they were queued (FIFO).
      groupLimit: { table: "workflows", idColumn: "id", limitColumn: "concurrency" },
      pollMs,
      onError,
    },
    {
      // Workflows with no free slot here.
      excludeGroups: () => slots.full(),
      async claimed(jobs) {
        const limits = await limitsOf(jobs.map((job) => job.groupKey ?? ""));
        for (const job of jobs) {
          const { runId } = job.payload as RunJob;
          const workflowId = job.groupKey ?? "";
          void loop.run(job, () => execute(job, runId, workflowId, limits.get(workflowId) ?? 1, {}));
        }
      },
    },
  );

  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
    async runClaimed(lease, runId, workflowId, hooks) {
      const limit = (await runnableWorkflow(context, workflowId))?.concurrency ?? 1;
      let outcome: AttemptOutcome | null = null;
      let failure: { error: unknown } | undefined;
      await loop.run(lease, async () => {
        try {
          if (await awaitTurn(lease, workflowId, limit)) {
            outcome = await execute(lease, runId, workflowId, limit, hooks);
          }
        } catch (error) {
          failure = { error };
          throw error;
        }
      });
      if (failure) throw failure.error;
      return outcome;
    },
  };
}

interface Slot {
  /** 0 to limit - 1: which of the workflow's runners the run uses. */
  readonly index: number;
  release(): void;
}

/**
 * Per workflow: the slots in use (by index), their limit, and the runs waiting for one (first
 * come, first served). A freed slot goes straight to the next run waiting.
 */
function createSlots() {
  const groups = new Map<
    string,
    { busy: Set<number>; limit: number; waiting: ((index: number) => void)[] }
  >();
  return {
    acquire(group: string, limit: number): Promise<Slot> {
      let entry = groups.get(group);
      if (!entry) {
        entry = { busy: new Set(), limit, waiting: [] };
        groups.set(group, entry);
      }
      entry.limit = limit;
      const state = entry;
      const slot = (index: number): Slot => ({
        index,
        release() {
          const next = state.waiting.shift();
          if (next) return next(index);
          state.busy.delete(index);
          if (state.busy.size === 0) groups.delete(group);
        },
      });
      if (state.busy.size < state.limit) {
        let index = 0;
        while (state.busy.has(index)) index++;
        state.busy.add(index);
        return Promise.resolve(slot(index));
      }
      return new Promise((resolve) => state.waiting.push((index) => resolve(slot(index))));
    },
    /** Workflows with no free slot: left out of the next claim. */
    full(): string[] {
      return [...groups]
        .filter(([, entry]) => entry.busy.size + entry.waiting.length >= entry.limit)
        .map(([group]) => group);
    },
  };
}

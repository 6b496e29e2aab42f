/**
 * The workflow run worker: claims queued runs (jobs of the `workflow_run` queue, grouped by
 * workflow) and runs them, at most `concurrency` at once per workflow on this node, in the order
 * they were queued. An HTTP-triggered run that waits for its response skips the queue: its job is
 * enqueued already claimed and run here at once, through the same per-workflow slots. Claims are
 * leases renewed while a run goes on; a node that dies lets them expire and another takes over.
 */
import type { ClaimedJob, Lease } from "../../store/jobs.js";
import type { CoreContext } from "../context.js";
import { createWakeableSleep } from "../workers/wakeable-sleep.js";
import { type AttemptOptions, type AttemptOutcome, type RunHooks, runAttempt } from "./run-executor.js";
import { type RunJob, WORKFLOW_RUN_QUEUE, WORKFLOW_RUNS_TOPIC } from "./run-queue.js";

export const RUN_LEASE_MS = 60_000;
const HEARTBEAT_MS = 20_000;

export interface WorkflowRunner {
  start(): void;
  /** Stops claiming, and waits for the runs in flight. */
  stop(): Promise<void>;
  /** Runs a run whose job the caller enqueued already claimed, here and now (once a slot is free). */
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
  const inFlight = new Set<Promise<unknown>>();
  const { sleep, wake } = createWakeableSleep();
  let running = false;
  let loop: Promise<void> | undefined;
  let unsubscribe: (() => void) | undefined;

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
    const waiting = slots.acquire(workflowId, limit);
    const heartbeat = setInterval(() => {
      store.jobs.extendLease(lease, RUN_LEASE_MS).catch(onError);
    }, HEARTBEAT_MS);
    try {
      const slot = await waiting;
      try {
        return await runAttempt(context, lease, runId, { ...options, slot: slot.index }, hooks);
      } finally {
        slot.release();
      }
    } finally {
      clearInterval(heartbeat);
    }
  };

  const track = <T>(task: Promise<T>): Promise<T> => {
    inFlight.add(task);
    const done = () => {
      inFlight.delete(task);
      wake();
    };
    task.then(done, done);
    return task;
  };

  const claimed = (job: ClaimedJob, limits: Map<string, number>) => {
    const { runId } = job.payload as RunJob;
    const workflowId = job.groupKey ?? "";
    track(execute(job, runId, workflowId, limits.get(workflowId) ?? 1, {}).catch(onError));
  };

  const run = async () => {
    while (running) {
      try {
        const free = concurrency - inFlight.size;
        let claimedNone = false;
        if (free > 0) {
          const jobs = await store.jobs.claimDue({
            queue: WORKFLOW_RUN_QUEUE,
            limit: free,
            leaseMs: RUN_LEASE_MS,
            excludeGroups: slots.full(),
          });
          const limits = await limitsOf(jobs.map((job) => job.groupKey ?? ""));
          for (const job of jobs) claimed(job, limits);
          if (jobs.length === free) continue;
          claimedNone = jobs.length === 0;
        }
        const next = await store.jobs.nextRunAt(WORKFLOW_RUN_QUEUE);
        let delay = next === null ? pollMs : Math.max(0, Math.min(pollMs, next - Date.now()));
        // Due, yet not claimed: runs of workflows at their limit here. A finished run wakes the loop.
        if (delay === 0 && claimedNone) delay = pollMs;
        if (delay > 0 || inFlight.size >= concurrency) await sleep(Math.max(delay, 1));
      } catch (error) {
        onError(error);
        await sleep(pollMs);
      }
    }
  };

  return {
    start() {
      if (running) return;
      running = true;
      unsubscribe = store.notifier.subscribe(WORKFLOW_RUNS_TOPIC, () => wake());
      loop = run();
    },
    async stop() {
      running = false;
      unsubscribe?.();
      wake();
      await loop;
      await Promise.allSettled([...inFlight]);
    },
    async runClaimed(lease, runId, workflowId, hooks) {
      const limits = await limitsOf([workflowId]);
      return track(execute(lease, runId, workflowId, limits.get(workflowId) ?? 1, hooks));
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

/**
 * The timer worker: claims due ticks (workers/claim-loop.ts), runs each source, and queues its next
 * tick as one of the writes of the run's own commit. A run never overlaps its source's next tick:
 * that is scheduled only when the run is over, on the first free slot, with the skipped slots
 * logged; after downtime a source runs once to catch up.
 */
import type { LogLine } from "../../../runtime/sandbox/sandbox.js";
import type { ClaimedJob } from "../../../store/jobs/contract.js";
import type { CoreContext } from "../../context.js";
import { createClaimLoop } from "../../workers/claim-loop.js";
import { invokeSource } from "../invoker.js";
import { runnableById } from "../runnable-cache.js";
import { nextAfterRun, tickEvent } from "./schedule.js";
import { scheduleOf, TIMER_QUEUE, TIMERS_TOPIC, type TickPayload } from "./timers.js";

export interface TimerWorker {
  start(): void;
  /** Stops claiming, and waits for the runs in flight. */
  stop(): Promise<void>;
}

export interface TimerWorkerOptions {
  /** Ticks run at once on this node. */
  readonly concurrency?: number;
  /** The longest sleep between looks at the queue (other nodes' new ticks are also announced). */
  readonly pollMs?: number;
  readonly onError?: (error: unknown) => void;
}

export function createTimerWorker(context: CoreContext, options: TimerWorkerOptions = {}): TimerWorker {
  const { store } = context;
  // Ticks held at once, well above what a runner runs at once, so that some run while others
  // commit: a tick is held from its claim to its commit, so this bounds the ticks a second.
  const concurrency = options.concurrency ?? 128;
  const pollMs = options.pollMs ?? 1000;
  const onError = options.onError ?? (() => {});
  const fire = async (job: ClaimedJob): Promise<void> => {
    const payload = job.payload as TickPayload;
    const source = await runnableById(context, payload.sourceId);
    const schedule = source?.active ? scheduleOf(source.definition, source.values) : null;
    if (!source || !schedule) {
      await store.jobs.complete(job); // deleted, deactivated or no longer a timer source
      return;
    }
    const firedAt = Date.now();
    const notes: LogLine[] = [];
    const { skipped: downtime, latest: slot } = nextAfterRun(schedule, job.runAt, firedAt);
    if (downtime > 0) {
      notes.push({
        ts: firedAt,
        level: "warn",
        message: `timer: ${downtime} tick(s) missed (Sluice was not running, or its timers fell behind); running once to catch up`,
      });
    }
    if (payload.overrunSkipped) {
      notes.push({
        ts: firedAt,
        level: "warn",
        message: `timer: ${payload.overrunSkipped} tick(s) skipped because the previous run outlasted its interval`,
      });
    }
    // The tick's end and the next tick go in the run's own commit, as one write (on PostgreSQL
    // in the commit's one statement): the tick's row, due again at the first free slot after the
    // run. If the source was deactivated or deleted during the run, its tick is gone and the
    // write changes nothing, so no next tick is scheduled.
    const scheduleNext = () => {
      const after = nextAfterRun(schedule, job.runAt, Date.now());
      const overrunSkipped = after.skipped - downtime;
      const payload: TickPayload =
        overrunSkipped > 0 ? { sourceId: source.id, overrunSkipped } : { sourceId: source.id };
      return [store.jobs.rescheduleWrite(job, { runAt: after.next, payload })];
    };
    await invokeSource(context, source, {
      method: "run",
      event: tickEvent(schedule, slot),
      notes,
      alsoWrites: scheduleNext,
    });
  };

  const loop = createClaimLoop(
    { store, queue: TIMER_QUEUE, topic: TIMERS_TOPIC, concurrency, pollMs, onError },
    {
      claimed(jobs) {
        for (const job of jobs) void loop.run(job, () => fire(job));
      },
    },
  );

  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
  };
}

/**
 * The loop every queue worker runs (deliveries, timer ticks, workflow runs): claim the due jobs
 * of one queue under a lease, hand them to the worker, sleep until the next is due or until woken
 * (a job finished, or the notifier announced new ones), again. What differs between the workers
 * comes in as hooks and options: groups to leave out of a claim (a webhook at its cap, a workflow
 * with no free slot here), a cap per group held across nodes (the claim counts the group's
 * leased jobs), a time at which to look again although nothing is due (a rate gate reopening).
 *
 * While jobs that were due at the last look at the whole queue still wait (held back: their group
 * at its cap, say), a claim woken only by announcements of new jobs that name their groups (the
 * webhooks of new deliveries) takes jobs of those groups only, read group by group, so it costs
 * the same however long the waiting backlog is. Every other look is at the whole queue: the
 * first, one after a job ends (a place was freed), one when the sleep runs out (a job came due, a
 * poll), one for an announcement without groups (another node's), at least one every `pollMs`,
 * and every claim while nothing due waits (then the whole queue is as cheap to read, and its
 * statement is the simpler one to plan).
 *
 * Leases are short and renewed by a heartbeat: every job the worker holds (running, or waiting in
 * memory for its turn) has its lease pushed out every quarter of LEASE_MS in one statement, so a node that dies frees
 * its jobs within LEASE_MS, while a slow run on a living node keeps its own. Jobs whose work
 * failed on the database (it went away) are put back in the queue once it answers again.
 */
import type { ClaimedJob, GroupLimitColumn, Lease } from "../../store/jobs/contract.js";
import type { Store } from "../../store/store.js";
import { createStrandedJobs } from "./stranded-jobs.js";
import { createWakeableSleep } from "./wakeable-sleep.js";

/** How long a claim holds a job without a heartbeat: a dead node's jobs are free again after it. */
export const LEASE_MS = 6_000;
/** Jobs claimed in one statement at most. */
const MAX_CLAIM = 100;

export interface ClaimLoopHooks {
  /** Groups to leave out of the claim about to be made. */
  readonly excludeGroups?: (now: number) => readonly string[];
  /** The jobs of one claim (held, their leases renewed), for the worker to start (`loop.run`) or keep. */
  readonly claimed: (jobs: readonly ClaimedJob[], claimedAt: number) => Promise<void> | void;
  /** Epoch ms at which to look again even if nothing is due (a rate-limited group may go again). */
  readonly nextChange?: (claimedAt: number) => number;
  /**
   * Whether a claim could take a job of one of `groups` now, asked when the notifier announces
   * new jobs of them on this node. False lets the wake pass: the worker takes those jobs another
   * way (a webhook at its cap here hands each place on to its next job: delivery-worker.ts).
   */
  readonly claimable?: (groups: readonly string[]) => boolean;
}

export interface ClaimLoopOptions {
  readonly store: Store;
  readonly queue: string;
  /** The notifier topic announcing new jobs of the queue (on this node and the others). */
  readonly topic: string;
  /** Jobs held at once (running and kept) beyond which nothing more is claimed. */
  readonly concurrency: number;
  /** Jobs of one group in flight at once on every node together (store/jobs/contract.ts `groupLimit`). */
  readonly groupLimit?: number | GroupLimitColumn;
  /** The longest sleep between looks at the queue. */
  readonly pollMs?: number;
  /** What to read with each job in the claim's statement (store/jobs/contract.ts `ClaimOptions.readAlong`). */
  readonly readAlong?: string;
  /** How long a claim holds without renewal (LEASE_MS); renewed every quarter of it. */
  readonly leaseMs?: number;
  readonly onError?: (error: unknown) => void;
}

export interface ClaimLoop {
  start(): void;
  /** Stops claiming, then waits for the runs in flight to end. */
  stop(): Promise<void>;
  /** True until stop is called. */
  readonly running: boolean;
  /**
   * Runs the work of a held job: its lease is renewed until the work ends. A failure on the
   * database puts the job back in the queue once it answers; any failure goes to `onError`.
   */
  run(job: Lease & { readonly runAt?: number }, work: () => Promise<unknown>): Promise<void>;
  /**
   * Runs `next` (already leased: a worker took it with `from`'s end) in the place `from` held,
   * from within `from`'s work: the end of `from` then wakes no claim, since no place was freed.
   */
  pass(from: Lease, next: Lease & { readonly runAt?: number }, work: () => Promise<unknown>): Promise<void>;
  /**
   * Says, from within a held job's work, that no due job waits for the place it frees: its
   * group had none left when it ended (the worker looked, in the job's last statement). Its end
   * then wakes no claim, unless the loop was full, when due jobs of other groups may be waiting
   * for room. A job enqueued later announces itself (the notifier), so none is left behind.
   */
  noneWaiting(job: Lease): void;
  /** True while the loop holds fewer jobs than its concurrency: a freed place would be claimed. */
  readonly hasRoom: boolean;
  /** The end of the job's lease as last renewed (epoch ms), or undefined once it is not held. */
  heldUntil(job: Lease): number | undefined;
}

export function createClaimLoop(options: ClaimLoopOptions, hooks: ClaimLoopHooks): ClaimLoop {
  const { store, queue } = options;
  const pollMs = options.pollMs ?? 1000;
  const leaseMs = options.leaseMs ?? LEASE_MS;
  const onError = options.onError ?? (() => {});
  const stranded = createStrandedJobs(store.jobs);
  const pause = createWakeableSleep();
  const { sleep, wake, forget } = pause;
  /** Every job held, with its lease's end as last renewed. */
  const held = new Map<string, { lease: Lease; until: number }>();
  const tasks = new Set<Promise<void>>();
  /** Jobs whose place went to a job they took (`pass`): their end frees nothing to claim. */
  const passed = new Set<string>();
  /** Jobs whose end frees a place no due job waits for (`noneWaiting`). */
  const unwanted = new Set<string>();
  /** Groups whose new jobs were announced since the last claim: what a targeted claim takes. */
  const announced = new Set<string>();
  /** The next claim looks at the whole queue, not only at the announced groups. */
  let wholeQueue = true;
  /** When the last claim of the whole queue was made (epoch ms). */
  let wholeClaimedAt = 0;
  /** Jobs due at the last claim of the whole queue still waited when the loop last looked. */
  let heldBack = false;
  let running = false;
  let loop: Promise<void> | undefined;
  let heartbeat: NodeJS.Timeout | undefined;
  let unsubscribe: (() => void) | undefined;

  const hold = (job: Lease) => {
    held.set(job.id, { lease: job, until: Date.now() + leaseMs });
  };

  const renew = async () => {
    if (held.size === 0) return;
    const leases = [...held.values()].map((entry) => entry.lease);
    const until = Date.now() + leaseMs;
    const kept = await store.jobs.extendLeases(leases, leaseMs);
    for (const lease of leases) {
      const entry = held.get(lease.id);
      if (entry?.lease === lease && kept.has(lease.id)) entry.until = until;
    }
  };

  const claimOnce = async (): Promise<void> => {
    // What woke the loop before this look is seen by it; a wake from now on ends the next sleep.
    forget();
    await stranded.release();
    const free = options.concurrency - tasks.size;
    const claimedAt = Date.now();
    const excluded = hooks.excludeGroups?.(claimedAt) ?? [];
    /** The queue's next due time as read with the claim (PostgreSQL), or undefined. */
    let nextRunAt: number | null | undefined;
    if (free > 0) {
      const limit = Math.min(free, MAX_CLAIM);
      const whole = wholeQueue || !heldBack || announced.size === 0 || claimedAt - wholeClaimedAt >= pollMs;
      const onlyGroups = whole ? undefined : [...announced];
      wholeQueue = false;
      announced.clear();
      if (whole) wholeClaimedAt = claimedAt;
      // Every announced group is left out (at its cap here since it was announced, say): nothing
      // to take, and no statement to plan for it. The sleep below ends at the next whole look.
      if (onlyGroups?.every((group) => excluded.includes(group))) {
        if (!pause.woken) await rest(claimedAt, pollMs);
        return;
      }
      const claim = await store.jobs.claimDueThenNext({
        queue,
        limit,
        leaseMs,
        excludeGroups: excluded,
        ...(onlyGroups ? { onlyGroups } : {}),
        ...(options.groupLimit === undefined ? {} : { groupLimit: options.groupLimit }),
        ...(options.readAlong === undefined ? {} : { readAlong: options.readAlong }),
      });
      const { jobs } = claim;
      nextRunAt = claim.nextRunAt;
      if (nextRunAt !== undefined) heldBack = nextRunAt !== null && nextRunAt <= wholeClaimedAt;
      for (const job of jobs) hold(job);
      await hooks.claimed(jobs, claimedAt);
      if (jobs.length === limit) {
        wholeQueue = true;
        return;
      }
    }
    // Woken while it claimed (new jobs announced, a job ended): look again at once, without
    // asking when the next job is due. Under load that is most looks, and it saves a query each.
    if (pause.woken) return;
    // Sleep until the next job is due, a job ends (a slot frees), the worker's next change, or new
    // jobs are announced (also while this loop was awake: the sleep then ends at once). A job due
    // already at the last claim of the whole queue was held back (its group at its cap here or on
    // another node, left out, or locked by another claimer): a job ending or the poll brings it.
    // One that became due since is claimed now: a targeted claim may not have looked at its group.
    // (A job another node holds counts as due when its lease ends.)
    const now = Date.now();
    // Read with the claim on PostgreSQL (one round trip for both); asked now elsewhere.
    const next = nextRunAt !== undefined ? nextRunAt : await store.jobs.nextRunAt(queue);
    heldBack = next !== null && next <= wholeClaimedAt;
    const dueUnseen = next !== null && next <= now && next > wholeClaimedAt;
    if (dueUnseen) wholeQueue = true;
    const untilDue = next === null ? pollMs : next > now ? next - now : dueUnseen ? 0 : pollMs;
    await rest(claimedAt, untilDue);
  };

  /**
   * Sleeps until woken, `untilDue` ms have passed, the worker's next change, or the next look at
   * the whole queue, whichever comes first.
   */
  const rest = async (claimedAt: number, untilDue: number): Promise<void> => {
    const now = Date.now();
    // Measured from the claim: a group held back then may have reopened since.
    const untilChange = hooks.nextChange ? hooks.nextChange(claimedAt) - now : pollMs;
    const untilWhole = wholeClaimedAt + pollMs - now;
    const woken = await sleep(Math.max(1, Math.min(pollMs, untilDue, untilChange, untilWhole)));
    // The time ran out: a job came due, a group reopened, or it is time to look at everything.
    if (!woken) wholeQueue = true;
  };

  const cycle = async () => {
    while (running) {
      try {
        await claimOnce();
      } catch (error) {
        onError(error);
        wholeQueue = true;
        await sleep(pollMs);
      }
    }
  };

  const run = (job: Lease, work: () => Promise<unknown>): Promise<void> => {
    if (!held.has(job.id)) hold(job);
    const task: Promise<void> = work()
      .then(
        () => {},
        (error: unknown) => {
          stranded.keepIfStranded(job, error);
          onError(error);
        },
      )
      .finally(() => {
        const full = tasks.size >= options.concurrency;
        held.delete(job.id);
        tasks.delete(task);
        const wasPassed = passed.delete(job.id);
        const wasUnwanted = unwanted.delete(job.id);
        if (!wasPassed && (!wasUnwanted || full)) {
          // A freed place may go to a job of any group.
          wholeQueue = true;
          wake();
        }
      });
    tasks.add(task);
    return task;
  };

  return {
    start() {
      if (running) return;
      running = true;
      unsubscribe = store.notifier.subscribe(options.topic, (groups) => {
        if (groups === undefined) wholeQueue = true;
        else if (hooks.claimable?.(groups) === false) return;
        else for (const group of groups) announced.add(group);
        wake();
      });
      heartbeat = setInterval(() => void renew().catch(onError), leaseMs / 4);
      heartbeat.unref();
      loop = cycle();
    },
    async stop() {
      running = false;
      unsubscribe?.();
      wake();
      await loop;
      // A job's work may have passed its place to another (`pass`) before it ended: wait for that one too.
      while (tasks.size > 0) await Promise.allSettled([...tasks]);
      clearInterval(heartbeat);
      await stranded.release().catch(onError);
    },
    get running() {
      return running;
    },
    run(job, work) {
      return run(job, work);
    },
    pass(from, next, work) {
      passed.add(from.id);
      return run(next, work);
    },
    noneWaiting(job) {
      if (held.has(job.id)) unwanted.add(job.id);
    },
    get hasRoom() {
      return tasks.size < options.concurrency;
    },
    heldUntil(job) {
      return held.get(job.id)?.until;
    },
  };
}

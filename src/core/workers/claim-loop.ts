/**
 * The loop every queue worker runs (deliveries, timer ticks, workflow runs): claim due jobs under a
 * lease, hand them to the worker, sleep until the next is due or until woken, again. Workers differ
 * by hooks: groups to leave out, a cap per group across nodes, a time to look again. Leases are
 * renewed by a heartbeat; jobs stranded by a database outage go back once it answers. Its
 * invariants (leases, wake-ups, claims of named groups): store/jobs/ARCHITECTURE.md.
 */
import type { ClaimedJob, GroupLimitColumn, Lease, ReadAlong } from "../../store/jobs/contract.js";
import type { Store } from "../../store/store.js";
import { createStrandedJobs, type StrandedJobs } from "./stranded-jobs.js";
import { createWakeableSleep, type WakeableSleep } from "./wakeable-sleep.js";

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
  readonly readAlong?: ReadAlong;
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
  return new QueueClaimLoop(options, hooks);
}

/** The loop of one queue on this node: what it holds, and what it was told since its last claim. */
class QueueClaimLoop implements ClaimLoop {
  private readonly pollMs: number;
  private readonly leaseMs: number;
  private readonly onError: (error: unknown) => void;
  private readonly stranded: StrandedJobs;
  private readonly pause: WakeableSleep = createWakeableSleep();
  /** Every job held, with its lease's end as last renewed. */
  private readonly held = new Map<string, { lease: Lease; until: number }>();
  private readonly tasks = new Set<Promise<void>>();
  /** Jobs whose place went to a job they took (`pass`): their end frees nothing to claim. */
  private readonly passed = new Set<string>();
  /** Jobs whose end frees a place no due job waits for (`noneWaiting`). */
  private readonly unwanted = new Set<string>();
  /** Groups whose new jobs were announced since the last claim: what a targeted claim takes. */
  private readonly announced = new Set<string>();
  /** The next claim looks at the whole queue, not only at the announced groups. */
  private wholeQueue = true;
  /** When the last claim of the whole queue was made (epoch ms). */
  private wholeClaimedAt = 0;
  /** Jobs due at the last claim of the whole queue still waited when the loop last looked. */
  private heldBack = false;
  private started = false;
  private cycling: Promise<void> | undefined;
  private heartbeat: NodeJS.Timeout | undefined;
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly options: ClaimLoopOptions,
    private readonly hooks: ClaimLoopHooks,
  ) {
    this.pollMs = options.pollMs ?? 1000;
    this.leaseMs = options.leaseMs ?? LEASE_MS;
    this.onError = options.onError ?? (() => {});
    this.stranded = createStrandedJobs(options.store.jobs);
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.unsubscribe = this.options.store.notifier.subscribe(this.options.topic, (groups) => {
      if (groups === undefined) this.wholeQueue = true;
      else if (this.hooks.claimable?.(groups) === false) return;
      else for (const group of groups) this.announced.add(group);
      this.pause.wake();
    });
    this.heartbeat = setInterval(() => void this.renew().catch(this.onError), this.leaseMs / 4);
    this.heartbeat.unref();
    this.cycling = this.cycle();
  }

  async stop(): Promise<void> {
    this.started = false;
    this.unsubscribe?.();
    this.pause.wake();
    await this.cycling;
    // A job's work may have passed its place to another (`pass`) before it ended: wait for that one too.
    while (this.tasks.size > 0) await Promise.allSettled([...this.tasks]);
    clearInterval(this.heartbeat);
    await this.stranded.release().catch(this.onError);
  }

  get running(): boolean {
    return this.started;
  }

  get hasRoom(): boolean {
    return this.tasks.size < this.options.concurrency;
  }

  heldUntil(job: Lease): number | undefined {
    return this.held.get(job.id)?.until;
  }

  pass(from: Lease, next: Lease & { readonly runAt?: number }, work: () => Promise<unknown>): Promise<void> {
    this.passed.add(from.id);
    return this.run(next, work);
  }

  noneWaiting(job: Lease): void {
    if (this.held.has(job.id)) this.unwanted.add(job.id);
  }

  run(job: Lease & { readonly runAt?: number }, work: () => Promise<unknown>): Promise<void> {
    if (!this.held.has(job.id)) this.hold(job);
    const task: Promise<void> = work()
      .then(
        () => {},
        (error: unknown) => {
          this.stranded.keepIfStranded(job, error);
          this.onError(error);
        },
      )
      .finally(() => {
        const full = this.tasks.size >= this.options.concurrency;
        this.held.delete(job.id);
        this.tasks.delete(task);
        const wasPassed = this.passed.delete(job.id);
        const wasUnwanted = this.unwanted.delete(job.id);
        if (!wasPassed && (!wasUnwanted || full)) {
          // A freed place may go to a job of any group.
          this.wholeQueue = true;
          this.pause.wake();
        }
      });
    this.tasks.add(task);
    return task;
  }

  private hold(job: Lease): void {
    this.held.set(job.id, { lease: job, until: Date.now() + this.leaseMs });
  }

  private async renew(): Promise<void> {
    if (this.held.size === 0) return;
    const leases = [...this.held.values()].map((entry) => entry.lease);
    const until = Date.now() + this.leaseMs;
    const kept = await this.options.store.jobs.extendLeases(leases, this.leaseMs);
    for (const lease of leases) {
      const entry = this.held.get(lease.id);
      if (entry?.lease === lease && kept.has(lease.id)) entry.until = until;
    }
  }

  private async cycle(): Promise<void> {
    while (this.started) {
      try {
        await this.claimOnce();
      } catch (error) {
        this.onError(error);
        this.wholeQueue = true;
        await this.pause.sleep(this.pollMs);
      }
    }
  }

  /** One look at the queue: claims what there is room for, then sleeps unless woken meanwhile. */
  private async claimOnce(): Promise<void> {
    // What woke the loop before this look is seen by it; a wake from now on ends the next sleep.
    this.pause.forget();
    await this.stranded.release();
    const free = this.options.concurrency - this.tasks.size;
    const claimedAt = Date.now();
    const excluded = this.hooks.excludeGroups?.(claimedAt) ?? [];
    /** The queue's next due time as read with the claim (PostgreSQL), or undefined. */
    let nextRunAt: number | null | undefined;
    if (free > 0) {
      const claimed = await this.claim(Math.min(free, MAX_CLAIM), claimedAt, excluded);
      if (claimed === undefined) return;
      nextRunAt = claimed.nextRunAt;
    }
    // Woken while it claimed (new jobs announced, a job ended): look again at once, without
    // asking when the next job is due. Under load that is most looks, and it saves a query each.
    if (this.pause.woken) return;
    await this.sleepUntilNext(claimedAt, nextRunAt);
  }

  /**
   * Claims up to `limit` jobs, of the announced groups only while held-back jobs wait and the whole
   * queue was read within `pollMs`, else of the whole queue. Undefined when this look is over: the
   * claim took all it could, or every announced group is left out (the loop then rested).
   */
  private async claim(
    limit: number,
    claimedAt: number,
    excluded: readonly string[],
  ): Promise<{ readonly nextRunAt: number | null | undefined } | undefined> {
    const whole =
      this.wholeQueue ||
      !this.heldBack ||
      this.announced.size === 0 ||
      claimedAt - this.wholeClaimedAt >= this.pollMs;
    const onlyGroups = whole ? undefined : [...this.announced];
    this.wholeQueue = false;
    this.announced.clear();
    if (whole) this.wholeClaimedAt = claimedAt;
    // Every announced group is left out (at its cap here since it was announced, say): nothing
    // to take, and no statement to plan for it. The sleep below ends at the next whole look.
    if (onlyGroups?.every((group) => excluded.includes(group))) {
      if (!this.pause.woken) await this.rest(claimedAt, this.pollMs);
      return undefined;
    }
    const { options } = this;
    const { jobs, nextRunAt } = await options.store.jobs.claimDueThenNext({
      queue: options.queue,
      limit,
      leaseMs: this.leaseMs,
      excludeGroups: excluded,
      ...(onlyGroups ? { onlyGroups } : {}),
      ...(options.groupLimit === undefined ? {} : { groupLimit: options.groupLimit }),
      ...(options.readAlong === undefined ? {} : { readAlong: options.readAlong }),
    });
    if (nextRunAt !== undefined) this.heldBack = nextRunAt !== null && nextRunAt <= this.wholeClaimedAt;
    for (const job of jobs) this.hold(job);
    await this.hooks.claimed(jobs, claimedAt);
    if (jobs.length === limit) {
      this.wholeQueue = true;
      return undefined;
    }
    return { nextRunAt };
  }

  /**
   * Sleeps until the next job is due, a job ends, the worker's next change, or new jobs are
   * announced. `nextRunAt` is the next due time read with the claim (PostgreSQL), else asked here.
   */
  private async sleepUntilNext(claimedAt: number, nextRunAt: number | null | undefined): Promise<void> {
    const now = Date.now();
    const next =
      nextRunAt !== undefined ? nextRunAt : await this.options.store.jobs.nextRunAt(this.options.queue);
    // A job due already at the last whole claim was held back (its group at its cap, left out, or
    // locked by another claimer): a job's end or the poll brings it. One due since is claimed now,
    // since a targeted claim may not have looked at its group.
    this.heldBack = next !== null && next <= this.wholeClaimedAt;
    const dueUnseen = next !== null && next <= now && next > this.wholeClaimedAt;
    if (dueUnseen) this.wholeQueue = true;
    const untilDue = next === null ? this.pollMs : next > now ? next - now : dueUnseen ? 0 : this.pollMs;
    await this.rest(claimedAt, untilDue);
  }

  /**
   * Sleeps until woken, `untilDue` ms have passed, the worker's next change, or the next look at
   * the whole queue, whichever comes first.
   */
  private async rest(claimedAt: number, untilDue: number): Promise<void> {
    const now = Date.now();
    // Measured from the claim: a group held back then may have reopened since.
    const untilChange = this.hooks.nextChange ? this.hooks.nextChange(claimedAt) - now : this.pollMs;
    const untilWhole = this.wholeClaimedAt + this.pollMs - now;
    const woken = await this.pause.sleep(
      Math.max(1, Math.min(this.pollMs, untilDue, untilChange, untilWhole)),
    );
    // The time ran out: a job came due, a group reopened, or it is time to look at everything.
    if (!woken) this.wholeQueue = true;
  }
}

/**
 * The delivery worker: claims due delivery jobs under a lease, sends each, records the attempt,
 * and completes the job or reschedules it, in one transaction with the delivery's new state.
 *
 * Isolation: each webhook has a cap on deliveries in flight on this node, and one at its cap (or
 * held back by its rate limit) is left out of the next claims, so a hanging or dead endpoint
 * never takes the slots of healthy ones. A worker that dies lets its leases expire; the jobs are
 * claimed again: delivery is at-least-once.
 */
import type { Dispatcher } from "undici";
import type { ClaimedJob } from "../../store/jobs.js";
import type { Store } from "../../store/store.js";
import type { Metrics } from "../metrics.js";
import type { AddressPolicy } from "../outbound/ssrf-guard.js";
import type { SecretBox } from "../secret-box.js";
import { retryWhileDatabaseRecovers } from "../workers/database-retry.js";
import { createStrandedJobs } from "../workers/stranded-jobs.js";
import { createWakeableSleep } from "../workers/wakeable-sleep.js";
import { DELIVERIES_TOPIC, DELIVERY_QUEUE, type DeliveryJob } from "./enqueue.js";
import { RateGate } from "./rate-gate.js";
import { nextRetryDelayMs, parseRetryAfter } from "./retry-policy.js";
import { DELIVERY_TIMEOUT_MS, type DeliveryOutcome, sendDelivery } from "./send.js";

/** A webhook that has failed for this long without a success is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;
const LEASE_MS = DELIVERY_TIMEOUT_MS * 2 + 10_000;
/** A job claimed beyond its webhook's cap waits this long in memory for a slot, then goes back to the queue. */
const PARK_MS = 5_000;
/** A rate-limited delivery waits in memory for its turn this long at most, then goes back to the queue. */
const RATE_WAIT_MS = 10_000;
/** Recording an attempt stops being retried this long before the claim expires (and another may take it). */
const RECORD_MARGIN_MS = 2_000;

export interface DeliveryWorkerOptions {
  readonly store: Store;
  readonly secrets: SecretBox;
  readonly policy: AddressPolicy;
  readonly dispatcher: Dispatcher;
  readonly retryScheduleSeconds: readonly number[];
  readonly metrics?: Metrics;
  /** Deliveries in flight on this node. */
  readonly concurrency?: number;
  /** Deliveries in flight per webhook on this node. */
  readonly perWebhookInFlight?: number;
  readonly pollMs?: number;
  readonly onError?: (error: unknown) => void;
}

export interface DeliveryWorker {
  start(): void;
  stop(): Promise<void>;
}

export function createDeliveryWorker(options: DeliveryWorkerOptions): DeliveryWorker {
  const { store } = options;
  const concurrency = options.concurrency ?? 64;
  const perWebhook = options.perWebhookInFlight ?? 8;
  const pollMs = options.pollMs ?? 1000;
  const onError = options.onError ?? (() => {});
  const gate = new RateGate();
  const inFlight = new Set<Promise<void>>();
  const busy = new Map<string, number>();
  /** Per webhook, jobs claimed beyond its cap, oldest first: they keep their leases while parked. */
  const parked = new Map<string, { job: ClaimedJob; at: number }[]>();
  const stranded = createStrandedJobs(store.jobs);
  let running = false;
  let loop: Promise<void> | undefined;
  let unsubscribe: (() => void) | undefined;

  const { sleep, wake } = createWakeableSleep();

  const excludedGroups = (now: number): string[] => {
    const excluded = [...busy].filter(([, count]) => count >= perWebhook).map(([webhookId]) => webhookId);
    return [...excluded, ...gate.heldBack(now)];
  };

  const deliver = async (job: ClaimedJob): Promise<void> => {
    const { deliveryId, manual } = job.payload as DeliveryJob;
    const row = await store.db
      .selectFrom("deliveries")
      .innerJoin("webhooks", "webhooks.id", "deliveries.webhook_id")
      .select([
        "deliveries.id",
        "deliveries.webhook_id",
        "deliveries.emitter_id",
        "deliveries.event_id",
        "deliveries.channel",
        "deliveries.payload",
        "deliveries.status",
        "deliveries.attempts",
        "webhooks.url",
        "webhooks.active",
        "webhooks.signing_secret",
        "webhooks.previous_secret",
        "webhooks.previous_secret_expires_at",
        "webhooks.rate_limit",
        "webhooks.failing_since",
      ])
      .where("deliveries.id", "=", deliveryId)
      .executeTakeFirst();
    if (row?.status !== "pending") {
      await store.jobs.complete(job);
      return;
    }
    if (row.active !== 1) {
      await finish(job, row.id, {
        status: "failed",
        error: "the webhook is disabled; re-enable it and recover its deliveries",
      });
      return;
    }
    if (row.rate_limit !== null) {
      // Waits for its turn in memory (at most perWebhook deliveries of the webhook do), so a burst
      // costs no database writes; one that would wait too long goes back to the queue instead.
      const waitUntil = Date.now() + RATE_WAIT_MS;
      for (;;) {
        const now = Date.now();
        const wait = gate.reserve(row.webhook_id, row.rate_limit, now);
        if (wait === 0) break;
        if (!running || now + wait > waitUntil) {
          // Not this one's turn yet: back in the queue, not an attempt.
          await store.jobs.fail(job, { error: "rate limited", retryAt: now + wait });
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, wait));
      }
    }

    const now = Date.now();
    const secrets = [options.secrets.decrypt(row.signing_secret)];
    if (row.previous_secret && Number(row.previous_secret_expires_at) > now) {
      secrets.push(options.secrets.decrypt(row.previous_secret));
    }
    const attempt = row.attempts + 1;
    const outcome = await sendDelivery(
      {
        url: row.url,
        messageId: `${row.emitter_id}-${row.event_id}`,
        payload: row.payload,
        secrets,
        emitterId: row.emitter_id,
        channel: row.channel,
        attempt,
      },
      options.dispatcher,
      options.policy,
    );
    await record(job, row, attempt, outcome, manual === true);
  };

  const record = async (
    job: ClaimedJob,
    row: { id: string; webhook_id: string; failing_since: number | null },
    attempt: number,
    outcome: DeliveryOutcome,
    manual: boolean,
  ): Promise<void> => {
    const now = Date.now();
    const gone = outcome.statusCode === 410;
    const failingSince = outcome.ok ? null : row.failing_since === null ? now : Number(row.failing_since);
    const disable = gone
      ? "the endpoint answered 410 Gone"
      : !outcome.ok && now - (failingSince ?? now) >= DISABLE_AFTER_FAILING_MS
        ? "every delivery failed for 5 days"
        : null;
    const delay =
      outcome.ok || gone || disable || manual
        ? null
        : nextRetryDelayMs(
            options.retryScheduleSeconds,
            attempt,
            outcome.statusCode === 429 || outcome.statusCode === 503
              ? parseRetryAfter(outcome.retryAfter, now)
              : null,
          );
    const status = outcome.ok ? "delivered" : delay === null ? "failed" : "pending";
    options.metrics?.deliveryAttempt(
      outcome.ok
        ? "delivered"
        : disable
          ? "disabled"
          : outcome.error?.startsWith("refused:")
            ? "blocked"
            : delay === null
              ? "exhausted"
              : "failed_attempt",
      outcome.latencyMs,
    );

    // The attempt happened: its record is kept trying while the database recovers.
    const written = async () => {
      await store.db.transaction().execute(async (tx) => {
        await tx
          .insertInto("delivery_attempts")
          .values({
            delivery_id: row.id,
            attempt,
            at: now,
            status_code: outcome.statusCode,
            latency_ms: outcome.latencyMs,
            error: outcome.error,
            response_body: outcome.responseBody,
          })
          .onConflict((conflict) => conflict.columns(["delivery_id", "attempt"]).doNothing())
          .execute();
        await tx
          .updateTable("deliveries")
          .set({
            status,
            attempts: attempt,
            last_status_code: outcome.statusCode,
            last_error: outcome.error,
            last_latency_ms: outcome.latencyMs,
            next_attempt_at: delay === null ? null : now + delay,
            updated_at: now,
          })
          .where("id", "=", row.id)
          .execute();
        // The webhook's row is written only when its failure state changes: every delivery to it
        // writing the same row would serialize them (PostgreSQL row locks) for nothing.
        if (disable) {
          await tx
            .updateTable("webhooks")
            .set({ failing_since: failingSince, active: 0, disabled_reason: disable, updated_at: now })
            .where("id", "=", row.webhook_id)
            .execute();
        } else if (outcome.ok) {
          await tx
            .updateTable("webhooks")
            .set({ failing_since: null })
            .where("id", "=", row.webhook_id)
            .where("failing_since", "is not", null)
            .execute();
        } else {
          await tx
            .updateTable("webhooks")
            .set({ failing_since: now })
            .where("id", "=", row.webhook_id)
            .where("failing_since", "is", null)
            .execute();
        }
        if (delay === null) await store.jobs.complete(job, tx);
      });
      if (delay !== null)
        await store.jobs.fail(job, { error: outcome.error ?? "failed", retryAt: now + delay });
    };
    await retryWhileDatabaseRecovers(written, {
      until: job.lockedUntil - RECORD_MARGIN_MS,
      keepTrying: () => running,
      onFirstFailure: (error) => onError(error),
    });
  };

  const finish = async (job: ClaimedJob, deliveryId: string, result: { status: "failed"; error: string }) => {
    await store.db.transaction().execute(async (tx) => {
      await tx
        .updateTable("deliveries")
        .set({
          status: result.status,
          last_error: result.error,
          next_attempt_at: null,
          updated_at: Date.now(),
        })
        .where("id", "=", deliveryId)
        .execute();
      await store.jobs.complete(job, tx);
    });
  };

  const launch = (job: ClaimedJob): void => {
    const group = job.groupKey ?? "";
    busy.set(group, (busy.get(group) ?? 0) + 1);
    const task = deliver(job)
      .catch((error: unknown) => {
        stranded.keepIfStranded(job, error);
        onError(error);
      })
      .finally(() => {
        const left = (busy.get(group) ?? 1) - 1;
        if (left > 0) busy.set(group, left);
        else busy.delete(group);
        inFlight.delete(task);
        if (running) unpark(group);
        wake();
      });
    inFlight.add(task);
  };

  /** Starts the webhook's parked jobs while it is under its cap. */
  const unpark = (group: string): void => {
    const waiting = parked.get(group);
    while (waiting && waiting.length > 0 && (busy.get(group) ?? 0) < perWebhook) {
      launch((waiting.shift() as { job: ClaimedJob }).job);
    }
    if (waiting?.length === 0) parked.delete(group);
  };

  /** Parked jobs that waited PARK_MS (or all of them) go back to the queue, in their place. */
  const releaseParked = async (now: number, all: boolean): Promise<void> => {
    const released: ClaimedJob[] = [];
    for (const [group, waiting] of parked) {
      while (waiting.length > 0 && (all || now - (waiting[0]?.at ?? now) >= PARK_MS)) {
        released.push((waiting.shift() as { job: ClaimedJob }).job);
      }
      if (waiting.length === 0) parked.delete(group);
    }
    await Promise.all(
      released.map((job) =>
        store.jobs.fail(job, {
          error: "left for later: the webhook had its maximum in flight",
          retryAt: job.runAt,
        }),
      ),
    );
  };

  const run = async () => {
    while (running) {
      try {
        await stranded.release();
        await releaseParked(Date.now(), false);
        const free = concurrency - inFlight.size;
        const claimedAt = Date.now();
        const excluded = excludedGroups(claimedAt);
        if (free > 0) {
          const jobs = await store.jobs.claimDue({
            queue: DELIVERY_QUEUE,
            limit: Math.min(free, 100),
            leaseMs: LEASE_MS,
            excludeGroups: excluded,
          });
          // One claim can return many jobs of one webhook: those beyond its cap are parked until
          // it has a free slot, so a dead endpoint never holds more than its share of the pool.
          for (const job of jobs) {
            const group = job.groupKey ?? "";
            if ((busy.get(group) ?? 0) < perWebhook) {
              launch(job);
              continue;
            }
            const waiting = parked.get(group) ?? [];
            waiting.push({ job, at: claimedAt });
            parked.set(group, waiting);
          }
          if (jobs.length > 0 && jobs.length === Math.min(free, 100)) continue;
        }
        // Sleep until the next job is due, a delivery finishes (a busy webhook frees a slot), a
        // rate-limited webhook may send again, or new deliveries are announced. A job already due
        // was either left out of the claim (a finished delivery or the gate wakes us) or became
        // due after it (claim it now).
        const now = Date.now();
        const next = await store.jobs.nextRunAt(DELIVERY_QUEUE);
        const restricted = free <= 0 || excluded.length > 0;
        const untilDue = next === null ? pollMs : next > now ? next - now : restricted ? pollMs : 0;
        // Measured from the claim: a webhook held back then may have reopened since.
        const untilGate = gate.nextChange(claimedAt) - (Date.now() - claimedAt);
        await sleep(Math.max(1, Math.min(pollMs, untilDue, untilGate)));
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
      unsubscribe = store.notifier.subscribe(DELIVERIES_TOPIC, () => wake());
      loop = run();
    },
    async stop() {
      running = false;
      unsubscribe?.();
      wake();
      await loop;
      await releaseParked(Date.now(), true).catch(onError);
      await Promise.allSettled([...inFlight]);
      await stranded.release().catch(onError);
    },
  };
}

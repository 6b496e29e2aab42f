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
import { DELIVERIES_TOPIC, DELIVERY_QUEUE, type DeliveryJob } from "./enqueue.js";
import { RateGate } from "./rate-gate.js";
import { nextRetryDelayMs, parseRetryAfter } from "./retry-policy.js";
import { DELIVERY_TIMEOUT_MS, type DeliveryOutcome, sendDelivery } from "./send.js";

/** A webhook that has failed for this long without a success is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;
const LEASE_MS = DELIVERY_TIMEOUT_MS * 2 + 10_000;

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
  let running = false;
  let loop: Promise<void> | undefined;
  let wake: (() => void) | undefined;
  let unsubscribe: (() => void) | undefined;

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        wake = undefined;
        resolve();
      }
      wake = done;
    });

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
      const wait = gate.reserve(row.webhook_id, row.rate_limit, Date.now());
      if (wait > 0) {
        // Not this one's turn yet: back in the queue, not an attempt.
        await store.jobs.fail(job, { error: "rate limited", retryAt: Date.now() + wait });
        return;
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
      await tx
        .updateTable("webhooks")
        .set(
          disable
            ? { failing_since: failingSince, active: 0, disabled_reason: disable, updated_at: now }
            : { failing_since: failingSince },
        )
        .where("id", "=", row.webhook_id)
        .execute();
      if (delay === null) await store.jobs.complete(job, tx);
    });
    if (delay !== null)
      await store.jobs.fail(job, { error: outcome.error ?? "failed", retryAt: now + delay });
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

  const run = async () => {
    while (running) {
      try {
        const free = concurrency - inFlight.size;
        if (free > 0) {
          const jobs = await store.jobs.claimDue({
            queue: DELIVERY_QUEUE,
            limit: Math.min(free, 100),
            leaseMs: LEASE_MS,
            excludeGroups: excludedGroups(Date.now()),
          });
          for (const job of jobs) {
            const group = job.groupKey ?? "";
            busy.set(group, (busy.get(group) ?? 0) + 1);
            const task = deliver(job)
              .catch(onError)
              .finally(() => {
                const left = (busy.get(group) ?? 1) - 1;
                if (left > 0) busy.set(group, left);
                else busy.delete(group);
                inFlight.delete(task);
                wake?.();
              });
            inFlight.add(task);
          }
          if (jobs.length > 0 && jobs.length === Math.min(free, 100)) continue;
        }
        // Sleep until the next job is due, a delivery finishes (a busy webhook frees a slot), a
        // rate-limited webhook may send again, or new deliveries are announced.
        const now = Date.now();
        const next = await store.jobs.nextRunAt(DELIVERY_QUEUE);
        const untilDue = next === null || next <= now ? pollMs : next - now;
        await sleep(Math.max(1, Math.min(pollMs, untilDue, gate.nextChange(now))));
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
      unsubscribe = store.notifier.subscribe(DELIVERIES_TOPIC, () => wake?.());
      loop = run();
    },
    async stop() {
      running = false;
      unsubscribe?.();
      wake?.();
      await loop;
      await Promise.allSettled([...inFlight]);
    },
  };
}

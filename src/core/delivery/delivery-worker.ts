/**
 * The delivery worker: claims due delivery jobs under a lease (workers/claim-loop.ts), sends each,
 * and records the attempt with the job's completion or retry in one transaction. A webhook at its
 * cap in flight (counted across nodes) or held back by its rate limit is left out of the claims, so
 * a hanging endpoint never takes the places of healthy ones (ARCHITECTURE.md).
 */
import type { Dispatcher } from "undici";
import type { ClaimedJob } from "../../store/jobs/contract.js";
import type { Store } from "../../store/store.js";
import { preparedWrite, type Write, writeTogether } from "../../store/write-together.js";
import type { Metrics } from "../metrics.js";
import type { AddressPolicy } from "../outbound/ssrf-guard.js";
import type { SecretBox } from "../secret-box.js";
import { createClaimLoop, LEASE_MS } from "../workers/claim-loop.js";
import { retryWhileDatabaseRecovers } from "../workers/database-retry.js";
import { DELIVERIES_TOPIC, DELIVERY_QUEUE, type DeliveryJob } from "./enqueue.js";
import { claimedDeliveryRow, type DeliveryRow, type TakenNext, writeAndTakeNext } from "./hand-off.js";
import { awaitTurn, createRateSlots } from "./rate-slots.js";
import { nextRetryDelayMs, parseRetryAfter } from "./retry-policy.js";
import { createSigners, type DeliveryOutcome, sendDelivery } from "./send.js";
import { deleteOrphan, insertAttempt, readDelivery, updateDelivery } from "./statements.js";

/** A webhook that has failed for this long without a success is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;
/** A rate-limited delivery waits in memory for its turn this long at most, then goes back to the queue. */
const RATE_WAIT_MS = 10_000;
/** Recording an attempt stops being retried this long before the claim expires (and another may take it). */
// The claim's lease is renewed while the delivery runs (workers/claim-loop.ts); during a database
// outage it cannot be, and it ends LEASE_MS after the last renewal.
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
  /** Deliveries in flight per webhook, on every node together. */
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
  const gate = createRateSlots(store);
  const busy = new Map<string, number>();
  const signerOf = createSigners((sealed) => options.secrets.decrypt(sealed));

  /**
   * Sends the job's delivery and records it; resolves to the webhook's next job if it took it,
   * null if it looked for one and the webhook had none due, undefined if it did not look.
   * `known` is the delivery's row when it was read with the job (a claim or a hand-off on PostgreSQL).
   */
  const deliver = async (job: ClaimedJob, known?: DeliveryRow): Promise<TakenNext | null | undefined> => {
    const { deliveryId, manual } = job.payload as DeliveryJob;
    const row = known ?? (await readDelivery.execute(store, { id: deliveryId }))[0];
    if (!row) {
      // The delivery is gone, or its webhook is: on PostgreSQL a commit that read the
      // subscription before the webhook's delete committed may store deliveries for it after the
      // delete removed its deliveries. Nothing is sent, and such a delivery goes with its job.
      await writeTogether(store, [
        preparedWrite(deleteOrphan, { id: deliveryId }),
        store.jobs.endWrite(job, undefined),
      ]);
      return undefined;
    }
    if (row.status !== "pending") {
      await store.jobs.complete(job);
      return undefined;
    }
    if (row.active !== 1) {
      await finish(job, row.id, {
        status: "failed",
        error: "the webhook is disabled; re-enable it and recover its deliveries",
      });
      return undefined;
    }
    if (row.rate_limit !== null) {
      // Books its turn (across every node on PostgreSQL) and waits for it in memory, so a burst
      // costs no job writes; one whose turn is too far off goes back to the queue instead.
      const later = await awaitTurn(gate, row.webhook_id, row.rate_limit, RATE_WAIT_MS);
      if (later) {
        // Not this one's turn yet: back in the queue, not an attempt.
        await store.jobs.fail(job, { error: "rate limited", retryAt: later.retryAt });
        return undefined;
      }
    }

    const now = Date.now();
    const signers = [signerOf(row.signing_secret)];
    if (row.previous_secret && Number(row.previous_secret_expires_at) > now) {
      signers.push(signerOf(row.previous_secret));
    }
    const attempt = row.attempts + 1;
    const outcome = await sendDelivery(
      {
        url: row.url,
        messageId: `${row.emitter_id}-${row.event_id}`,
        payload: row.payload,
        signers,
        emitterId: row.emitter_id,
        channel: row.channel,
        attempt,
      },
      options.dispatcher,
      options.policy,
    );
    return record(job, row, attempt, outcome, manual === true);
  };

  /**
   * Records the attempt and ends the job. While this node has room for more deliveries, the
   * webhook's next due job is taken in the same transaction (on PostgreSQL the same statement:
   * hand-off.ts) and returned: the place this job held under the webhook's cap passes to it,
   * without a claim. A full node takes none, so that the claim, oldest first across webhooks,
   * decides what runs next.
   */
  const record = async (
    job: ClaimedJob,
    row: { id: string; webhook_id: string; failing_since: number | null; rate_limit: number | null },
    attempt: number,
    outcome: DeliveryOutcome,
    manual: boolean,
  ): Promise<TakenNext | null | undefined> => {
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

    // The webhook's row is written only when its failure state (read with the delivery) changes:
    // every delivery writing it would serialize them on its row lock. If another delivery marked
    // it failing meanwhile, the next success clears it.
    const webhookChange = ((): Write | undefined => {
      if (disable)
        return (db) =>
          db
            .updateTable("webhooks")
            .set({ failing_since: failingSince, active: 0, disabled_reason: disable, updated_at: now })
            .where("id", "=", row.webhook_id);
      if (outcome.ok && row.failing_since !== null)
        return (db) =>
          db
            .updateTable("webhooks")
            .set({ failing_since: null })
            .where("id", "=", row.webhook_id)
            .where("failing_since", "is not", null);
      if (!outcome.ok && row.failing_since === null)
        return (db) =>
          db
            .updateTable("webhooks")
            .set({ failing_since: now })
            .where("id", "=", row.webhook_id)
            .where("failing_since", "is", null);
      return undefined;
    })();
    // The delivery's new state, the attempt, the webhook's and the job's end: one statement on
    // PostgreSQL (store/write-together.ts). The update is listed before the attempt, so that the
    // attempt's check locks the delivery's row before the update changes it (`insertAttempt`).
    const writes: Write[] = [
      preparedWrite(updateDelivery, {
        id: row.id,
        status,
        attempts: attempt,
        last_status_code: outcome.statusCode,
        last_error: outcome.error,
        last_latency_ms: outcome.latencyMs,
        next_attempt_at: delay === null ? null : now + delay,
        updated_at: now,
      }),
      preparedWrite(store.capabilities.skipLocked ? insertAttempt.locking : insertAttempt.plain, {
        delivery_id: row.id,
        attempt,
        at: now,
        status_code: outcome.statusCode,
        latency_ms: outcome.latencyMs,
        error: outcome.error,
        response_body: outcome.responseBody,
      }),
      ...(webhookChange ? [webhookChange] : []),
      store.jobs.endWrite(
        job,
        delay === null ? undefined : { error: outcome.error ?? "failed", retryAt: now + delay },
      ),
    ];
    // A rate-limited webhook's next job waits for its turn in a claim instead (its group is
    // left out of claims while held back).
    let takeNext =
      job.groupKey !== null && row.rate_limit === null && !disable && loop.running && loop.hasRoom;
    // The attempt happened: its record is kept trying while the database recovers. A retry takes
    // no next job: the failed try may have committed, and taken one already (its lease expires).
    const written = async (): Promise<TakenNext | null | undefined> => {
      if (!takeNext) {
        await writeTogether(store, writes);
        return undefined;
      }
      takeNext = false;
      const taken = await writeAndTakeNext(store, writes, job, LEASE_MS, now, true);
      // A job retried later stays in the queue, due then: its end wakes a claim (undefined), so
      // that the loop sleeps until the retry is due rather than until its next poll.
      return taken ?? (delay === null ? null : undefined);
    };
    return retryWhileDatabaseRecovers(written, {
      until: (loop.heldUntil(job) ?? job.lockedUntil) - RECORD_MARGIN_MS,
      keepTrying: () => loop.running,
      onFirstFailure: (error) => onError(error),
    });
  };

  const finish = async (job: ClaimedJob, deliveryId: string, result: { status: "failed"; error: string }) => {
    await writeTogether(store, [
      (db) =>
        db
          .updateTable("deliveries")
          .set({
            status: result.status,
            last_error: result.error,
            next_attempt_at: null,
            updated_at: Date.now(),
          })
          .where("id", "=", deliveryId),
      store.jobs.endWrite(job, undefined),
    ]);
  };

  /**
   * Runs the job's delivery. `from` is the job whose place it takes when it was handed on, and
   * `row` its delivery's row when that was read with it.
   */
  const launch = (job: ClaimedJob, from?: ClaimedJob, row?: DeliveryRow): void => {
    const group = job.groupKey ?? "";
    busy.set(group, (busy.get(group) ?? 0) + 1);
    const work = async () => {
      let underCap = false;
      const next = await deliver(job, row).finally(() => {
        const count = busy.get(group) ?? 1;
        underCap = count < perWebhook;
        if (count > 1) busy.set(group, count - 1);
        else busy.delete(group);
      });
      if (next) launch(next.job, job, next.row);
      // The webhook had no due job left (its last statement looked) and was under its cap even
      // with this one, so no claim left a job of it out: this end wakes no claim (`noneWaiting`,
      // which holds on a cluster too: ARCHITECTURE.md).
      else if (next === null && underCap) loop.noneWaiting(job);
    };
    void (from ? loop.pass(from, job, work) : loop.run(job, work));
  };

  const loop = createClaimLoop(
    {
      store,
      queue: DELIVERY_QUEUE,
      topic: DELIVERIES_TOPIC,
      concurrency,
      groupLimit: perWebhook,
      // PostgreSQL: each job's delivery and webhook come with the claim (one round trip, not one a job).
      readAlong: "delivery",
      pollMs,
      onError,
    },
    {
      // Webhooks at their cap on this node (the claim itself counts every node's), and those
      // their rate limit holds back.
      excludeGroups: (now) => [
        ...[...busy].filter(([, count]) => count >= perWebhook).map(([webhookId]) => webhookId),
        ...gate.heldBack(now),
      ],
      claimed(jobs) {
        for (const job of jobs) launch(job, undefined, claimedDeliveryRow(job));
      },
      // A rate-limited webhook may send again.
      nextChange: (claimedAt) => claimedAt + gate.nextChange(claimedAt),
      // New deliveries only to webhooks at their cap here need no claim: none could take them, and
      // each delivery in flight there ends by taking the next job or waking a claim (the hand-off).
      claimable: (webhooks) => webhooks.some((webhookId) => (busy.get(webhookId) ?? 0) < perWebhook),
    },
  );

  return {
    start: () => loop.start(),
    stop: () => loop.stop(),
  };
}

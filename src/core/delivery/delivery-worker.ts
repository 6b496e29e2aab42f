/**
 * The delivery worker: claims due delivery jobs under a lease (workers/claim-loop.ts), sends each,
 * and records the attempt with the job's completion or retry in one transaction. A webhook at its
 * cap in flight (counted across nodes) or held back by its rate limit is left out of the claims, so
 * a hanging endpoint never takes the places of healthy ones (ARCHITECTURE.md).
 */
import type { Dispatcher } from "undici";
import type { ClaimedJob } from "../../store/jobs/contract.js";
import type { Store } from "../../store/store.js";
import { preparedWrite, writeTogether } from "../../store/write-together.js";
import type { Metrics } from "../metrics.js";
import type { AddressPolicy } from "../outbound/ssrf-guard.js";
import type { SecretBox } from "../secret-box.js";
import { type ClaimLoop, type ClaimLoopHooks, createClaimLoop, LEASE_MS } from "../workers/claim-loop.js";
import { retryWhileDatabaseRecovers } from "../workers/database-retry.js";
import { type AttemptedDelivery, attemptLabel, attemptWrites, judgeAttempt } from "./attempt-record.js";
import { DELIVERIES_TOPIC, DELIVERY_QUEUE, type DeliveryJob } from "./enqueue.js";
import { type DeliveryRow, type TakenNext, writeAndTakeNext } from "./hand-off.js";
import { awaitTurn, createRateSlots, type RateSlots } from "./rate-slots.js";
import {
  createSigners,
  type DeliveryOutcome,
  type DeliveryRequest,
  type Signer,
  sendDelivery,
} from "./send.js";
import { deleteOrphan, readDelivery } from "./statements.js";

export { DISABLE_AFTER_FAILING_MS } from "./attempt-record.js";

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
  return new NodeDeliveryWorker(options);
}

/**
 * A delivery's end: the webhook's next job if it took it, null if it looked for one and the
 * webhook had none due, undefined if it did not look.
 */
type DeliveryEnd = TakenNext | null | undefined;

/** The deliveries of this node: how many of each webhook are in flight, and the loop claiming more. */
class NodeDeliveryWorker implements DeliveryWorker {
  private readonly store: Store;
  private readonly perWebhook: number;
  private readonly onError: (error: unknown) => void;
  private readonly gate: RateSlots;
  /** Deliveries in flight on this node, per webhook. */
  private readonly busy = new Map<string, number>();
  private readonly signerOf: (sealed: string) => Signer;
  private readonly loop: ClaimLoop;

  constructor(private readonly options: DeliveryWorkerOptions) {
    const { store } = options;
    this.store = store;
    this.perWebhook = options.perWebhookInFlight ?? 8;
    this.onError = options.onError ?? (() => {});
    this.gate = createRateSlots(store);
    this.signerOf = createSigners((sealed) => options.secrets.decrypt(sealed));
    this.loop = createClaimLoop(
      {
        store,
        queue: DELIVERY_QUEUE,
        topic: DELIVERIES_TOPIC,
        concurrency: options.concurrency ?? 64,
        groupLimit: this.perWebhook,
        // PostgreSQL: each job's delivery and webhook come with the claim (one round trip, not one a job).
        readAlong: "delivery",
        pollMs: options.pollMs ?? 1000,
        onError: this.onError,
      },
      this.claimHooks(),
    );
  }

  start(): void {
    this.loop.start();
  }

  stop(): Promise<void> {
    return this.loop.stop();
  }

  private claimHooks(): ClaimLoopHooks {
    const { gate, perWebhook } = this;
    const busy = this.busy;
    return {
      // Webhooks at their cap on this node (the claim itself counts every node's), and those
      // their rate limit holds back.
      excludeGroups: (now) => [
        ...[...busy].filter(([, count]) => count >= perWebhook).map(([webhookId]) => webhookId),
        ...gate.heldBack(now),
      ],
      claimed: (jobs) => {
        for (const job of jobs) this.launch(job, undefined, job.readAlong);
      },
      // A rate-limited webhook may send again.
      nextChange: (claimedAt) => claimedAt + gate.nextChange(claimedAt),
      // New deliveries only to webhooks at their cap here need no claim: none could take them, and
      // each delivery in flight there ends by taking the next job or waking a claim (the hand-off).
      claimable: (webhooks) => webhooks.some((webhookId) => (busy.get(webhookId) ?? 0) < perWebhook),
    };
  }

  /**
   * Runs the job's delivery. `from` is the job whose place it takes when it was handed on, and
   * `row` its delivery's row when that was read with it.
   */
  private launch(job: ClaimedJob, from?: ClaimedJob, row?: DeliveryRow): void {
    const { loop } = this;
    const busy = this.busy;
    const group = job.groupKey ?? "";
    busy.set(group, (busy.get(group) ?? 0) + 1);
    const work = async () => {
      let underCap = false;
      const next = await this.deliver(job, row).finally(() => {
        const count = busy.get(group) ?? 1;
        underCap = count < this.perWebhook;
        if (count > 1) busy.set(group, count - 1);
        else busy.delete(group);
      });
      if (next) this.launch(next.job, job, next.row);
      // The webhook had no due job left (its last statement looked) and was under its cap even
      // with this one, so no claim left a job of it out: this end wakes no claim (`noneWaiting`,
      // which holds on a cluster too: ARCHITECTURE.md).
      else if (next === null && underCap) loop.noneWaiting(job);
    };
    void (from ? loop.pass(from, job, work) : loop.run(job, work));
  }

  /**
   * Sends the job's delivery and records it (`DeliveryEnd`). `known` is the delivery's row when
   * it was read with the job (a claim or a hand-off on PostgreSQL).
   */
  private async deliver(job: ClaimedJob, known?: DeliveryRow): Promise<DeliveryEnd> {
    const { store } = this;
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
      await this.finish(job, row.id, {
        status: "failed",
        error: "the webhook is disabled; re-enable it and recover its deliveries",
      });
      return undefined;
    }
    if (row.rate_limit !== null) {
      // Books its turn (across every node on PostgreSQL) and waits for it in memory, so a burst
      // costs no job writes; one whose turn is too far off goes back to the queue instead.
      const later = await awaitTurn(this.gate, row.webhook_id, row.rate_limit, RATE_WAIT_MS);
      if (later) {
        // Not this one's turn yet: back in the queue, not an attempt.
        await store.jobs.fail(job, { error: "rate limited", retryAt: later.retryAt });
        return undefined;
      }
    }

    const attempt = row.attempts + 1;
    const outcome = await sendDelivery(
      this.request(row, attempt),
      this.options.dispatcher,
      this.options.policy,
    );
    return this.record(job, row, attempt, outcome, manual === true);
  }

  /** The delivery's request, signed with the webhook's secret and, until it expires, the previous one. */
  private request(row: DeliveryRow, attempt: number): DeliveryRequest {
    const now = Date.now();
    const signers = [this.signerOf(row.signing_secret)];
    if (row.previous_secret && Number(row.previous_secret_expires_at) > now) {
      signers.push(this.signerOf(row.previous_secret));
    }
    return {
      url: row.url,
      messageId: `${row.emitter_id}-${row.event_id}`,
      payload: row.payload,
      signers,
      emitterId: row.emitter_id,
      channel: row.channel,
      attempt,
    };
  }

  /**
   * Records the attempt and ends the job. While this node has room for more deliveries, the
   * webhook's next due job is taken in the same transaction (on PostgreSQL the same statement:
   * hand-off.ts) and returned: the place this job held under the webhook's cap passes to it,
   * without a claim. A full node takes none, so that the claim, oldest first across webhooks,
   * decides what runs next.
   */
  private async record(
    job: ClaimedJob,
    row: AttemptedDelivery,
    attempt: number,
    outcome: DeliveryOutcome,
    manual: boolean,
  ): Promise<DeliveryEnd> {
    const { store, loop } = this;
    const now = Date.now();
    const verdict = judgeAttempt(row, attempt, outcome, manual, this.options.retryScheduleSeconds, now);
    this.options.metrics?.deliveryAttempt(attemptLabel(outcome, verdict), outcome.latencyMs);
    const writes = attemptWrites(store, job, row, attempt, outcome, verdict, now);
    // A rate-limited webhook's next job waits for its turn in a claim instead (its group is
    // left out of claims while held back).
    let takeNext =
      job.groupKey !== null && row.rate_limit === null && !verdict.disable && loop.running && loop.hasRoom;
    // The attempt happened: its record is kept trying while the database recovers. A retry takes
    // no next job: the failed try may have committed, and taken one already (its lease expires).
    const written = async (): Promise<DeliveryEnd> => {
      if (!takeNext) {
        await writeTogether(store, writes);
        return undefined;
      }
      takeNext = false;
      const taken = await writeAndTakeNext(store, writes, job, LEASE_MS, now, true);
      // A job retried later stays in the queue, due then: its end wakes a claim (undefined), so
      // that the loop sleeps until the retry is due rather than until its next poll.
      return taken ?? (verdict.delay === null ? null : undefined);
    };
    return retryWhileDatabaseRecovers(written, {
      until: (loop.heldUntil(job) ?? job.lockedUntil) - RECORD_MARGIN_MS,
      keepTrying: () => loop.running,
      onFirstFailure: (error) => this.onError(error),
    });
  }

  private async finish(job: ClaimedJob, deliveryId: string, result: { status: "failed"; error: string }) {
    await writeTogether(this.store, [
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
      this.store.jobs.endWrite(job, undefined),
    ]);
  }
}

/**
 * What an attempt's outcome decides (delivered, retried, failed; the webhook failing or disabled)
 * and the writes that record it with the job's end (ARCHITECTURE.md: retries and failure, lock order).
 */
import type { ClaimedJob } from "../../store/jobs/contract.js";
import type { Store } from "../../store/store.js";
import { preparedWrite, type Write } from "../../store/write-together.js";
import type { DeliveryOutcomeLabel } from "../metrics.js";
import { nextRetryDelayMs, parseRetryAfter } from "./retry-policy.js";
import type { DeliveryOutcome } from "./send.js";
import { insertAttempt, updateDelivery } from "./statements.js";

/** A webhook that has failed for this long without a success is disabled. */
export const DISABLE_AFTER_FAILING_MS = 5 * 24 * 3600 * 1000;

/** What an attempt's record needs of its delivery and webhook, as read with the delivery. */
export interface AttemptedDelivery {
  readonly id: string;
  readonly webhook_id: string;
  readonly failing_since: number | null;
  readonly rate_limit: number | null;
}

/** What an attempt's outcome decides. */
export interface AttemptVerdict {
  readonly status: "delivered" | "failed" | "pending";
  /** Since when the webhook fails without a success (epoch ms); null after a success. */
  readonly failingSince: number | null;
  /** Why this attempt disables the webhook, or null. */
  readonly disable: string | null;
  /** How long until the next attempt (ms), or null when there is none. */
  readonly delay: number | null;
}

export function judgeAttempt(
  row: AttemptedDelivery,
  attempt: number,
  outcome: DeliveryOutcome,
  manual: boolean,
  retryScheduleSeconds: readonly number[],
  now: number,
): AttemptVerdict {
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
          retryScheduleSeconds,
          attempt,
          outcome.statusCode === 429 || outcome.statusCode === 503
            ? parseRetryAfter(outcome.retryAfter, now)
            : null,
        );
  const status = outcome.ok ? "delivered" : delay === null ? "failed" : "pending";
  return { status, failingSince, disable, delay };
}

/** The attempt as the metrics count it. */
export function attemptLabel(outcome: DeliveryOutcome, verdict: AttemptVerdict): DeliveryOutcomeLabel {
  return outcome.ok
    ? "delivered"
    : verdict.disable
      ? "disabled"
      : outcome.error?.startsWith("refused:")
        ? "blocked"
        : verdict.delay === null
          ? "exhausted"
          : "failed_attempt";
}

/**
 * The delivery's new state, the attempt, the webhook's and the job's end: one statement on
 * PostgreSQL (store/write-together.ts). The update is listed before the attempt, so that the
 * attempt's check locks the delivery's row before the update changes it (`insertAttempt`).
 */
export function attemptWrites(
  store: Store,
  job: ClaimedJob,
  row: AttemptedDelivery,
  attempt: number,
  outcome: DeliveryOutcome,
  verdict: AttemptVerdict,
  now: number,
): Write[] {
  const { delay } = verdict;
  const writes: Write[] = [
    preparedWrite(updateDelivery, {
      id: row.id,
      status: verdict.status,
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
  ];
  const change = webhookChange(row, outcome, verdict, now);
  if (change) writes.push(change);
  writes.push(
    store.jobs.endWrite(
      job,
      delay === null ? undefined : { error: outcome.error ?? "failed", retryAt: now + delay },
    ),
  );
  return writes;
}

/**
 * The webhook's row is written only when its failure state (read with the delivery) changes:
 * every delivery writing it would serialize them on its row lock. If another delivery marked
 * it failing meanwhile, the next success clears it.
 */
function webhookChange(
  row: AttemptedDelivery,
  outcome: DeliveryOutcome,
  { disable, failingSince }: AttemptVerdict,
  now: number,
): Write | undefined {
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
}

/**
 * When to try a failed delivery again: the retry schedule (SLUICE_RETRY_SCHEDULE, seconds between
 * attempts, the first normally 0) with ±20 % jitter, or the receiver's Retry-After on 429 and 503,
 * kept within bounds.
 */

export const JITTER = 0.2;
/** A Retry-After is honoured between these bounds. */
export const RETRY_AFTER_MIN_SECONDS = 1;
export const RETRY_AFTER_MAX_SECONDS = 36_000;

/**
 * The delay before the next attempt after `attemptsMade` attempts, or null when the schedule is
 * exhausted. `random` is injectable for tests.
 */
export function nextRetryDelayMs(
  schedule: readonly number[],
  attemptsMade: number,
  retryAfterSeconds: number | null,
  random: () => number = Math.random,
): number | null {
  const gap = schedule[attemptsMade];
  if (gap === undefined) return null;
  if (retryAfterSeconds !== null) {
    return Math.min(RETRY_AFTER_MAX_SECONDS, Math.max(RETRY_AFTER_MIN_SECONDS, retryAfterSeconds)) * 1000;
  }
  const jitter = 1 - JITTER + 2 * JITTER * random();
  return Math.round(gap * 1000 * jitter);
}

/** A Retry-After header: delay seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(header: string | undefined, now: number = Date.now()): number | null {
  if (header === undefined || header.trim() === "") return null;
  if (/^\d+$/.test(header.trim())) return Number(header.trim());
  const date = Date.parse(header);
  return Number.isNaN(date) ? null : Math.max(0, Math.ceil((date - now) / 1000));
}

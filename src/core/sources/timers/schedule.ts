/**
 * Timer schedules: `{ intervalSeconds }` or `{ cron, timezone? }` (5 fields, or 6 with seconds),
 * and the arithmetic of ticks: when the next one is due, how many were skipped, and the event a
 * tick passes to `run`.
 */
import { Cron } from "croner";

export type Schedule =
  | { readonly intervalSeconds: number; readonly timezone?: string }
  | { readonly cron: string; readonly timezone?: string };

/** Why a schedule cannot be used, in words for the user; null when it is valid. */
export function scheduleProblem(value: unknown): string | null {
  if (typeof value !== "object" || value === null || Array.isArray(value)) {
    return 'a schedule is {"intervalSeconds": N} or {"cron": "…", "timezone"?: "Area/City"}';
  }
  const { intervalSeconds, cron, timezone } = value as Record<string, unknown>;
  if (timezone !== undefined && (typeof timezone !== "string" || !isTimeZone(timezone))) {
    return `timezone must be an IANA time zone name such as Europe/Paris, got ${JSON.stringify(timezone)}`;
  }
  if (intervalSeconds !== undefined) {
    if (typeof intervalSeconds !== "number" || !Number.isInteger(intervalSeconds) || intervalSeconds < 1) {
      return `intervalSeconds must be an integer of at least 1, got ${JSON.stringify(intervalSeconds)}`;
    }
    return null;
  }
  if (typeof cron !== "string" || cron.trim() === "") {
    return 'a schedule is {"intervalSeconds": N} or {"cron": "…", "timezone"?: "Area/City"}';
  }
  const fields = cron.trim().split(/\s+/).length;
  if (fields !== 5 && fields !== 6)
    return `cron takes 5 fields (or 6 with seconds), got ${fields} in '${cron}'`;
  try {
    new Cron(cron, { timezone: timezone as string | undefined, paused: true });
  } catch (error) {
    return `cron '${cron}' is not valid: ${(error as Error).message}`;
  }
  return null;
}

/** The first due time of `schedule` strictly after `after` (epoch ms). */
export function nextDue(schedule: Schedule, after: number): number {
  if ("intervalSeconds" in schedule) return after + schedule.intervalSeconds * 1000;
  const next = new Cron(schedule.cron, { timezone: schedule.timezone, paused: true }).nextRun(
    new Date(after),
  );
  // A pattern that never fires again (a fixed past date) parks the tick far away rather than spinning.
  return next ? next.getTime() : after + 365 * 24 * 3600 * 1000;
}

/**
 * The next tick after a run that was due at `due` and finished at `now`: the first slot of the
 * schedule after `now`, how many slots in between were skipped (downtime, or a run that outlasted
 * its interval), and the last slot at or before `now` (`due` itself when none was skipped): the
 * slot a run starting at `now` fires for. Interval ticks stay on their original grid.
 */
export function nextAfterRun(
  schedule: Schedule,
  due: number,
  now: number,
): { next: number; skipped: number; latest: number } {
  if ("intervalSeconds" in schedule) {
    const period = schedule.intervalSeconds * 1000;
    const slots = Math.max(1, Math.floor((now - due) / period) + 1);
    return { next: due + slots * period, skipped: slots - 1, latest: due + (slots - 1) * period };
  }
  let latest = due;
  let next = nextDue(schedule, due);
  let skipped = 0;
  while (next <= now && skipped < 100_000) {
    skipped++;
    latest = next;
    next = nextDue(schedule, next);
  }
  return { next, skipped, latest };
}

/**
 * The event a tick passes to run: `{timestamp, interval_seconds}`, plus `cron` for cron schedules.
 * `timestamp` is the slot's due time in seconds, as Pipedream's: unique per tick, however late the
 * run starts.
 */
export function tickEvent(schedule: Schedule, slot: number): Record<string, unknown> {
  const timestamp = Math.floor(slot / 1000);
  if ("intervalSeconds" in schedule) return { timestamp, interval_seconds: schedule.intervalSeconds };
  return { timestamp, interval_seconds: null, cron: schedule.cron };
}

function isTimeZone(name: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: name });
    return true;
  } catch {
    return false;
  }
}

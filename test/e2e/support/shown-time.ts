/**
 * The times the UI shows (src/ui/components/time.ts: toLocaleString with medium date and time),
 * read back from a page's text. The browser runs in en-US on UTC (browser.ts), so a time reads
 * "Jan 5, 2025, 3:04:05 PM" and is UTC.
 */
import { expect } from "vitest";

const SHOWN_TIME = /([A-Z][a-z]{2}) (\d{1,2}), (\d{4}), (\d{1,2}):(\d{2}):(\d{2})\s([AP]M)/g;
const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** Every time shown in `text`, as epoch milliseconds, in the order they appear. */
export function shownTimes(text: string): number[] {
  return [...text.matchAll(SHOWN_TIME)].map((match) => {
    const [, month = "", day, year, hour, minute, second, half] = match;
    const hours = (Number(hour) % 12) + (half === "PM" ? 12 : 0);
    return Date.UTC(Number(year), MONTHS.indexOf(month), Number(day), hours, Number(minute), Number(second));
  });
}

/**
 * Asserts that `text` shows exactly one time, and that it is within a minute of now: the real
 * time of something that just happened, not the epoch (1970) or a time off by a unit.
 */
export function expectShowsNow(text: string): void {
  const times = shownTimes(text);
  expect(times, `one time shown in "${text}"`).toHaveLength(1);
  expect(Math.abs((times[0] ?? 0) - Date.now()), `"${text}" shows the time of now`).toBeLessThan(60_000);
}

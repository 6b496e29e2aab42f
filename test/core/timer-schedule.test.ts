import { describe, expect, it } from "vitest";
import { nextAfterRun, tickEvent } from "../../src/core/sources/timers/schedule.js";

describe("a tick's slot", () => {
  const every10s = { intervalSeconds: 10 };
  const due = Date.UTC(2026, 0, 1, 12, 0, 0);

  it("is the slot that was due when the run starts on time or late within its interval", () => {
    expect(nextAfterRun(every10s, due, due + 999)).toEqual({ next: due + 10_000, skipped: 0, latest: due });
    // A late start keeps the tick's own second: the next tick cannot share it.
    const late = tickEvent(every10s, nextAfterRun(every10s, due, due + 9_999).latest);
    const next = tickEvent(every10s, nextAfterRun(every10s, due + 10_000, due + 10_001).latest);
    expect(late.timestamp).toBe(due / 1000);
    expect(next.timestamp).toBe(due / 1000 + 10);
  });

  it("after downtime is the latest missed slot, with the skipped ones counted", () => {
    expect(nextAfterRun(every10s, due, due + 35_000)).toEqual({
      next: due + 40_000,
      skipped: 3,
      latest: due + 30_000,
    });
    const cron = { cron: "*/5 * * * * *" };
    expect(nextAfterRun(cron, due, due + 12_000)).toEqual({
      next: due + 15_000,
      skipped: 2,
      latest: due + 10_000,
    });
    expect(tickEvent(cron, due + 10_000)).toEqual({
      timestamp: due / 1000 + 10,
      interval_seconds: null,
      cron: "*/5 * * * * *",
    });
  });
});

/**
 * timers: N sources on {intervalSeconds: 1} (full: 100 and 1,000; quick: 100), their firing
 * delay measured over a window after all are deployed and a settling pause.
 *
 * Method. Ticks of an interval source are on a grid of its own: activation time + k × 1 s. The
 * component's activate hook stores Date.now() (a lower bound of that grid's origin, which the
 * server takes a moment later); each run emits Date.now() at its start. A run's due time is the
 * first grid point after the start of the source's previous run (the server schedules the next
 * tick as the first grid slot after a run ends), or the first grid point for the first run.
 * Delay = run start − due time, slightly overstated by the gap between the hook and the server
 * scheduling the first tick; every run that started in the window counts. Grid points in the
 * window that no run served are counted as missed.
 */
import { figure } from "../lib/report.mjs";
import { startSluice } from "../lib/sluice.mjs";
import { mapLimit, percentile, round, sleep, summarize } from "../lib/stats.mjs";

const TIMER = `export default {
  name: "timer-bench",
  props: {
    timer: { type: "$.interface.timer", default: { intervalSeconds: 1 } },
    db: "$.service.db",
  },
  hooks: {
    async activate() {
      this.db.set("activated_at", Date.now());
    },
  },
  async run() {
    this.$emit({ started_at: Date.now(), activated_at: this.db.get("activated_at") });
  },
};`;

export async function timers(ctx) {
  const counts = ctx.timerCounts ?? (ctx.quick ? [100] : [100, 1000]);
  const windowSeconds = ctx.quick ? 4 : 10;
  const figures = [];
  const details = {};
  for (const count of counts) {
    const result = await measure(ctx, count, windowSeconds);
    details[count] = result;
    if (result.delay_ms.count === 0) {
      ctx.log(
        `  ${count} timers: no run started in the ${windowSeconds} s window (deployed in ${result.deploy_seconds} s)`,
      );
    }
    ctx.log(
      `  ${count} timers: delay p50 ${result.delay_ms.p50} ms, p99 ${result.delay_ms.p99} ms, ${result.missed} of ${result.expected} ticks missed (deployed in ${result.deploy_seconds} s)`,
    );
    const baseline = {
      name: "setTimeout firing delay p99 in the bench process, same grid",
      value: result.baseline_delay_ms.p99,
      unit: "ms",
    };
    const method = `${count} sources on 1 s intervals; delay = Date.now() at the start of run − its due time on the source's grid (see RESULTS.md); window of ${windowSeconds} s after all were deployed and 2 s settled`;
    figures.push(
      figure({
        key: `timers.p50.${count}`,
        name: `timer firing delay p50, ${count} timers`,
        value: result.delay_ms.p50,
        unit: "ms",
        better: "lower",
        baseline: { ...baseline, name: "setTimeout firing delay p50", value: result.baseline_delay_ms.p50 },
        method,
      }),
      figure({
        key: `timers.p99.${count}`,
        name: `timer firing delay p99, ${count} timers`,
        value: result.delay_ms.p99,
        unit: "ms",
        better: "lower",
        baseline,
        method,
        ...(count === 1000 ? { target: "at most 100 ms for 1,000 timers" } : {}),
      }),
      figure({
        key: `timers.missed.${count}`,
        name: `ticks missed in the window, ${count} timers`,
        value: result.expected === 0 ? 0 : (100 * result.missed) / result.expected,
        unit: "%",
        better: "lower",
        method:
          "grid points in the window with no run (skipped because the previous run ended late, or not yet fired)",
      }),
    );
  }
  return { figures, details: { window_seconds: windowSeconds, ...details } };
}

async function measure(ctx, count, windowSeconds) {
  const server = await startSluice({ ...ctx.serverOptions, label: `timers-${count}` });
  try {
    const started = Date.now();
    const sources = await mapLimit(
      Array.from({ length: count }, (_, i) => i),
      4,
      (i) => server.deploy(TIMER, { name: `timer-${i}` }),
    );
    const deploySeconds = (Date.now() - started) / 1000;
    await sleep(2000);
    const windowStart = Date.now();
    const baseline = await setTimeoutDelays(windowSeconds);
    const windowEnd = Date.now();
    const runs = await mapLimit(sources, 8, async (source) => {
      const events = await server.api(
        "GET",
        `/v1/sources/${source.id}/event_summaries?limit=100&expand=event`,
      );
      return events.map((entry) => entry.event).sort((a, b) => a.started_at - b.started_at);
    });
    let expected = 0;
    let missed = 0;
    const delays = [];
    for (const list of runs) {
      if (list.length === 0) continue;
      const origin = list[0].activated_at;
      const gridAfter = (t) => origin + (Math.floor((t - origin) / 1000) + 1) * 1000;
      const slots = new Set();
      for (let i = 0; i < list.length; i++) {
        // Runs that started in the window count, however long ago they were due.
        if (list[i].started_at < windowStart || list[i].started_at >= windowEnd) continue;
        const due = i === 0 ? gridAfter(origin) : gridAfter(list[i - 1].started_at);
        delays.push(list[i].started_at - due);
        slots.add(due);
      }
      const firstSlot = gridAfter(windowStart - 1);
      for (let slot = firstSlot; slot < windowEnd - 1000; slot += 1000) {
        expected++;
        if (!slots.has(slot)) missed++;
      }
    }
    return {
      count,
      deploy_seconds: round(deploySeconds, 1),
      runs_in_window: delays.length,
      expected,
      missed,
      delay_ms: summarize(delays),
      baseline_delay_ms: summarize(baseline),
      p99: percentile(delays, 99),
    };
  } finally {
    await server.stop();
  }
}

/** The bench's own event loop as a baseline timer: setTimeout to each 1 s slot, its lateness. */
async function setTimeoutDelays(seconds) {
  const delays = [];
  const origin = Date.now();
  for (let k = 1; k <= seconds; k++) {
    const due = origin + k * 1000;
    await sleep(Math.max(0, due - Date.now()));
    delays.push(Date.now() - due);
  }
  return delays;
}

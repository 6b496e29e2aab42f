#!/usr/bin/env node
/**
 * `npm run bench`: measures Sluice against baselines run in the same process tree and writes
 * bench/results/latest.json and a row of bench/history/runs.md (its newest rows shown in
 * bench/RESULTS.md). Every server under test is a child process with its own temporary data
 * directory; all of it is removed at the end.
 *
 *   npm run bench                      the full run (several minutes)
 *   npm run bench -- --quick           under 2 minutes, smaller samples
 *   npm run bench -- --peers           also install Node-RED in a temp folder and measure it
 *   npm run bench -- --postgres URL    Sluice on PostgreSQL (a fresh schema per server)
 *   npm run bench -- --only ingest,invoke   some scenarios only: no row recorded, and written
 *                                      to bench/results/only.json.tmp instead of latest.json
 *   npm run bench -- --sluice DIR      measure another built checkout (such as a clean export of HEAD)
 *   npm run bench -- --label TEXT      a note for the run's row (what --sluice points at, say)
 *   npm run bench -- --timers 100      the timer scenario's source counts (full default: 100,1000;
 *                                      quick: 100); a full run with other counts says so in its row
 *   npm run bench -- --density 10000   the memory scenario's sources of one code (default 1000);
 *                                      10000 is issue 15's 10,000-source scenario (minutes)
 *   npm run bench -- --keep            keep the temporary folder (server logs) for a look
 *   npm run bench -- --profile         write CPU profiles of the ingest and deliver scenarios'
 *                                      servers to bench/results/*.cpuprofile and print where their
 *                                      time went under load (ingest's plain run; deliver's fixed-rate
 *                                      phase); no row recorded: the profiler slows what it measures
 *
 * Targets from issue 7 are recorded next to the figures, never asserted.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { machineCpuTicks, stealShare } from "./lib/proc.mjs";
import { machine, measuredTree, recordRow, writeLatest } from "./lib/report.mjs";
import { ROOT } from "./lib/sluice.mjs";
import { round } from "./lib/stats.mjs";
import { deliver } from "./scenarios/deliver.mjs";
import { deploy } from "./scenarios/deploy.mjs";
import { egress } from "./scenarios/egress.mjs";
import { ingest } from "./scenarios/ingest.mjs";
import { invoke } from "./scenarios/invoke.mjs";
import { memory } from "./scenarios/memory.mjs";
import { peers } from "./scenarios/peers.mjs";
import { timers } from "./scenarios/timers.mjs";

const SCENARIOS = { ingest, deliver, invoke, deploy, memory, timers, egress, peers };

const { values: args } = parseArgs({
  options: {
    quick: { type: "boolean", default: false },
    peers: { type: "boolean", default: false },
    postgres: { type: "string" },
    only: { type: "string" },
    keep: { type: "boolean", default: false },
    sluice: { type: "string" },
    label: { type: "string" },
    profile: { type: "boolean", default: false },
    timers: { type: "string" },
    density: { type: "string" },
  },
});

const selected = args.only
  ? args.only.split(",").map((name) => name.trim())
  : Object.keys(SCENARIOS).filter((name) => name !== "peers" || args.peers);
for (const name of selected) {
  if (!(name in SCENARIOS)) throw new Error(`unknown scenario '${name}'; known: ${Object.keys(SCENARIOS)}`);
}

const sluiceRoot = path.resolve(args.sluice ?? ROOT);
if (!fs.existsSync(path.join(sluiceRoot, "dist", "cli", "main.js"))) {
  throw new Error(`${sluiceRoot} has no build: run npm run build there first`);
}
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-bench-"));
const log = (line) => process.stdout.write(`${line}\n`);
const ctx = {
  quick: args.quick,
  tmp,
  log,
  serverOptions: { tmp, postgres: args.postgres, sluiceRoot },
  /** Where the ingest and deliver scenarios write their servers' CPU profiles (`--profile`), or undefined. */
  profile: args.profile ? path.join(ROOT, "bench", "results") : undefined,
  /** The memory scenario's sources of one code (`--density`), or undefined for its default. */
  densitySources: args.density === undefined ? undefined : Number(args.density),
  /** The timer scenario's source counts (`--timers`), or undefined for the mode's default. */
  timerCounts: args.timers?.split(",").map((count) => {
    const n = Number(count.trim());
    if (!Number.isInteger(n) || n < 1)
      throw new Error(`--timers takes counts such as 100,1000; got '${args.timers}'`);
    return n;
  }),
  /** Scenario results so far, so that a later scenario (peers) can compare with an earlier one. */
  done: {},
};

const started = Date.now();
const results = {
  date: new Date().toISOString(),
  mode: args.quick ? "quick" : "full",
  options: {
    peers: args.peers,
    postgres: args.postgres !== undefined,
    only: args.only ?? null,
    label: args.label ?? null,
    profile: args.profile,
    timers: args.timers ?? null,
    density: args.density ?? null,
  },
  machine: machine(),
  measured: measuredTree(sluiceRoot),
  duration_s: 0,
  figures: [],
  scenarios: {},
};
log(
  `Sluice bench (${results.mode}) on ${results.machine.cpu_model}, ${results.machine.cores} cores, node ${process.version}`,
);
log("The load generator, receivers and servers share this machine.");

let failed = 0;
const runTicks = machineCpuTicks();
for (const name of selected) {
  const scenarioStart = Date.now();
  const ticksBefore = machineCpuTicks();
  const loadBefore = os.loadavg()[0];
  log(`${name}… (load average ${round(loadBefore, 2)})`);
  try {
    const outcome = await SCENARIOS[name](ctx);
    results.figures.push(...outcome.figures);
    results.scenarios[name] = {
      ...outcome.details,
      ...(outcome.skipped ? { skipped: outcome.skipped } : {}),
    };
    ctx.done[name] = outcome;
  } catch (error) {
    failed++;
    const message = error instanceof Error ? (error.stack ?? error.message) : String(error);
    results.scenarios[name] = { error: message };
    log(`  FAILED: ${message}`);
  }
  const steal = stealShare(ticksBefore, machineCpuTicks());
  if (results.scenarios[name] && steal !== null) results.scenarios[name].cpu_steal_share = round(steal, 3);
  log(
    `  (${round((Date.now() - scenarioStart) / 1000, 1)} s${steal === null ? "" : `, ${round(steal * 100, 1)}% of the CPU stolen by the host`})`,
  );
}
results.duration_s = round((Date.now() - started) / 1000, 1);
results.machine.cpu_steal_share = (() => {
  const steal = stealShare(runTicks, machineCpuTicks());
  return steal === null ? null : round(steal, 3);
})();

// A partial or profiled run does not replace the full record: it goes to a git-ignored file.
const partial = args.only !== undefined || args.profile;
const latest = path.join(ROOT, "bench", "results", partial ? "only.json.tmp" : "latest.json");
writeLatest(latest, results);
log(`Wrote ${path.relative(ROOT, latest)} (${results.figures.length} figures, ${results.duration_s} s).`);
if (!partial) {
  const row = recordRow(
    {
      latest: path.join(ROOT, "bench", "RESULTS.md"),
      history: path.join(ROOT, "bench", "history", "runs.md"),
    },
    results,
  );
  log(`Appended to bench/history/runs.md (and its newest rows to bench/RESULTS.md):\n${row}`);
}
if (args.keep) log(`Kept ${tmp}`);
else fs.rmSync(tmp, { recursive: true, force: true });
process.exitCode = failed > 0 ? 1 : 0;

/**
 * The bench's output: figures (each with its method and its baseline from the same run, as a
 * ratio), the machine they were measured on, bench/results/latest.json, and one row appended to
 * the table of every run in bench/history/runs.md, whose newest rows are copied to
 * bench/RESULTS.md (between its row markers): RESULTS.md stays short, the history keeps every run.
 */
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { ratio, round } from "./stats.mjs";

/**
 * One reported figure. `better` says which way is good ("higher" or "lower"); `ratio` is always
 * value ÷ baseline value. `target` (from issue 7) is recorded, never asserted.
 */
export function figure({ key, name, value, unit, better, baseline, method, target }) {
  // A figure that could not be measured (no sample) is null, never NaN or undefined.
  const entry = { key, name, value: Number.isFinite(value) ? round(value, 2) : null, unit, better, method };
  if (baseline) {
    entry.baseline = {
      ...baseline,
      value: Number.isFinite(baseline.value) ? round(baseline.value, 3) : null,
    };
    entry.ratio = ratio(value, baseline.value);
  }
  if (target) entry.target = target;
  return entry;
}

function gitIn(cwd, ...args) {
  try {
    return execFileSync("git", args, {
      cwd,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    }).trim();
  } catch {
    return undefined;
  }
}

export function machine() {
  const cpus = os.cpus();
  return {
    cpu_model: cpus[0]?.model ?? "unknown",
    cores: cpus.length,
    memory_mb: Math.round(os.totalmem() / 1024 / 1024),
    os: `${os.type()} ${os.release()} ${os.arch()}`,
    node: process.version,
    load_average: os.loadavg().map((load) => round(load, 2)),
    note: "The load generator, the receivers and every server under test share this machine's cores.",
  };
}

/**
 * The Sluice that was measured: its folder, and its git commit and whether its tracked files
 * differ from it (uncommitted changes are measured too), when it is a git checkout.
 */
export function measuredTree(root) {
  const commit = gitIn(root, "rev-parse", "HEAD");
  return {
    path: root,
    git_commit: commit ?? "unknown (not a git checkout)",
    git_dirty:
      commit === undefined
        ? null
        : (gitIn(root, "status", "--porcelain", "--untracked-files=no") ?? "") !== "",
  };
}

export function writeLatest(file, results) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}

const ROWS_START = "<!-- bench:rows-start -->";
const ROWS_END = "<!-- bench:rows-end -->";

/** How many of the newest rows bench/RESULTS.md shows; bench/history/runs.md has them all. */
const LATEST_ROWS = 6;

/** The table's columns: a title and how to print it from the run's figures (by key). */
const COLUMNS = [
  ["date", (r) => r.date.slice(0, 16).replace("T", " ")],
  ["commit", (r) => `${r.measured.git_commit.slice(0, 7)}${r.measured.git_dirty ? "+" : ""}`],
  [
    "mode",
    (r) =>
      [
        r.mode,
        r.options.postgres ? "pg" : "",
        r.options.timers ? `timers ${r.options.timers}` : "",
        r.options.density ? `density ${r.options.density}` : "",
        r.options.label ?? "",
        typeof r.machine.cpu_steal_share === "number"
          ? `(steal ${round(r.machine.cpu_steal_share * 100, 0)}%)`
          : "",
      ]
        .filter(Boolean)
        .join(" "),
  ],
  // The Node that ran the bench and every Sluice server it started (they share process.execPath).
  ["node", (r) => r.machine.node],
  ["ingest req/s (× bare)", (r) => ingest(r)],
  ["ingest p99 ms", (r) => value(r, "ingest.p99")],
  ["ingest custom-resp. req/s", (r) => withRatio(r, "ingest.custom.rps")],
  [
    "deliver p99 ms (events/s)",
    (r) =>
      `${value(r, "deliver.low.emit_p99")} (100), ${value(r, "deliver.emit_p99")} (${r.scenarios.deliver?.latency?.rate ?? "–"})`,
  ],
  ["deliveries/s (× direct)", (r) => withRatio(r, "deliver.max_rate")],
  ["fan-out 100 ms", (r) => value(r, "deliver.fanout")],
  ["warm invoke overhead ms", (r) => value(r, "invoke.warm_overhead")],
  [
    "cold invoke ms (importing moment)",
    (r) =>
      find(r, "invoke.cold_package") === undefined
        ? value(r, "invoke.cold")
        : `${value(r, "invoke.cold")} (${value(r, "invoke.cold_package")})`,
  ],
  ["deploy cold / warm ms", (r) => `${value(r, "deploy.cold")} / ${value(r, "deploy.warm")}`],
  ["timer p99 ms (n)", (r) => timers(r)],
  ["idle RSS MB", (r) => value(r, "memory.idle_rss")],
  ["MB per runner", (r) => value(r, "memory.per_runner_pss")],
  ["Node-RED req/s (Sluice ×)", (r) => peer(r)],
];

function find(results, key) {
  return results.figures.find((entry) => entry.key === key);
}

function value(results, key) {
  const entry = find(results, key);
  if (entry === undefined) return "–";
  if (entry.value === null) return "none";
  return String(round(entry.value, entry.value >= 100 ? 0 : 1));
}

function withRatio(results, key) {
  const entry = find(results, key);
  if (entry === undefined) return "–";
  return `${value(results, key)} (×${entry.ratio ?? "?"})`;
}

/** Sluice's ingest with its ratio to bare, and the floor's ratio to bare where it was measured. */
function ingest(results) {
  const floor = find(results, "ingest.floor.rps");
  const sluice = find(results, "ingest.rps");
  if (floor === undefined || sluice === undefined) return withRatio(results, "ingest.rps");
  return `${value(results, "ingest.rps")} (×${sluice.ratio ?? "?"}; floor ×${floor.ratio ?? "?"})`;
}

function timers(results) {
  const keys = results.figures.filter((entry) => entry.key.startsWith("timers.p99."));
  if (keys.length === 0) return "–";
  return keys.map((entry) => `${value(results, entry.key)} (${entry.key.split(".")[2]})`).join(", ");
}

function peer(results) {
  const nodeRed = find(results, "peers.node_red.rps");
  if (nodeRed === undefined) return results.scenarios.peers?.skipped ? "n/a" : "–";
  return `${value(results, "peers.node_red.rps")} (×${find(results, "peers.sluice_vs_node_red")?.value ?? "?"})`;
}

/** The table's header and rule lines, with the marker rows are appended before. */
export function tableHeader() {
  return `| ${COLUMNS.map(([title]) => title).join(" | ")} |\n|${COLUMNS.map(() => "---").join("|")}|`;
}

function tableRows(text) {
  const start = text.indexOf(ROWS_START);
  const end = text.indexOf(ROWS_END);
  if (start === -1 || end === -1) return [];
  return text
    .slice(start + ROWS_START.length, end)
    .split("\n")
    .filter((line) => line.startsWith("| ") && !line.startsWith("| date |"));
}

function withTable(text, rows, title) {
  const table = `${ROWS_START}\n${tableHeader()}\n${rows.map((row) => `${row}\n`).join("")}${ROWS_END}`;
  const start = text.indexOf(ROWS_START);
  const end = text.indexOf(ROWS_END);
  if (start === -1 || end === -1) return `${text}${text === "" ? `# ${title}\n` : ""}\n${table}\n`;
  return `${text.slice(0, start)}${table}${text.slice(end + ROWS_END.length)}`;
}

/**
 * Appends the run's row to the table of every run (`history`, bench/history/runs.md) and shows
 * that table's newest rows in `latest` (bench/RESULTS.md), each file created if missing. The text
 * outside the markers of either file is left as it is.
 */
export function recordRow({ latest, history }, results) {
  const row = `| ${COLUMNS.map(([, cell]) => cell(results)).join(" | ")} |`;
  const historyText = fs.existsSync(history) ? fs.readFileSync(history, "utf8") : "";
  const rows = [...tableRows(historyText), row];
  fs.mkdirSync(path.dirname(history), { recursive: true });
  fs.writeFileSync(history, withTable(historyText, rows, "Every run of npm run bench"));
  const latestText = fs.existsSync(latest) ? fs.readFileSync(latest, "utf8") : "";
  fs.writeFileSync(latest, withTable(latestText, rows.slice(-LATEST_ROWS), "Benchmark results"));
  return row;
}

/**
 * Reading a V8 CPU profile (`node --cpu-prof`): where the sampled time went, by function (self
 * time: the samples whose innermost frame is that function) and by where the code comes from
 * (Sluice, better-sqlite3, Fastify, Node's internals, garbage collection, idle).
 */
import fs from "node:fs";
import path from "node:path";
import { round } from "./stats.mjs";

/**
 * node's flags to write a CPU profile of a server into `dir` (written when the server exits), and
 * where it goes. `name` says which scenario it profiles. The profiler's sampling slows the server a
 * little: a profiled run's figures are for finding where the time goes, not for the results table.
 */
export function profileArgs(dir, name) {
  fs.mkdirSync(dir, { recursive: true });
  const file = `${name}-${new Date().toISOString().replace(/[:.]/g, "-")}.cpuprofile`;
  return {
    nodeArgs: ["--cpu-prof", "--cpu-prof-dir", dir, "--cpu-prof-name", file],
    file: () => path.join(dir, file),
  };
}

/** The monotonic clock V8 stamps its samples with (CLOCK_MONOTONIC, shared by every process), in µs. */
export function monotonicMicros() {
  return Number(process.hrtime.bigint() / 1000n);
}

/**
 * Self time per frame and per origin, in ms, largest first; the sampled total and idle time.
 * `window` ({from, to}, from monotonicMicros()) keeps only the samples taken in it: the load,
 * without the server's start-up and the deploy.
 */
export function summarizeProfile(file, { top = 25, window } = {}) {
  const profile = JSON.parse(fs.readFileSync(file, "utf8"));
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const selfMs = new Map();
  let totalMs = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, index) => {
    const delta = profile.timeDeltas[index] ?? 0;
    at += delta;
    if (window && (at < window.from || at > window.to)) return;
    const ms = delta / 1000;
    totalMs += ms;
    selfMs.set(id, (selfMs.get(id) ?? 0) + ms);
  });

  const frames = new Map();
  const origins = new Map();
  const inclusive = new Map();
  const parentOf = new Map();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  for (const [id, ms] of selfMs) {
    // Each of the sample's Sluice frames once (recursion counts once), for the time under it.
    const seen = new Set();
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      const { callFrame } = byId.get(at);
      if (!origin(callFrame).startsWith("sluice ")) continue;
      const key = `${callFrame.functionName || "(anonymous)"} ${location(callFrame)}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + ms);
    }
  }
  for (const [id, ms] of selfMs) {
    const { callFrame } = byId.get(id);
    const where = location(callFrame);
    const key = `${callFrame.functionName || "(anonymous)"} ${where}`;
    frames.set(key, (frames.get(key) ?? 0) + ms);
    const from = origin(callFrame);
    origins.set(from, (origins.get(from) ?? 0) + ms);
  }
  const ranked = (map, limit) =>
    [...map]
      .sort((a, b) => b[1] - a[1])
      .slice(0, limit)
      .map(([name, ms]) => ({ name, self_ms: round(ms, 1), share: round(ms / totalMs, 3) }));
  return {
    file,
    window_ms: window ? round((window.to - window.from) / 1000, 1) : null,
    sampled_ms: round(totalMs, 1),
    idle_ms: round(origins.get("(idle)") ?? 0, 1),
    by_origin: ranked(origins, 20),
    top_frames: ranked(frames, top),
    sluice_inclusive: ranked(inclusive, top),
  };
}

/** A summary as lines of text, for the console. */
export function formatProfile(summary) {
  const busy = summary.sampled_ms - summary.idle_ms;
  const lines = [
    `  CPU profile ${summary.file}${summary.window_ms === null ? "" : ` (the ${summary.window_ms} ms under load)`}: ${summary.sampled_ms} ms sampled, ${summary.idle_ms} ms idle (event loop waiting), ${round(busy, 1)} ms busy`,
    "  self time by origin:",
    ...summary.by_origin.map((entry) => `    ${pad(entry.self_ms)} ms ${pct(entry.share)}  ${entry.name}`),
    "  top frames by self time:",
    ...summary.top_frames.map((entry) => `    ${pad(entry.self_ms)} ms ${pct(entry.share)}  ${entry.name}`),
    "  Sluice's functions by the time spent in them and under them:",
    ...summary.sluice_inclusive.map(
      (entry) => `    ${pad(entry.self_ms)} ms ${pct(entry.share)}  ${entry.name}`,
    ),
  ];
  return lines.join("\n");
}

function pad(value) {
  return String(value).padStart(8);
}

function pct(share) {
  return `${(share * 100).toFixed(1).padStart(5)}%`;
}

function location({ url, lineNumber }) {
  if (!url) return "";
  const short = url
    .replace(/^file:\/\//, "")
    .replace(/.*\/node_modules\//, "")
    .replace(/.*\/dist\//, "dist/");
  return `(${short}:${lineNumber + 1})`;
}

/** Where a frame's code comes from: a package, Sluice's own dist/, node: internals, or V8's pseudo frames. */
function origin({ url, functionName }) {
  if (!url) {
    // V8's pseudo frames: (idle), (garbage collector), (program); native functions without a script.
    return functionName.startsWith("(") ? functionName : "(native)";
  }
  if (url.startsWith("node:")) return `node:${url.slice(5).split("/")[0]}`;
  const modules = url.lastIndexOf("/node_modules/");
  if (modules >= 0) {
    const rest = url.slice(modules + "/node_modules/".length).split("/");
    return rest[0]?.startsWith("@") ? `${rest[0]}/${rest[1]}` : (rest[0] ?? url);
  }
  const dist = url.indexOf("/dist/");
  if (dist >= 0) return `sluice ${path.dirname(url.slice(dist + 1))}`;
  return url;
}

#!/usr/bin/env node
/**
 * `node bench/workflow-http.mjs [--sluice DIR] [--postgres URL] [--connections 10]
 * [--concurrency 10] [--seconds 5] [--profile]`: HTTP requests to a workflow whose one step answers them
 * (`http: { customResponse: true }`, `$.respond()`), its `concurrency` as given, from autocannon
 * at `--connections` for `--seconds` after a one-second warm-up. Each request is a whole run:
 * queued, started, its step invoked, its record committed. Prints requests/s, p50 and p99, and
 * the CPU a request cost the server and its runners. Run it on two builds (`--sluice`) to
 * compare them. With `--profile` the server runs under `node --cpu-prof` and where its time went
 * under load is printed (the profile is written to bench/results/). Writes nothing else.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { hammerWithCpu } from "./lib/load.mjs";
import { formatProfile, monotonicMicros, profileArgs, summarizeProfile } from "./lib/profile.mjs";
import { ROOT, startSluice } from "./lib/sluice.mjs";
import { round, sleep } from "./lib/stats.mjs";

const { values: args } = parseArgs({
  options: {
    sluice: { type: "string", default: ROOT },
    postgres: { type: "string" },
    connections: { type: "string", default: "10" },
    concurrency: { type: "string", default: "10" },
    seconds: { type: "string", default: "5" },
    profile: { type: "boolean", default: false },
  },
});
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wfh-"));
const profiling = args.profile
  ? profileArgs(path.join(ROOT, "bench", "results"), "workflow-http")
  : undefined;
let window;
const server = await startSluice({
  nodeArgs: profiling?.nodeArgs,
  tmp,
  postgres: args.postgres,
  sluiceRoot: path.resolve(args.sluice),
  label: "wfh",
});
try {
  const step = `export default { type: "action", async run({ steps, $ }) { await $.respond({ status: 200, body: { ok: true } }); } };`;
  const workflow = await server.api("POST", "/v1/workflows", {
    name: "respond",
    concurrency: Number(args.concurrency),
    trigger: { http: { customResponse: true } },
    steps: [{ name: "reply", code: step }],
  });
  const from = monotonicMicros();
  const result = await hammerWithCpu(workflow.endpoint_url, server.pid, {
    connections: Number(args.connections),
    seconds: Number(args.seconds),
  });
  window = { from, to: monotonicMicros() };
  const { latency_ms: latency, cpu_ms_per_request: cpu } = result;
  console.log(
    `${args.sluice} ${args.postgres ? "PostgreSQL" : "SQLite"}: ${result.requests_per_s} req/s, p50 ${latency.p50} ms, p99 ${latency.p99} ms, ${result.non_2xx} not 2xx; CPU a request: server ${round(cpu.server, 3)} ms, runners ${round(cpu.children, 3)} ms`,
  );
} finally {
  await server.stop();
  await sleep(100);
  fs.rmSync(tmp, { recursive: true, force: true });
}
if (profiling && window) console.log(formatProfile(summarizeProfile(profiling.file(), { window })));

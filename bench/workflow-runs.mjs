#!/usr/bin/env node
/**
 * `node bench/workflow-runs.mjs [--sluice DIR] [--postgres URL] [--runs N] [--steps S] [--cpu-prof DIR]`: N runs
 * of a workflow (concurrency 4, S steps, the last of which emits an event, a webhook subscribed
 * to the workflow),
 * queued over REST ten at a time. Prints the time from the first run queued to the last event
 * received, and the CPU a run cost the server and, with `--postgres`, every `postgres` process of
 * the machine. A warm-up of 50 runs comes first. Run it on two builds (`--sluice`) to compare
 * them. Writes nothing but, with `--cpu-prof`, the server's CPU profile into DIR.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { cpuMsOfProcessesNamed, processCpuMs } from "./lib/proc.mjs";
import { startReceiver } from "./lib/receiver.mjs";
import { ROOT, startSluice } from "./lib/sluice.mjs";
import { round, sleep } from "./lib/stats.mjs";

const { values: args } = parseArgs({
  options: {
    sluice: { type: "string", default: ROOT },
    postgres: { type: "string" },
    runs: { type: "string", default: "1000" },
    steps: { type: "string", default: "1" },
    "cpu-prof": { type: "string" },
  },
});
const runs = Number(args.runs);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wfb-"));
const receiver = await startReceiver();
const server = await startSluice({
  tmp,
  postgres: args.postgres,
  sluiceRoot: path.resolve(args.sluice),
  label: "wf",
  nodeArgs: args["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(args["cpu-prof"])}`] : [],
});
try {
  const step = `export default { name: "step", type: "action", props: {}, async run({ steps, $ }) { $.send.emit({ raw_event: { n: steps.trigger.event.n } }); return 1; } };`;
  const passes = `export default { name: "pass", type: "action", props: {}, async run({ steps }) { return steps.trigger.event.n; } };`;
  const stepCount = Number(args.steps);
  const workflow = await server.api("POST", "/v1/workflows", {
    name: "wf",
    concurrency: 4,
    steps: Array.from({ length: stepCount }, (_, k) => ({
      name: `s${k}`,
      code: k === stepCount - 1 ? step : passes,
    })),
  });
  const webhook = await server.api("POST", "/v1/webhooks", { url: `${receiver.url}/wf`, name: "wf" });
  await server.api("POST", "/v1/subscriptions", { emitter_id: workflow.id, listener_id: webhook.id });
  const queue = async (from, count) => {
    for (let n = from; n < from + count; n += 10)
      await Promise.all(
        Array.from({ length: 10 }, (_, k) =>
          server.api("POST", `/v1/workflows/${workflow.id}/runs`, { event: { n: n + k } }),
        ),
      );
  };
  await queue(0, 50);
  await receiver.waitForCount(50, 60_000);
  receiver.reset();
  const cpu0 = processCpuMs(server.pid);
  const pg0 = args.postgres ? cpuMsOfProcessesNamed("postgres") : 0;
  const t0 = Date.now();
  await queue(1000, runs);
  await receiver.waitForCount(runs, 120_000);
  const ms = Date.now() - t0;
  const cpu = processCpuMs(server.pid) - cpu0;
  const pg = args.postgres ? cpuMsOfProcessesNamed("postgres") - pg0 : 0;
  console.log(
    `${args.sluice} ${args.postgres ? "PostgreSQL" : "SQLite"}: ${runs} runs of ${stepCount} steps in ${ms} ms (${round(runs / (ms / 1000), 0)}/s); CPU a run: server ${round(cpu / runs)} ms${args.postgres ? `, postgres ${round(pg / runs)} ms` : ""}`,
  );
} finally {
  await server.stop();
  await receiver.close();
  await sleep(100);
  fs.rmSync(tmp, { recursive: true, force: true });
}

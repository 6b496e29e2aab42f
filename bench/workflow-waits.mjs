#!/usr/bin/env node
/**
 * `node bench/workflow-waits.mjs [--postgres URL] [--paused N] [--delayed N] [--rate R] [--resumes N] [--figures 1,2,3]`:
 * runs that wait (`$.flow.delay`, `$.flow.suspend`), on one server. Three figures, each beside a
 * baseline measured in the same run:
 *   1. paused runs held: the RSS of a server restarted once N runs (default 100,000) are paused
 *      for a year, against a server restarted with 100 paused, and how many runner processes each
 *      keeps; and the live server's RSS right after it took them (its allocator's high water);
 *   2. resume lateness: N runs (default 10,000) delayed by 5 s, queued at R a second (default 100),
 *      each reporting when its next step starts; lateness is that minus its due time, against the
 *      lateness of the same number of plain runs' first step (queue → start) at the same rate;
 *   3. resume → next step: N suspended runs (default 300), one at a time, each resumed by a request to
 *      its resume_url; the time from the request to the next step's report, against a manual run's
 *      start → its first step's report.
 * Writes nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { paced } from "./lib/load.mjs";
import { treeMemory } from "./lib/proc.mjs";
import { startReceiver } from "./lib/receiver.mjs";
import { startSluice } from "./lib/sluice.mjs";
import { percentile, round, sleep } from "./lib/stats.mjs";

const { values: args } = parseArgs({
  options: {
    postgres: { type: "string" },
    paused: { type: "string", default: "100000" },
    delayed: { type: "string", default: "10000" },
    rate: { type: "string", default: "100" },
    resumes: { type: "string", default: "300" },
    figures: { type: "string", default: "1,2,3" },
  },
});
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "wwb-"));
const receiver = await startReceiver();
const server = await startSluice({
  tmp,
  postgres: args.postgres,
  label: "waits",
  // The steps report to the local receiver.
  env: { SLUICE_LOG_LEVEL: "warn", SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8" },
});
const db = args.postgres ? "PostgreSQL" : "SQLite";
const isRunner = (command) => command.includes("runner");

/** One action for every step: reports `path` (with the event's `n` and `due`) and waits as `wait` says. */
const PROBE = `export default {
  name: "probe", type: "action",
  props: { path: { type: "string" }, wait: { type: "string", optional: true }, ms: { type: "integer", optional: true } },
  async run({ steps, $ }) {
    const { receiver, n } = steps.trigger.event;
    let due;
    let resume_url;
    if (this.wait === "delay") { $.flow.delay(this.ms); due = Date.now() + this.ms; }
    if (this.wait === "suspend") resume_url = $.flow.suspend().resume_url;
    if (this.path !== "none") {
      await fetch(receiver + "/" + this.path, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify({ n, due: due ?? steps.first?.$return_value?.due, resume_url, at: Date.now() }) });
    }
    return { due };
  },
};`;
const step = (name, props) => ({ name, code: PROBE, props });
const deploy = (name, steps, concurrency = 16) =>
  server.api("POST", "/v1/workflows", { name, concurrency, steps });
const run = (workflow, n) =>
  server.api("POST", `/v1/workflows/${workflow.id}/runs`, { event: { receiver: receiver.url, n } });
const queueMany = async (workflow, count) => {
  for (let n = 0; n < count; n += 50)
    await Promise.all(Array.from({ length: Math.min(50, count - n) }, (_, k) => run(workflow, n + k)));
};
/** The workflow's runs paused or suspended: the page's total_count (`api` answers the page's data only). */
const pausedCount = async (workflow) => {
  const response = await fetch(
    `${server.url}/v1/workflows/${workflow.id}/runs?status=paused,suspended&limit=1`,
    {
      headers: { authorization: `Bearer ${server.apiKey}` },
    },
  );
  if (!response.ok)
    throw new Error(`listing paused runs answered ${response.status}: ${await response.text()}`);
  return (await response.json()).page_info.total_count;
};
const stats = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return `p50 ${round(percentile(sorted, 50))} ms, p99 ${round(percentile(sorted, 99))} ms, max ${round(sorted.at(-1))} ms`;
};

const figures = new Set(args.figures.split(","));
try {
  // 1. Paused runs held.
  if (figures.has("1")) {
    const paused = Number(args.paused);
    const year = deploy("held", [
      step("first", { path: "none", wait: "delay", ms: 365 * 24 * 3600 * 1000 - 1000 }),
      step("then", { path: "never" }),
    ]);
    const held = await year;
    await queueMany(held, 100);
    while ((await pausedCount(held)) < 100) await sleep(200);
    // A fresh process on the same data, settled: what holding the paused runs costs, without the
    // allocator's high water from taking them (reported too, as "live").
    const fresh = async () => {
      await server.restart();
      await pausedCount(held);
      await sleep(5000);
      return treeMemory(server.pid, isRunner);
    };
    const idle = await fresh();
    const t0 = Date.now();
    await queueMany(held, paused - 100);
    while ((await pausedCount(held)) < paused) await sleep(1000);
    const pausedMs = Date.now() - t0;
    await sleep(5000);
    const live = treeMemory(server.pid, isRunner);
    const after = await fresh();
    console.log(
      `${db}: ${paused} paused runs (queued and paused in ${round(pausedMs / 1000, 1)} s), each server just restarted: server RSS ${round(after.self.rssMb)} MB against ${round(idle.self.rssMb)} MB with 100 (+${round(after.self.rssMb - idle.self.rssMb)} MB); runner processes ${after.runners.count} against ${idle.runners.count}; live, right after taking them: ${round(live.self.rssMb)} MB, ${live.runners.count} runners (${round(live.runners.rssMb)} MB)`,
    );
  }

  // 2. Resume lateness of runs delayed by 5 s, beside plain runs' start lateness at the same rate.
  if (figures.has("2")) {
    const delayedCount = Number(args.delayed);
    const rate = Number(args.rate);
    const delayed = await deploy("delayed", [
      step("first", { path: "none", wait: "delay", ms: 5000 }),
      step("then", { path: "resumed" }),
    ]);
    const plain = await deploy("plain", [step("first", { path: "started" })]);
    const lateness = async (workflow, path, dueOf) => {
      // Warm: the workflow's runner processes (one a slot) start before the measured runs.
      receiver.reset();
      await queueMany(workflow, 50);
      await receiver.waitForCount(50, 60_000);
      receiver.reset();
      let n = 0;
      const queuedAt = new Map();
      await paced({
        rate,
        seconds: delayedCount / rate,
        send: async () => {
          const k = n++;
          queuedAt.set(k, Date.now());
          await run(workflow, k);
        },
      });
      await receiver.waitForCount(n, 300_000);
      return receiver.received
        .filter((r) => r.path === `/${path}`)
        .map((r) => r.at - dueOf(r.body, queuedAt));
    };
    const startLate = await lateness(plain, "started", (body, queuedAt) => queuedAt.get(body.n));
    const resumeLate = await lateness(delayed, "resumed", (body) => body.due);
    console.log(
      `${db}: ${delayedCount} runs delayed 5 s at ${rate}/s: resume lateness ${stats(resumeLate)}; plain runs' queue → first step at the same rate: ${stats(startLate)}`,
    );
  }

  // 3. resume_url → next step, one at a time, beside a manual run's start → first step.
  if (figures.has("3")) {
    const resumes = Number(args.resumes);
    const approvals = await deploy("approvals", [
      step("first", { path: "asked", wait: "suspend" }),
      step("then", { path: "approved" }),
    ]);
    const toNext = [];
    const toFirst = [];
    for (let k = 0; k < resumes; k++) {
      receiver.reset();
      const started = Date.now();
      await run(approvals, k);
      const asked = await receiver.waitForCount(1, 30_000).then(() => receiver.received[0]);
      toFirst.push(asked.at - started);
      // The request may come before the wait commits: it is held until then, as a callback's would be.
      const sent = Date.now();
      const response = await fetch(asked.body.resume_url, { method: "POST" });
      if (response.status !== 200)
        throw new Error(`resume answered ${response.status}: ${await response.text()}`);
      await receiver.waitForCount(2, 30_000);
      toNext.push(receiver.received[1].at - sent);
    }
    console.log(
      `${db}: ${resumes} resumes one at a time: resume_url → next step ${stats(toNext)}; a manual run's queue → first step ${stats(toFirst)}`,
    );
  }
} finally {
  await server.stop();
  await receiver.close();
  await sleep(100);
  fs.rmSync(tmp, { recursive: true, force: true });
}

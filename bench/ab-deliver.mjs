#!/usr/bin/env node
/**
 * `node bench/ab-deliver.mjs --a DIR [--b DIR] [--rounds N] [--rate 500] [--seconds 10]
 * [--max N] [--postgres URL]`: the deliver scenario's fixed-rate phase (scenarios/deliver.mjs) for two built
 * Sluice checkouts, A and B (B defaults to this one), in rotation (A B B A, repeated). Each run: a
 * fresh server, a source subscribed to a webhook on a receiver in this process, events emitted
 * `--rate` a second (5 a request, open loop) for `--seconds` after a warm-up. Prints each run and
 * the medians: emit-to-receiver p50 and p99, and the CPU time an event cost the server, its
 * runner and, with `--postgres`, every `postgres` process of the machine (the database's backends
 * do half the work at these rates). CPU an event moves far less with a busy host than the tail
 * does, so it is what tells two builds apart. With `--max N`, the max-rate phase instead: N events
 * emitted 100 a request as fast as the endpoint takes them, deliveries/s and the CPU a delivery
 * costs each side. Writes nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { startReceiver } from "./lib/receiver.mjs";
import { inRotation, medianOf } from "./lib/rotation.mjs";
import { ROOT, startSluice } from "./lib/sluice.mjs";
import { percentile, round } from "./lib/stats.mjs";
import { maxRateWithCpu, pacedWithCpu, subscribedSource, warmUp } from "./scenarios/deliver.mjs";

const { values: args } = parseArgs({
  options: {
    a: { type: "string" },
    b: { type: "string", default: ROOT },
    rounds: { type: "string", default: "2" },
    rate: { type: "string", default: "500" },
    seconds: { type: "string", default: "10" },
    max: { type: "string" },
    postgres: { type: "string" },
  },
});
if (!args.a) {
  console.error(
    "usage: node bench/ab-deliver.mjs --a DIR [--b DIR] [--rounds N] [--rate 500] [--seconds 10] [--max N] [--postgres URL]",
  );
  process.exit(2);
}
const rate = Number(args.rate);
const seconds = Number(args.seconds);
const builds = { A: path.resolve(args.a), B: path.resolve(args.b) };
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-ab-deliver-"));
const results = { A: [], B: [] };

async function measure(name) {
  const receiver = await startReceiver();
  const server = await startSluice({ tmp, postgres: args.postgres, sluiceRoot: builds[name], label: name });
  try {
    const source = await subscribedSource(server, receiver, "/ab", "ab");
    await warmUp(receiver, source, 50);
    const run = args.max
      ? await maxRateWithCpu(server, receiver, source, { total: Number(args.max) })
      : await pacedWithCpu(server, receiver, source, { rate, seconds });
    const row = {
      rate: round(run.rate ?? run.achievedRate, 1),
      p50: run.latency ? percentile(run.latency, 50) : undefined,
      p99: run.latency ? percentile(run.latency, 99) : undefined,
      server: round(run.cpuPerEvent.server, 3),
      runner: round(run.cpuPerEvent.runner, 3),
      postgres: args.postgres ? round(run.cpuPerEvent.postgres, 3) : undefined,
      missing: run.missing,
      steal: round(run.steal * 100, 1),
    };
    results[name].push(row);
    console.log(
      `${name}: ${row.rate} ${args.max ? "deliveries" : "events"}/s` +
        (run.latency ? `, p50 ${row.p50} ms, p99 ${row.p99} ms` : "") +
        `, CPU/event server ${row.server} ms, runner ${row.runner} ms` +
        (args.postgres ? `, postgres ${row.postgres} ms` : "") +
        `, missing ${row.missing}, duplicates ${run.duplicates}, steal ${row.steal}%`,
    );
  } finally {
    await server.stop();
    await receiver.close();
  }
}

try {
  await inRotation(Number(args.rounds), measure);
  for (const name of ["A", "B"]) {
    const rows = results[name];
    console.log(
      `${name} median (${rows.length} runs, ${builds[name]}): ` +
        (args.max
          ? `${medianOf(rows, "rate")} deliveries/s`
          : `p50 ${medianOf(rows, "p50")} ms, p99 ${medianOf(rows, "p99")} ms`) +
        `, CPU/event server ${medianOf(rows, "server")} ms, runner ${medianOf(rows, "runner")} ms` +
        (args.postgres ? `, postgres ${medianOf(rows, "postgres")} ms` : ""),
    );
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

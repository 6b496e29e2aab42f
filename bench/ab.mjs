#!/usr/bin/env node
/**
 * `node bench/ab.mjs --a DIR [--b DIR] [--rounds N] [--env K=V ...] [--postgres URL]`: the ingest
 * request of two built Sluice checkouts, A and B (B defaults to this one), in rotation
 * (A B B A, repeated), from one bench process, so that neither build meets the load generator
 * colder or the machine busier than the other. Each run: a fresh server, one HTTP source that
 * emits its body (or responds first: below), autocannon at 50 connections for 3 s after a 1 s
 * warm-up. Prints each run and the medians: requests/s, p99, and the CPU time per request of the
 * server and of its runner, which a busy machine changes far less than it changes throughput.
 * Writes nothing.
 *
 * `--env-a`/`--env-b` and `--postgres-a`/`--postgres-b` apply to one side only: the same build
 * at two log levels, say, or on SQLite against PostgreSQL (`--a . --postgres-b URL`).
 * `--component-a`/`--component-b` pick the source each side deploys, the ingest scenario's
 * (scenarios/ingest.mjs): `plain` (the default) or `respond` (customResponse), to compare the two
 * on one build (`--a . --component-b respond`).
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { hammerWithCpu } from "./lib/load.mjs";
import { inRotation, medianOf } from "./lib/rotation.mjs";
import { ROOT, startSluice } from "./lib/sluice.mjs";
import { round } from "./lib/stats.mjs";
import { EMIT_AND_RESPOND, EMIT_BODY } from "./scenarios/ingest.mjs";

const { values: args } = parseArgs({
  options: {
    a: { type: "string" },
    b: { type: "string", default: ROOT },
    rounds: { type: "string", default: "2" },
    env: { type: "string", multiple: true, default: [] },
    "env-a": { type: "string", multiple: true, default: [] },
    "env-b": { type: "string", multiple: true, default: [] },
    postgres: { type: "string" },
    "postgres-a": { type: "string" },
    "postgres-b": { type: "string" },
    seconds: { type: "string", default: "3" },
    "component-a": { type: "string", default: "plain" },
    "component-b": { type: "string", default: "plain" },
  },
});
if (!args.a) {
  console.error(
    "usage: node bench/ab.mjs --a DIR [--b DIR] [--rounds N] [--env K=V] [--env-a K=V] [--env-b K=V] [--component-a plain|respond] [--component-b plain|respond]",
  );
  process.exit(2);
}
const pairs = (list) =>
  Object.fromEntries(
    list.map((item) => [item.slice(0, item.indexOf("=")), item.slice(item.indexOf("=") + 1)]),
  );
/** The sources a side may deploy: the ingest scenario's two. */
const COMPONENTS = { plain: EMIT_BODY, respond: EMIT_AND_RESPOND };
const componentOf = (name) => {
  const code = COMPONENTS[name];
  if (!code) {
    console.error(`unknown component ${JSON.stringify(name)}: use ${Object.keys(COMPONENTS).join(" or ")}`);
    process.exit(2);
  }
  return code;
};
const builds = {
  A: {
    component: args["component-a"],
    code: componentOf(args["component-a"]),
    root: path.resolve(args.a),
    env: { ...pairs(args.env), ...pairs(args["env-a"]) },
    postgres: args["postgres-a"] ?? args.postgres,
  },
  B: {
    component: args["component-b"],
    code: componentOf(args["component-b"]),
    root: path.resolve(args.b),
    env: { ...pairs(args.env), ...pairs(args["env-b"]) },
    postgres: args["postgres-b"] ?? args.postgres,
  },
};
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-ab-"));
const results = { A: [], B: [] };

async function measure(name) {
  const build = builds[name];
  const server = await startSluice({
    tmp,
    postgres: build.postgres,
    sluiceRoot: build.root,
    env: build.env,
    label: name,
  });
  try {
    const source = await server.deploy(build.code);
    const run = await hammerWithCpu(source.endpoint_url, server.pid, {
      connections: 50,
      seconds: Number(args.seconds),
    });
    const row = {
      rps: run.requests_per_s,
      p99: run.latency_ms.p99,
      server: round(run.cpu_ms_per_request.server, 3),
      runner: round(run.cpu_ms_per_request.children, 3),
      load: os.loadavg()[0].toFixed(1),
    };
    results[name].push(row);
    console.log(
      `${name}: ${row.rps} req/s, p99 ${row.p99} ms, CPU/request server ${row.server} ms, runner ${row.runner} ms (load ${row.load})`,
    );
  } finally {
    await server.stop();
  }
}

try {
  await inRotation(Number(args.rounds), measure);
  for (const name of ["A", "B"]) {
    const rows = results[name];
    console.log(
      `${name} median (${rows.length} runs, ${builds[name].root}, ${builds[name].component}): ${medianOf(rows, "rps")} req/s, p99 ${medianOf(rows, "p99")} ms, CPU/request server ${medianOf(rows, "server")} ms, runner ${medianOf(rows, "runner")} ms`,
    );
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

#!/usr/bin/env node
/**
 * `node bench/floor.mjs [--rounds N] [--seconds S] [--postgres URL]`: how close to bare node:http
 * an ingest that keeps Sluice's promises can come on this machine, and how close Sluice comes.
 * In rotation (the order reversed every other round), under the ingest load (autocannon, 50
 * connections): the bare node:http server; the floor server (lib/floor-server.mjs) with its
 * child-process hop only, its durable SQLite group commit only, and both; and this checkout's
 * Sluice with the ingest scenario's source. Prints each run and the medians: requests/s, p99, the
 * CPU time a request of the server and of its children, and the ratio to bare of the same round.
 * Writes nothing.
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { hammerWithCpu } from "./lib/load.mjs";
import { startBareServer, startFloorServer } from "./lib/processes.mjs";
import { startSluice } from "./lib/sluice.mjs";
import { percentile, round } from "./lib/stats.mjs";
import { EMIT_BODY } from "./scenarios/ingest.mjs";

const { values: args } = parseArgs({
  options: {
    rounds: { type: "string", default: "2" },
    seconds: { type: "string", default: "3" },
    postgres: { type: "string" },
  },
});
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-floor-"));

/** Each contender: starts its server, resolves to {url, pid, stop}. */
const contenders = {
  bare: () => startBareServer(),
  "floor ipc": () => startFloorServer({ parts: "ipc", dataDir: fs.mkdtempSync(path.join(tmp, "f-")) }),
  "floor db": () => startFloorServer({ parts: "db", dataDir: fs.mkdtempSync(path.join(tmp, "f-")) }),
  "floor ipc+db": () => startFloorServer({ parts: "ipc,db", dataDir: fs.mkdtempSync(path.join(tmp, "f-")) }),
  "floor ipc+dbworker": () =>
    startFloorServer({ parts: "ipc,dbworker", dataDir: fs.mkdtempSync(path.join(tmp, "f-")) }),
  sluice: async () => {
    const server = await startSluice({ tmp, postgres: args.postgres, label: "floor" });
    const source = await server.deploy(EMIT_BODY).catch(async (error) => {
      await server.stop();
      throw error;
    });
    return { url: source.endpoint_url, pid: server.pid, stop: () => server.stop() };
  },
};
const results = Object.fromEntries(Object.keys(contenders).map((name) => [name, []]));

async function measure(name) {
  const server = await contenders[name]();
  try {
    const run = await hammerWithCpu(server.url, server.pid, {
      connections: 50,
      seconds: Number(args.seconds),
    });
    const row = {
      rps: run.requests_per_s,
      p99: run.latency_ms.p99,
      server: round(run.cpu_ms_per_request.server, 4),
      children: round(run.cpu_ms_per_request.children, 4),
      load: os.loadavg()[0].toFixed(1),
    };
    results[name].push(row);
    console.log(
      `${name}: ${row.rps} req/s, p99 ${row.p99} ms, CPU/request server ${row.server} ms, children ${row.children} ms (load ${row.load})`,
    );
  } finally {
    await server.stop();
  }
}

try {
  const names = Object.keys(contenders);
  for (let r = 0; r < Number(args.rounds); r++) {
    for (const name of r % 2 === 0 ? names : [...names].reverse()) await measure(name);
  }
  const median = (rows, key) =>
    percentile(
      rows.map((row) => row[key]),
      50,
    );
  const bare = results.bare;
  for (const [name, rows] of Object.entries(results)) {
    const ratios = rows.map((row, i) => row.rps / bare[i].rps);
    console.log(
      `${name} median of ${rows.length}: ${median(rows, "rps")} req/s (x${round(percentile(ratios, 50), 3)} of bare), p99 ${median(rows, "p99")} ms, CPU/request server ${median(rows, "server")} ms, children ${median(rows, "children")} ms`,
    );
  }
} finally {
  fs.rmSync(tmp, { recursive: true, force: true });
}

/**
 * peers (--peers): Node-RED, installed with npm into a temporary folder (the newest release
 * whose engines accept this Node), running an http-in → function → http-response flow that
 * parses the same JSON body and answers 200 {"success":true}, under the same autocannon load as
 * ingest. Node-RED keeps nothing: the comparison is with Sluice storing every event durably.
 * If Node-RED cannot be installed here the scenario says so and the run goes on.
 */
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { hammer } from "../lib/load.mjs";
import { freePort, stopChild, track, waitForHttp } from "../lib/processes.mjs";
import { figure } from "../lib/report.mjs";
import { round } from "../lib/stats.mjs";

const run = promisify(execFile);
/** Node-RED 5 needs Node 22.9 or later; 4.x runs on Node 18.5 and later. */
const VERSION = Number(process.versions.node.split(".")[0]) >= 22 ? "node-red@5" : "node-red@4";

const FLOWS = [
  { id: "tab", type: "tab", label: "bench" },
  { id: "in", z: "tab", type: "http in", url: "/ingest", method: "post", wires: [["fn"]] },
  {
    id: "fn",
    z: "tab",
    type: "function",
    func: "msg.event = msg.payload;\nmsg.payload = { success: true };\nmsg.statusCode = 200;\nreturn msg;",
    outputs: 1,
    wires: [["out"]],
  },
  { id: "out", z: "tab", type: "http response", statusCode: "200", headers: {}, wires: [] },
];

export async function peers(ctx) {
  const folder = fs.mkdtempSync(path.join(ctx.tmp, "node-red-"));
  fs.writeFileSync(path.join(folder, "package.json"), '{"private":true}\n');
  const installStart = Date.now();
  try {
    await run("npm", ["install", VERSION, "--no-audit", "--no-fund", "--loglevel=error"], {
      cwd: folder,
      timeout: 600_000,
      maxBuffer: 16 * 1024 * 1024,
    });
  } catch (error) {
    const reason = `npm install ${VERSION} failed: ${String(error.stderr || error.message)
      .trim()
      .split("\n")
      .slice(0, 5)
      .join(" | ")}`;
    ctx.log(`  skipped: ${reason}`);
    return { figures: [], details: {}, skipped: reason };
  }
  const installed = JSON.parse(
    fs.readFileSync(path.join(folder, "node_modules", "node-red", "package.json"), "utf8"),
  );
  const installSeconds = round((Date.now() - installStart) / 1000, 1);
  ctx.log(`  installed node-red ${installed.version} in ${installSeconds} s`);

  const port = await freePort();
  const userDir = path.join(folder, "user");
  fs.mkdirSync(userDir);
  fs.writeFileSync(path.join(userDir, "flows.json"), JSON.stringify(FLOWS));
  fs.writeFileSync(
    path.join(userDir, "settings.js"),
    `module.exports = { uiHost: "127.0.0.1", uiPort: ${port}, flowFile: "flows.json", credentialSecret: false, httpAdminRoot: false, logging: { console: { level: "warn" } } };\n`,
  );
  const log = fs.openSync(path.join(folder, "node-red.log"), "a");
  const child = track(
    spawn(
      process.execPath,
      [
        path.join(folder, "node_modules", "node-red", "red.js"),
        "--userDir",
        userDir,
        "--settings",
        path.join(userDir, "settings.js"),
      ],
      {
        cwd: folder,
        env: { PATH: process.env.PATH ?? "", HOME: folder },
        stdio: ["ignore", log, log],
      },
    ),
  );
  fs.closeSync(log);
  const url = `http://127.0.0.1:${port}/ingest`;
  let result;
  try {
    await waitForHttp(
      url,
      child,
      60_000,
      () => `\n${fs.readFileSync(path.join(folder, "node-red.log"), "utf8").slice(-2000)}`,
      {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: "{}",
      },
    );
    result = await hammer(url, { connections: 50, seconds: ctx.quick ? 3 : 10 });
  } finally {
    await stopChild(child);
  }
  ctx.log(`  node-red: ${result.requests_per_s} req/s, p99 ${result.latency_ms.p99} ms`);

  const ingest = ctx.done.ingest?.details;
  const figures = [
    figure({
      key: "peers.node_red.rps",
      name: `Node-RED ${installed.version} http-in → function → http-response throughput`,
      value: result.requests_per_s,
      unit: "req/s",
      better: "higher",
      ...(ingest
        ? {
            baseline: {
              name: "bare node:http server (ingest, same run)",
              value: ingest.baseline.requests_per_s,
              unit: "req/s",
            },
          }
        : {}),
      method:
        "the ingest load (autocannon, 50 connections, same body and duration) against the flow; Node-RED stores nothing",
    }),
    figure({
      key: "peers.node_red.p99",
      name: "Node-RED latency p99",
      value: result.latency_ms.p99,
      unit: "ms",
      better: "lower",
      method: "as above",
    }),
  ];
  if (ingest) {
    figures.push(
      figure({
        key: "peers.sluice_vs_node_red",
        name: "Sluice ingest throughput ÷ Node-RED throughput",
        value: ingest.sluice.requests_per_s / result.requests_per_s,
        unit: "×",
        better: "higher",
        method: `Sluice's ingest req/s (${ingest.sluice.requests_per_s}) ÷ Node-RED's (${result.requests_per_s}), both under the same autocannon load in the same run; above 1 means Sluice is ahead (the figure is itself the ratio)`,
        target: "ahead (above 1)",
      }),
    );
  }
  return {
    figures,
    details: { version: installed.version, install_seconds: installSeconds, node_red: result },
  };
}

#!/usr/bin/env node
/**
 * `node bench/backlog.mjs [--sluice DIR] [--postgres URL] [--backlog N] [--rate R] [--seconds S]
 * [--settle S] [--analyze]`:
 * the known limit of delivery isolation (docs/operations.md): a webhook whose receiver never
 * answers holds its 8 deliveries in flight while N more events for it wait, and meanwhile a
 * healthy webhook gets R events a second (5 a request) for S seconds. Prints the healthy
 * webhook's emit-to-receiver p50 and p99 and the CPU each of its events cost the server and,
 * with `--postgres`, every `postgres` process of the machine: what a backlog of one webhook costs
 * the others. Run it on two builds (`--sluice`) to compare them. `--analyze` runs ANALYZE on the
 * jobs table before the measured phase, as autovacuum would once the backlog had stood a minute
 * (the test machine's PostgreSQL runs with autovacuum off). Writes nothing.
 */
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { postJson } from "./lib/load.mjs";
import { startReceiver } from "./lib/receiver.mjs";
import { ROOT, startSluice } from "./lib/sluice.mjs";
import { percentile, round, sleep } from "./lib/stats.mjs";
import { pacedWithCpu, subscribedSource, warmUp } from "./scenarios/deliver.mjs";

const { values: args } = parseArgs({
  options: {
    sluice: { type: "string", default: ROOT },
    postgres: { type: "string" },
    backlog: { type: "string", default: "20000" },
    rate: { type: "string", default: "100" },
    seconds: { type: "string", default: "8" },
    settle: { type: "string", default: "2" },
    analyze: { type: "boolean", default: false },
  },
});
const backlog = Number(args.backlog);
const rate = Number(args.rate);
const seconds = Number(args.seconds);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-backlog-"));
const hanging = http.createServer(() => {});
await new Promise((resolve) => hanging.listen(0, "127.0.0.1", resolve));
const receiver = await startReceiver();
const server = await startSluice({
  tmp,
  postgres: args.postgres,
  sluiceRoot: path.resolve(args.sluice),
  label: "backlog",
});
try {
  const healthy = await subscribedSource(server, receiver, "/healthy", "healthy");
  await warmUp(receiver, healthy, 20);
  // The deliver scenario's source, subscribed by a webhook on the server that never answers.
  const hangingUrl = `http://127.0.0.1:${hanging.address().port}`;
  const bulk = await subscribedSource(server, { url: hangingUrl }, "/never", "never-answers");
  for (let sent = 0; sent < backlog; sent += 100) await postJson(bulk.endpoint_url, { count: 100 });
  // Seconds between the backlog and the measured phase: 70 lets PostgreSQL's autovacuum (a
  // minute between its rounds) analyze the jobs table, as it will have on a backlog that grew
  // over minutes.
  await sleep(Number(args.settle) * 1000);
  if (args.analyze && server.schemaUrl) {
    // What autovacuum does on a database where it is on (it is off on the test machine's).
    const { default: pg } = await import("pg");
    const client = new pg.Client({ connectionString: server.schemaUrl });
    await client.connect();
    await client.query("analyze jobs");
    await client.end();
  }

  const run = await pacedWithCpu(server, receiver, healthy, { rate, seconds });
  console.log(
    `${args.sluice}, backlog ${backlog} (${args.settle} s before${args.analyze ? ", analyzed" : ""})${args.postgres ? ", PostgreSQL" : ", SQLite"}: healthy webhook p50 ${percentile(run.latency, 50)} ms, p99 ${percentile(run.latency, 99)} ms, ${run.latency.length} of ${rate * seconds} arrived; CPU an event: server ${round(run.cpuPerEvent.server, 2)} ms` +
      (args.postgres ? `, postgres ${round(run.cpuPerEvent.postgres, 2)} ms` : ""),
  );
} finally {
  await server.stop();
  await receiver.close();
  hanging.closeAllConnections();
  await new Promise((resolve) => hanging.close(resolve));
  fs.rmSync(tmp, { recursive: true, force: true });
}

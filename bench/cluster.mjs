#!/usr/bin/env node
/**
 * `node bench/cluster.mjs --postgres URL [--nodes 3] [--rounds 2] [--sluice DIR] [--steady 200]
 * [--only steady]`: ingest and delivery throughput of a cluster of N nodes on one PostgreSQL
 * schema against one node, in rotation (1 N N 1, repeated), from one bench process. Each run starts fresh nodes on a fresh
 * schema (one master key, one API key, as docs/operations.md's cluster has), then:
 *  - ingest: HTTP sources that emit their body; autocannon with 48 connections in all, spread
 *    evenly over the nodes (straight to each node, without a load balancer, so that nginx's own
 *    CPU is not in the figure), 5 s after a 1 s warm-up. Two ways: "spread", 6 sources each
 *    sent to by one node only (what nginx hashing the path gives), and "hot", one source sent to
 *    through every node (one node at a time runs a source, so it moves between them);
 *  - delivery: 4 webhooks on one local receiver subscribed to one source, 2,000 events committed
 *    through the nodes in turn (100 per request); deliveries/s from the first request to the
 *    last arrival. Four webhooks, since a webhook's cap of 8 in flight holds for the cluster;
 *  - steady: `--steady` events a second (200 unless told, the rolling-restart test's rate) for
 *    10 s, one per request to 8 HTTP sources each subscribed by a webhook, sent through the nodes
 *    in turn: the CPU each event costs in all (nodes with their runners, and every PostgreSQL
 *    process), PostgreSQL transactions per event, and emit-to-delivery p50 and p99. `--only
 *    steady` runs this phase alone; `--profile` writes each node's CPU profile and prints where
 *    its time went during the steady load.
 * Prints each run and the medians, and the CPU time per request and per delivery of all nodes
 * together. Writes nothing: the figures go to bench/RESULTS.md by hand.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { hammer, paced, postJson } from "./lib/load.mjs";
import { processCpuMs, treeCpuMs } from "./lib/proc.mjs";
import { formatProfile, monotonicMicros, summarizeProfile } from "./lib/profile.mjs";
import { startReceiver } from "./lib/receiver.mjs";
import { ROOT, startSluice } from "./lib/sluice.mjs";
import { percentile, round } from "./lib/stats.mjs";

const { values: args } = parseArgs({
  options: {
    postgres: { type: "string" },
    nodes: { type: "string", default: "3" },
    rounds: { type: "string", default: "2" },
    sluice: { type: "string", default: ROOT },
    steady: { type: "string", default: "200" },
    only: { type: "string" },
    profile: { type: "boolean", default: false },
  },
});
if (!args.postgres) throw new Error("a cluster needs PostgreSQL: --postgres postgres://…");
const NODES = Number(args.nodes);
const ROUNDS = Number(args.rounds);
const CONNECTIONS = 48;
const SOURCES = 6;
const EVENTS = 2000;
const PER_REQUEST = 100;
const WEBHOOKS = 4;
const STEADY_RATE = Number(args.steady);
const STEADY_SECONDS = 10;
const STEADY_SOURCES = 8;

const ECHO = `export default {
  name: "echo",
  props: { http: { type: "$.interface.http" } },
  async run(event) { this.$emit(event.body); },
};`;
const EMITTER = `export default {
  name: "emitter",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    const { count, start } = event.body;
    for (let i = 0; i < count; i++) this.$emit({ n: start + i });
  },
};`;

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-cluster-bench-"));
/** `--profile` writes the nodes' CPU profiles here (git-ignored), one directory per run. */
const profileDir = path.join(
  ROOT,
  "bench",
  "results",
  `cluster-${new Date().toISOString().replace(/[:.]/g, "-")}`,
);
/** The steady load's window on the monotonic clock, for the profiles. */
let steadyWindow;

/** N nodes on one fresh schema: the first alone (it migrates and creates the account). */
async function startNodes(count) {
  const env = { SLUICE_MASTER_KEY: randomBytes(32).toString("base64"), SLUICE_LOG_LEVEL: "warn" };
  const nodeArgs = args.profile ? ["--cpu-prof", "--cpu-prof-dir", profileDir] : [];
  const options = { tmp, postgres: args.postgres, sluiceRoot: path.resolve(args.sluice), env, nodeArgs };
  const first = await startSluice({ ...options, label: "node-1" });
  const shared = { schemaUrl: first.schemaUrl, apiKey: first.apiKey };
  const others = await Promise.all(
    Array.from({ length: count - 1 }, (_, index) =>
      startSluice({ ...options, label: `node-${index + 2}`, shared }),
    ),
  );
  const nodes = [first, ...others];
  return {
    nodes,
    cpuMs: () =>
      nodes.reduce((sum, node) => {
        const { server, children } = treeCpuMs(node.pid);
        return sum + server + children;
      }, 0),
    // The others first: the first one's stop drops the schema.
    stop: async () => {
      await Promise.all(others.map((node) => node.stop()));
      await first.stop();
    },
  };
}

/** CPU ms used so far by every PostgreSQL process (the server and its backends). */
function postgresCpuMs() {
  let total = 0;
  for (const entry of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (fs.readFileSync(`/proc/${entry}/comm`, "utf8").trim() === "postgres")
        total += processCpuMs(Number(entry));
    } catch {
      // gone meanwhile
    }
  }
  return total;
}

/** Transactions committed in the database so far (pg_stat_database). */
async function committedTransactions(client) {
  const result = await client.query(
    "select xact_commit from pg_stat_database where datname = current_database()",
  );
  return Number(result.rows[0].xact_commit);
}

/** The steady phase: STEADY_RATE events a second, each an ingest and a delivery. */
async function steady(cluster, receiver) {
  const [first] = cluster.nodes;
  const paths = [];
  for (let n = 0; n < STEADY_SOURCES; n++) {
    const source = await first.deploy(ECHO, { name: `steady-${n}` });
    const webhook = await first.api("POST", "/v1/webhooks", { url: `${receiver.url}/s${n}`, name: `s${n}` });
    await first.api("POST", "/v1/subscriptions", { emitter_id: source.id, listener_id: webhook.id });
    paths.push(new URL(source.endpoint_url).pathname);
  }
  const client = new pg.Client({ connectionString: args.postgres });
  await client.connect();
  try {
    receiver.reset();
    const sentAt = new Map();
    const cpuBefore = cluster.cpuMs();
    const postgresBefore = postgresCpuMs();
    const transactionsBefore = await committedTransactions(client);
    const from = monotonicMicros();
    const result = await paced({
      rate: STEADY_RATE,
      seconds: STEADY_SECONDS,
      send: (i) => {
        sentAt.set(i, Date.now());
        const node = cluster.nodes[i % cluster.nodes.length];
        return postJson(`${node.url}${paths[i % paths.length]}`, { n: i });
      },
    });
    const received = await receiver.waitForCount(result.sent, 60_000, { distinct: (entry) => entry.body?.n });
    steadyWindow = { from, to: monotonicMicros() };
    const events = result.sent;
    const delays = received.map((entry) => entry.at - (sentAt.get(entry.body?.n) ?? entry.at));
    return {
      rate: result.achieved_rate,
      failures: result.failures,
      cpu: round((cluster.cpuMs() - cpuBefore) / events, 3),
      postgresCpu: round((postgresCpuMs() - postgresBefore) / events, 3),
      transactions: round(((await committedTransactions(client)) - transactionsBefore) / events, 1),
      p50: percentile(delays, 50),
      p99: percentile(delays, 99),
    };
  } finally {
    await client.end();
  }
}

async function measure(count) {
  const cluster = await startNodes(count);
  const [first] = cluster.nodes;
  const receiver = await startReceiver();
  try {
    const steadyResult = await steady(cluster, receiver);
    if (args.only === "steady") return { nodes: count, steady: steadyResult };
    // Ingest: 6 sources, each sent to through one node; then one source through every node.
    const echoes = [];
    for (let n = 0; n < SOURCES; n++) echoes.push(await first.deploy(ECHO, { name: `echo-${n}` }));
    const paths = echoes.map((echo) => new URL(echo.endpoint_url).pathname);
    const ingestRun = async (targets) => {
      let cpuBefore = 0;
      let cpuAfter = 0;
      let pending = targets.length;
      const results = await Promise.all(
        targets.map((url) =>
          hammer(
            url,
            { connections: Math.round(CONNECTIONS / targets.length), seconds: 5 },
            {
              beforeMeasured: () => {
                if (--pending === 0) cpuBefore = cluster.cpuMs();
              },
              afterMeasured: () => {
                cpuAfter = cluster.cpuMs();
              },
            },
          ),
        ),
      );
      const rate = results.reduce((sum, result) => sum + result.requests_per_s, 0);
      return {
        rate,
        p99: Math.max(...results.map((result) => result.latency_ms.p99)),
        cpu: (cpuAfter - cpuBefore) / (rate * 5),
      };
    };
    const spread = await ingestRun(
      paths.map((sourcePath, n) => `${cluster.nodes[n % count].url}${sourcePath}`),
    );
    const hot = await ingestRun(cluster.nodes.map((node) => `${node.url}${paths[0]}`));

    // Deliveries: 4 webhooks, events committed through the nodes in turn.
    const emitter = await first.deploy(EMITTER, { name: "emitter" });
    const emitterPath = new URL(emitter.endpoint_url).pathname;
    for (let n = 0; n < WEBHOOKS; n++) {
      const webhook = await first.api("POST", "/v1/webhooks", {
        url: `${receiver.url}/w${n}`,
        name: `w${n}`,
      });
      await first.api("POST", "/v1/subscriptions", { emitter_id: emitter.id, listener_id: webhook.id });
    }
    receiver.reset();
    const started = Date.now();
    const cpuStart = cluster.cpuMs();
    for (let start = 0; start < EVENTS; start += PER_REQUEST) {
      const node = cluster.nodes[(start / PER_REQUEST) % count];
      const response = await fetch(`${node.url}${emitterPath}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ count: PER_REQUEST, start }),
      });
      await response.text();
      if (response.status !== 200) throw new Error(`the emitter answered ${response.status}`);
    }
    const total = EVENTS * WEBHOOKS;
    const received = await receiver.waitForCount(total, 180_000, {
      distinct: (entry) => `${entry.path} ${entry.body?.n}`,
    });
    const seconds = (Math.max(...received.map((entry) => entry.at)) - started) / 1000;
    const deliveryCpu = (cluster.cpuMs() - cpuStart) / total;
    return {
      nodes: count,
      ingest: round(spread.rate, 1),
      p99: spread.p99,
      ingestCpu: round(spread.cpu, 3),
      hot: round(hot.rate, 1),
      hotP99: hot.p99,
      deliveries: round(total / seconds, 1),
      deliveryCpu: round(deliveryCpu, 3),
      steady: steadyResult,
    };
  } finally {
    await receiver.close();
    await cluster.stop();
  }
}

const runs = [];
for (let round = 0; round < ROUNDS; round++) {
  for (const count of [1, NODES, NODES, 1]) {
    const result = await measure(count);
    runs.push(result);
    const st = result.steady;
    if (args.profile) {
      for (const file of fs.readdirSync(profileDir).filter((name) => name.startsWith("CPU."))) {
        const summary = summarizeProfile(path.join(profileDir, file), { top: 30, window: steadyWindow });
        console.log(`${count} node(s), steady load:\n${formatProfile(summary)}`);
        fs.renameSync(
          path.join(profileDir, file),
          path.join(profileDir, `${runs.length}-${count}-nodes-${file}`),
        );
      }
    }
    console.log(
      `${count} node(s), steady ${st.rate} events/s (${st.failures} failed): ${st.cpu} ms CPU per event on the nodes, ${st.postgresCpu} ms in PostgreSQL, ${st.transactions} transactions per event; emit to delivery p50 ${st.p50} ms, p99 ${st.p99} ms`,
    );
    if (args.only === "steady") continue;
    console.log(
      `${count} node(s), load ${os.loadavg()[0].toFixed(2)}: ingest over ${SOURCES} sources ${result.ingest} req/s (p99 ${result.p99} ms, ${result.ingestCpu} ms CPU per request, all nodes); one hot source ${result.hot} req/s (p99 ${result.hotP99} ms); deliveries ${result.deliveries}/s (${result.deliveryCpu} ms CPU per delivery)`,
    );
  }
}
for (const count of [1, NODES]) {
  const mine = runs.filter((run) => run.nodes === count);
  const steadyMedian = (key) =>
    percentile(
      mine.map((run) => run.steady[key]),
      50,
    );
  console.log(
    `median of ${mine.length}, ${count} node(s), steady: ${steadyMedian("cpu")} ms CPU per event on the nodes, ${steadyMedian("postgresCpu")} ms in PostgreSQL, ${steadyMedian("transactions")} transactions per event, p99 ${steadyMedian("p99")} ms`,
  );
  if (args.only === "steady") continue;
  const median = (key) =>
    percentile(
      mine.map((run) => run[key]),
      50,
    );
  console.log(
    `median of ${mine.length}, ${count} node(s): ingest ${median("ingest")} req/s, p99 ${median("p99")} ms, ${median("ingestCpu")} ms CPU/request; one hot source ${median("hot")} req/s; deliveries ${median("deliveries")}/s, ${median("deliveryCpu")} ms CPU/delivery`,
  );
}
fs.rmSync(tmp, { recursive: true, force: true });

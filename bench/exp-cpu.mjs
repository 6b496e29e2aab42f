// Temporary experiment (not committed): CPU of each process per event at a fixed rate.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { paced, postJson } from "./lib/load.mjs";
import { descendants } from "./lib/proc.mjs";
import { startReceiver } from "./lib/receiver.mjs";
import { startSluice } from "./lib/sluice.mjs";
import { percentile } from "./lib/stats.mjs";

const postgres = process.argv[2] === "sqlite" ? undefined : "postgres://postgres@127.0.0.1:5432/test";
const rate = Number(process.argv[3] ?? 500);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "expcpu-"));
const ticks = (pid) => {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return Number(f[11]) + Number(f[12]);
  } catch {
    return 0;
  }
};
const pgPids = () =>
  fs.readdirSync("/proc").filter((e) => /^\d+$/.test(e)).filter((e) => {
    try { return fs.readFileSync(`/proc/${e}/comm`, "utf8").startsWith("postgres"); } catch { return false; }
  });
const threads = (pid) => {
  const out = {};
  for (const t of fs.readdirSync(`/proc/${pid}/task`)) {
    const comm = fs.readFileSync(`/proc/${pid}/task/${t}/comm`, "utf8").trim();
    const stat = fs.readFileSync(`/proc/${pid}/task/${t}/stat`, "utf8");
    const f = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    out[`${comm}#${t}`] = Number(f[11]) + Number(f[12]);
  }
  return out;
};
const sum = (pids) => pids.reduce((a, p) => a + ticks(p), 0);
const receiver = await startReceiver();
const server = await startSluice({ tmp, postgres, label: "exp" });
const EMITTER = `export default { name: "deliver", props: { http: { type: "$.interface.http" } },
  async run(event) { const { count = 1, seq = 0 } = event.body ?? {}; for (let i = 0; i < count; i++) this.$emit({ seq, i, emitted_at: Date.now() }); } };`;
const source = await server.deploy(EMITTER, { name: "exp" });
const webhook = await server.api("POST", "/v1/webhooks", { url: `${receiver.url}/x`, name: "exp" });
await server.api("POST", "/v1/subscriptions", { emitter_id: source.id, listener_id: webhook.id });
await postJson(source.endpoint_url, { count: 20, seq: -1 });
await receiver.waitForCount(20, 30000);
receiver.reset();
const runners = descendants(server.pid);
const threadsBefore = threads(server.pid);
const before = { server: ticks(server.pid), runners: sum(runners), pg: sum(pgPids()), self: process.cpuUsage() };
const seconds = 10;
await paced({ rate: rate / 5, seconds, send: (seq) => postJson(source.endpoint_url, { count: 5, seq }) });
await receiver.waitForCount(rate * seconds, 60000, { partial: true });
const after = { server: ticks(server.pid), runners: sum(runners), pg: sum(pgPids()), self: process.cpuUsage(before.self) };
const events = rate * seconds;
const threadsAfter = threads(server.pid);
const byName = {};
for (const [k, v] of Object.entries(threadsAfter)) { const n = k.split("#")[0]; byName[n] = (byName[n] ?? 0) + v - (threadsBefore[k] ?? 0); }
console.log(Object.entries(byName).filter(([, v]) => v > 0).map(([k, v]) => `${k} ${((v * 10) / events).toFixed(3)}`).join(", "));
const ms = (t) => ((t * 10) / events).toFixed(3);
const lat = receiver.received.map((e) => e.at - e.body.emitted_at);
console.log(`${postgres ? "pg" : "sqlite"} ${rate}/s: p50 ${percentile(lat, 50)} p99 ${percentile(lat, 99)}; CPU ms/event: server ${ms(after.server - before.server)}, runner ${ms(after.runners - before.runners)}, postgres ${ms(after.pg - before.pg)}, bench+receiver ${((after.self.user + after.self.system) / 1000 / events).toFixed(3)}`);
await server.stop();
await receiver.close();

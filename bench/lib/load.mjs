/**
 * Load generation: autocannon (closed loop, N connections for D seconds) for the ingest and
 * peer scenarios, and a paced open-loop sender for fixed event rates. Both run in the bench
 * process, on the same machine as the server under test.
 */
import autocannon from "autocannon";
import { treeCpuMs } from "./proc.mjs";
import { round, sleep } from "./stats.mjs";

/** The JSON body every ingest request carries. */
export const INGEST_BODY = JSON.stringify({ order: 1042, item: "widget", qty: 2, note: "bench" });

/**
 * POSTs INGEST_BODY to `url` with autocannon: `connections` connections for `seconds`, after a
 * one-second warm-up run whose figures are dropped. Returns requests/s and latency percentiles (ms).
 * `beforeMeasured` and `afterMeasured` are called around the measured run (to read CPU time, say).
 */
export async function hammer(
  url,
  { connections = 50, seconds = 10 } = {},
  { beforeMeasured, afterMeasured } = {},
) {
  const options = {
    url,
    method: "POST",
    connections,
    headers: { "content-type": "application/json" },
    body: INGEST_BODY,
  };
  await autocannon({ ...options, duration: 1 });
  beforeMeasured?.();
  const result = await autocannon({ ...options, duration: seconds });
  afterMeasured?.();
  return {
    requests_per_s: round(result.requests.average, 1),
    latency_ms: {
      p50: result.latency.p50,
      p90: result.latency.p90,
      p99: result.latency.p99,
      max: result.latency.max,
      mean: round(result.latency.mean, 2),
    },
    total: result.requests.total,
    ok_2xx: result["2xx"],
    non_2xx: result.non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    seconds: round(result.duration, 2),
    connections,
  };
}

/**
 * `hammer`, with the CPU time a request cost (ms, unrounded) the process `pid` (`server`) and its
 * descendants (`children`, the runners) over the measured run: what a request costs, which a busy
 * machine changes far less than it changes throughput.
 */
export async function hammerWithCpu(url, pid, load) {
  let before;
  let after;
  const result = await hammer(url, load, {
    beforeMeasured: () => (before = treeCpuMs(pid)),
    afterMeasured: () => (after = treeCpuMs(pid)),
  });
  const cpu_ms_per_request = {
    server: (after.server - before.server) / result.total,
    children: (after.children - before.children) / result.total,
  };
  return { ...result, cpu_ms_per_request };
}

/**
 * Calls `send(i)` at `rate` calls a second for `seconds`, open loop (a slow answer does not delay
 * the next call). Resolves when every call has settled, with the rate actually achieved.
 */
export async function paced({ rate, seconds, send }) {
  const total = Math.round(rate * seconds);
  const started = performance.now();
  const pending = [];
  let sent = 0;
  let failures = 0;
  while (sent < total) {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * rate) + 1);
    while (sent < due) {
      pending.push(
        send(sent).catch(() => {
          failures++;
        }),
      );
      sent++;
    }
    await sleep(2);
  }
  const elapsed = (performance.now() - started) / 1000;
  await Promise.all(pending);
  return { sent, failures, achieved_rate: round(sent / elapsed, 1) };
}

/** POSTs a JSON body; resolves to the status, throws on a non-2xx answer. */
export async function postJson(url, body) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  await response.arrayBuffer();
  if (!response.ok) throw new Error(`POST ${url} answered ${response.status}`);
  return response.status;
}

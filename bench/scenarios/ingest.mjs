/**
 * ingest: an HTTP source that emits its body, under autocannon (50 connections, 10 s; 3 s in
 * quick mode), once without and once with customResponse, against a bare node:http server that
 * parses the JSON and answers 200, under the same load in the same run, and against the floor
 * (lib/floor-server.mjs: the same with a child-process hop and a durable commit, nothing else). In full runs a third
 * Sluice run at log level debug shows what a log line per hit costs (at the default level, info,
 * an endpoint's answered hit writes none: server/console-log.ts).
 *
 * With `--profile` the first Sluice server runs under `node --cpu-prof`: its profile is written
 * to bench/results/ (git-ignored) and summarized (self time by origin and by function).
 */
import fs from "node:fs";
import path from "node:path";
import { hammer, hammerWithCpu } from "../lib/load.mjs";
import { startBareServer, startFloorServer } from "../lib/processes.mjs";
import { formatProfile, monotonicMicros, profileArgs, summarizeProfile } from "../lib/profile.mjs";
import { figure } from "../lib/report.mjs";
import { startSluice } from "../lib/sluice.mjs";
import { round } from "../lib/stats.mjs";

/** The ingest source: emits its body; its caller gets 200 once the event is committed. */
export const EMIT_BODY = `export default {
  name: "ingest",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    this.$emit(event.body);
  },
};`;

/** The same with customResponse: respond() at once, then emit. */
export const EMIT_AND_RESPOND = `export default {
  name: "ingest-respond",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    await this.http.respond({ status: 200, body: { success: true } });
    this.$emit(event.body);
  },
};`;

export async function ingest(ctx) {
  const load = { connections: 50, seconds: ctx.quick ? 3 : 10 };
  const method = `autocannon, ${load.connections} connections for ${load.seconds} s after a 1 s warm-up, POST of a 58-byte JSON body, from the bench process on the same machine`;

  const bare = await startBareServer();
  const baseline = await hammer(bare.url, load).finally(() => bare.stop());
  ctx.log(`  bare node:http: ${baseline.requests_per_s} req/s, p99 ${baseline.latency_ms.p99} ms`);
  // The floor: what a server keeping Sluice's two promises (a process hop, a durable commit) and
  // doing nothing else reaches here (lib/floor-server.mjs), so the ratio to bare reads against it.
  const floorServer = await startFloorServer({ dataDir: fs.mkdtempSync(path.join(ctx.tmp, "floor-")) });
  const floor = await hammer(floorServer.url, load).finally(() => floorServer.stop());
  ctx.log(
    `  floor (process hop and durable commit only): ${floor.requests_per_s} req/s, p99 ${floor.latency_ms.p99} ms`,
  );

  const run = async (code, env = {}, nodeArgs = []) => {
    const server = await startSluice({ ...ctx.serverOptions, env, nodeArgs, label: "ingest" });
    try {
      const source = await server.deploy(code);
      const from = monotonicMicros();
      const result = await hammerWithCpu(source.endpoint_url, server.pid, load);
      const cpu_ms_per_request = {
        server: round(result.cpu_ms_per_request.server, 3),
        runners: round(result.cpu_ms_per_request.children, 3),
      };
      return { ...result, cpu_ms_per_request, window: { from, to: monotonicMicros() } };
    } finally {
      await server.stop();
    }
  };
  const profiling = ctx.profile ? profileArgs(ctx.profile, "ingest") : undefined;
  const { window, ...plain } = await run(EMIT_BODY, {}, profiling?.nodeArgs);
  ctx.log(
    `  sluice: ${plain.requests_per_s} req/s, p99 ${plain.latency_ms.p99} ms, CPU per request: server ${plain.cpu_ms_per_request.server} ms, runner ${plain.cpu_ms_per_request.runners} ms`,
  );
  const profile = profiling ? summarizeProfile(profiling.file(), { window }) : undefined;
  if (profile) ctx.log(formatProfile(profile));
  const custom = withoutWindow(await run(EMIT_AND_RESPOND));
  ctx.log(`  sluice customResponse: ${custom.requests_per_s} req/s, p99 ${custom.latency_ms.p99} ms`);
  // Full runs only: what logging every hit costs (level debug: its two records per request).
  const logged = ctx.quick ? undefined : withoutWindow(await run(EMIT_BODY, { SLUICE_LOG_LEVEL: "debug" }));
  if (logged)
    ctx.log(`  sluice (log level debug): ${logged.requests_per_s} req/s, p99 ${logged.latency_ms.p99} ms`);

  const bareRps = { name: "bare node:http server", value: baseline.requests_per_s, unit: "req/s" };
  const bareP50 = { name: "bare node:http server p50", value: baseline.latency_ms.p50, unit: "ms" };
  const bareP99 = { name: "bare node:http server p99", value: baseline.latency_ms.p99, unit: "ms" };
  const figures = [
    figure({
      key: "ingest.floor.rps",
      name: "floor: node:http with a child-process hop and a durable SQLite group commit, nothing else",
      value: floor.requests_per_s,
      unit: "req/s",
      better: "higher",
      baseline: bareRps,
      method,
    }),
    figure({
      key: "ingest.rps",
      name: "ingest throughput (emit body, default response)",
      value: plain.requests_per_s,
      unit: "req/s",
      better: "higher",
      baseline: bareRps,
      method,
      target: "at least 40% of the bare node:http baseline (ratio >= 0.4)",
    }),
    figure({
      key: "ingest.p50",
      name: "ingest latency p50",
      value: plain.latency_ms.p50,
      unit: "ms",
      better: "lower",
      baseline: bareP50,
      method,
    }),
    figure({
      key: "ingest.p99",
      name: "ingest latency p99",
      value: plain.latency_ms.p99,
      unit: "ms",
      better: "lower",
      baseline: bareP99,
      method,
      target: "at most 20 ms at 50 connections",
    }),
    figure({
      key: "ingest.custom.rps",
      name: "ingest throughput with customResponse (respond, then emit)",
      value: custom.requests_per_s,
      unit: "req/s",
      better: "higher",
      baseline: bareRps,
      method,
    }),
    figure({
      key: "ingest.custom.p50",
      name: "ingest latency p50 with customResponse",
      value: custom.latency_ms.p50,
      unit: "ms",
      better: "lower",
      baseline: bareP50,
      method,
    }),
    figure({
      key: "ingest.custom.p99",
      name: "ingest latency p99 with customResponse",
      value: custom.latency_ms.p99,
      unit: "ms",
      better: "lower",
      baseline: bareP99,
      method,
    }),
  ];
  if (logged) {
    figures.push(
      figure({
        key: "ingest.debug-log.rps",
        name: "ingest throughput at SLUICE_LOG_LEVEL=debug (two log records per hit)",
        value: logged.requests_per_s,
        unit: "req/s",
        better: "higher",
        baseline: bareRps,
        method,
      }),
    );
  }
  return {
    figures,
    details: {
      load,
      baseline,
      floor,
      sluice: plain,
      custom_response: custom,
      log_level_debug: logged ?? null,
      ...(profile ? { profile } : {}),
    },
  };
}

function withoutWindow({ window: _window, ...result }) {
  return result;
}

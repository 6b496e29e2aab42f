/**
 * invoke: what the sandbox costs per invocation.
 *  - warm: a trivial HTTP source (run does nothing) called sequentially; the end-to-end latency
 *    of its endpoint, and the sandbox round trip the server reports (`duration_ms` of
 *    POST /v1/sources/{id}/run, timed around the runner's IPC).
 *  - cold: a server with SLUICE_MAX_RUNNERS=1 and two such sources called in turn, so every call
 *    evicts the other's runner and starts its own (process spawn + bundle load).
 *  - cold with a package: the same, for sources importing moment (a large single-file package),
 *    which the runner resolves and reads from the package cache at each start (issue 13).
 *  - first call after deploy: deploy runs the hooks in the runner, so it is usually warm.
 * Baselines: the same run() called directly in the bench process, and a bare node:http server
 * that calls it (the end-to-end figure without a sandbox).
 */
import { postJson } from "../lib/load.mjs";
import { startBareServer } from "../lib/processes.mjs";
import { figure } from "../lib/report.mjs";
import { startSluice } from "../lib/sluice.mjs";
import { percentile, round, summarize } from "../lib/stats.mjs";

const WITH_PACKAGE = (name) => `import moment from "moment@2.30.1";
export default {
  name: "${name}",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    this.last = moment(0).utc().year() + (event?.body ? 0 : 1);
  },
};`;

const NOOP = (name) => `export default {
  name: "${name}",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    this.last = event?.body;
  },
};`;

/** ms of one awaited call, by performance.now(). */
async function timed(call) {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

async function sample(count, call) {
  const times = [];
  for (let i = 0; i < count; i++) times.push(await timed(() => call(i)));
  return times;
}

export async function invoke(ctx) {
  const warmCount = ctx.quick ? 200 : 1000;
  const coldCount = ctx.quick ? 10 : 30;
  const body = { hello: "world" };

  // Baseline 1: the component's run called directly, in this process.
  const component = {
    async run(event) {
      this.last = event?.body;
    },
  };
  for (let i = 0; i < 1000; i++) await component.run({ body });
  const direct = await sample(warmCount * 10, () => component.run({ body }));
  // Baseline 2: the same call behind a bare node:http server.
  const bare = await startBareServer({ call: true });
  await sample(50, () => postJson(bare.url, body));
  const bareHttp = await sample(warmCount, () => postJson(bare.url, body)).finally(() => bare.stop());

  const server = await startSluice({ ...ctx.serverOptions, label: "invoke" });
  let warm;
  let roundTrip;
  let afterDeploy;
  try {
    const source = await server.deploy(NOOP("warm"));
    await sample(50, () => postJson(source.endpoint_url, body));
    warm = await sample(warmCount, () => postJson(source.endpoint_url, body));
    roundTrip = [];
    for (let i = 0; i < warmCount; i++) {
      const result = await server.api("POST", `/v1/sources/${source.id}/run`, {});
      roundTrip.push(result.duration_ms);
    }
    afterDeploy = [];
    for (let i = 0; i < (ctx.quick ? 3 : 10); i++) {
      const fresh = await server.deploy(NOOP("fresh"), { name: `fresh-${i}` });
      afterDeploy.push(await timed(() => postJson(fresh.endpoint_url, body)));
    }
  } finally {
    await server.stop();
  }

  const coldServer = await startSluice({
    ...ctx.serverOptions,
    env: { SLUICE_MAX_RUNNERS: "1" },
    label: "cold",
  });
  let cold;
  let coldPackage;
  try {
    const a = await coldServer.deploy(NOOP("cold-a"), { name: "a" });
    const b = await coldServer.deploy(NOOP("cold-b"), { name: "b" });
    await postJson(b.endpoint_url, body);
    cold = await sample(coldCount, (i) => postJson((i % 2 === 0 ? a : b).endpoint_url, body));
    const c = await coldServer.deploy(WITH_PACKAGE("cold-c"), { name: "c" });
    const d = await coldServer.deploy(WITH_PACKAGE("cold-d"), { name: "d" });
    await postJson(d.endpoint_url, body);
    coldPackage = await sample(coldCount, (i) => postJson((i % 2 === 0 ? c : d).endpoint_url, body));
  } finally {
    await coldServer.stop();
  }

  const directMs = percentile(direct, 50);
  const sandboxP50 = percentile(roundTrip, 50);
  ctx.log(
    `  direct call p50 ${round(directMs * 1000, 2)} µs; sandbox round trip p50 ${round(sandboxP50, 3)} ms; endpoint warm p50 ${round(percentile(warm, 50), 2)} ms (bare ${round(percentile(bareHttp, 50), 2)} ms); cold p50 ${round(percentile(cold, 50), 1)} ms, with moment ${round(percentile(coldPackage, 50), 1)} ms`,
  );
  const directBaseline = { name: "direct function call p50 (bench process)", value: directMs, unit: "ms" };
  const bareBaseline = {
    name: "bare node:http server calling the function, p50",
    value: percentile(bareHttp, 50),
    unit: "ms",
  };
  const figures = [
    figure({
      key: "invoke.warm_overhead",
      name: "warm invoke overhead (sandbox round trip p50 − direct call p50)",
      value: sandboxP50 - directMs,
      unit: "ms",
      better: "lower",
      baseline: directBaseline,
      method: `duration_ms of ${warmCount} sequential POST /v1/sources/{id}/run of a no-op source: the server's own timing from sending the invocation to the runner until its result is back (IPC both ways, JSON serialization, the call); minus the direct call`,
      target: "at most 2 ms",
    }),
    figure({
      key: "invoke.warm_e2e",
      name: "warm invocation through the HTTP endpoint, p50",
      value: percentile(warm, 50),
      unit: "ms",
      better: "lower",
      baseline: bareBaseline,
      method: `${warmCount} sequential POSTs to the endpoint of a no-op source (after 50 warm-up calls), one connection; includes loading the source, the sandbox, and the commit`,
    }),
    figure({
      key: "invoke.warm_e2e_p99",
      name: "warm invocation through the HTTP endpoint, p99",
      value: percentile(warm, 99),
      unit: "ms",
      better: "lower",
      baseline: {
        ...bareBaseline,
        name: "bare node:http server calling the function, p99",
        value: percentile(bareHttp, 99),
      },
      method: "as above",
    }),
    figure({
      key: "invoke.cold",
      name: "cold invocation (runner evicted, spawned again), p50",
      value: percentile(cold, 50),
      unit: "ms",
      better: "lower",
      baseline: bareBaseline,
      method: `SLUICE_MAX_RUNNERS=1 and two sources called in turn (${coldCount} calls), so each call evicts the other runner and spawns its own; end-to-end endpoint latency`,
    }),
    figure({
      key: "invoke.cold_package",
      name: "cold invocation of a source importing moment, p50",
      value: percentile(coldPackage, 50),
      unit: "ms",
      better: "lower",
      baseline: bareBaseline,
      method: `as invoke.cold, for two sources importing moment@2.30.1 (${coldCount} calls): each start resolves and loads the package from the package cache`,
      target: "at most 150 ms (issue 13: cold runner start)",
    }),
    figure({
      key: "invoke.first_after_deploy",
      name: "first invocation right after deploy, p50",
      value: percentile(afterDeploy, 50),
      unit: "ms",
      better: "lower",
      baseline: bareBaseline,
      method:
        "deploy runs the deploy and activate hooks in the source's runner, which stays warm: the first call after a deploy is a warm call",
    }),
  ];
  return {
    figures,
    details: {
      direct_call_ms: summarize(direct),
      bare_http_ms: summarize(bareHttp),
      sandbox_round_trip_ms: summarize(roundTrip),
      warm_endpoint_ms: summarize(warm),
      cold_endpoint_ms: summarize(cold),
      cold_package_endpoint_ms: summarize(coldPackage),
      first_after_deploy_ms: summarize(afterDeploy),
    },
  };
}

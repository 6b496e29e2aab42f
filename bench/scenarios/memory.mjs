/**
 * memory: the server's resident memory idle (fresh data dir, no sources), then with 100
 * deployed HTTP sources of 100 different codes: a runner each (the sources of one account and one
 * code share a runner), kept warm in the pool after their activate hook ran. Their memory is read
 * from /proc as RSS and as PSS (shared pages split between the processes, so the sum is honest).
 * Then density: 1,000 sources of one code in one account (`--density N` for another count, such
 * as the 10,000 of issue 15, which takes minutes), shared runners holding a module instance for
 * each (1,000 at most per runner); their PSS per source, the whole tree's RSS and PSS, and how long
 * deploying one more takes.
 * Baseline: the bare node:http server's RSS, idle, in the same run.
 */
import { treeMemory } from "../lib/proc.mjs";
import { startBareServer } from "../lib/processes.mjs";
import { figure } from "../lib/report.mjs";
import { startSluice } from "../lib/sluice.mjs";
import { mapLimit, round, sleep } from "../lib/stats.mjs";

/**
 * An HTTP source with an activate hook (so deploying it runs it in its runner); `tag` makes its
 * bundle unique (a comment would not: the bundler drops comments, and runners are shared by bundle).
 */
const source = (tag) => `export default {
  name: "memory ${tag}",
  props: { http: { type: "$.interface.http" }, db: "$.service.db" },
  hooks: {
    async activate() {
      this.db.set("activated", true);
    },
  },
  async run(event) {
    this.db.set("last", event.body ?? null);
    this.$emit(event.body ?? {});
  },
};`;

const SOURCES = 100;
/** Sources of one code in the density part; `--density 10000` is the 10,000-source scenario. */
const DEFAULT_SHARED_SOURCES = 1000;

/**
 * A runner is a node process under the permission model (`--permission`, or
 * `--experimental-permission` on Node 20); the server's other child is esbuild.
 */
const isRunner = (command) => /(^|\s)--(experimental-)?permission(\s|$)/.test(command);

export async function memory(ctx) {
  const bare = await startBareServer();
  await sleep(1000);
  const bareMemory = treeMemory(bare.pid).self;
  await bare.stop();

  const server = await startSluice({ ...ctx.serverOptions, label: "memory" });
  try {
    await sleep(2000);
    const idle = treeMemory(server.pid);
    const started = Date.now();
    await mapLimit(
      Array.from({ length: SOURCES }, (_, i) => i),
      4,
      (i) => server.deploy(source(`code ${i}`), { name: `memory-${i}` }),
    );
    const deploySeconds = (Date.now() - started) / 1000;
    await sleep(2000);
    const loaded = treeMemory(server.pid, isRunner);
    const runners = loaded.runners.count;
    const perRunnerRss = runners > 0 ? loaded.runners.rssMb / runners : Number.NaN;
    const perRunnerPss = runners > 0 ? loaded.runners.pssMb / runners : Number.NaN;
    ctx.log(
      `  idle ${round(idle.self.rssMb, 1)} MB (bare ${round(bareMemory.rssMb, 1)} MB); with ${SOURCES} sources: server ${round(loaded.self.rssMb, 1)} MB, ${runners} runners, ${round(perRunnerRss, 1)} MB RSS / ${round(perRunnerPss, 1)} MB PSS each`,
    );
    const density = await measureDensity(ctx);
    const SHARED_SOURCES = density.sources;
    ctx.log(
      `  ${SHARED_SOURCES} sources of one code: ${density.runners} runner(s), ${round(density.runnerPssMb, 1)} MB PSS (${round(density.pssPerSourceKb, 1)} kB more per source); server and runners ${round(density.totalRssMb, 1)} MB RSS, ${round(density.totalPssMb, 1)} MB PSS; the next deploy ${density.nextDeployMs} ms (deployed in ${density.deploySeconds} s)`,
    );
    const bareBaseline = { name: "bare node:http server RSS, idle", value: bareMemory.rssMb, unit: "MB" };
    const figures = [
      figure({
        key: "memory.idle_rss",
        name: "server RSS, idle",
        value: idle.self.rssMb,
        unit: "MB",
        better: "lower",
        baseline: bareBaseline,
        method: "VmRSS of the server process 2 s after it answered /ready, fresh SQLite data dir, no sources",
        target: "at most 150 MB",
      }),
      figure({
        key: "memory.loaded_rss",
        name: `server RSS with ${SOURCES} deployed sources (server process only)`,
        value: loaded.self.rssMb,
        unit: "MB",
        better: "lower",
        baseline: bareBaseline,
        method: `VmRSS of the server process 2 s after deploying ${SOURCES} HTTP sources (4 deploys at a time)`,
      }),
      figure({
        key: "memory.total_pss",
        name: `server and its runners with ${SOURCES} deployed sources, PSS summed`,
        value: loaded.self.pssMb + loaded.children.pssMb,
        unit: "MB",
        better: "lower",
        baseline: bareBaseline,
        method: "PSS (/proc/<pid>/smaps_rollup) of the server and every descendant process, summed",
      }),
      figure({
        key: "memory.per_runner_pss",
        name: "memory per warm runner (PSS)",
        value: perRunnerPss,
        unit: "MB",
        better: "lower",
        baseline: bareBaseline,
        method: `PSS of the server's runner processes (${runners}, told apart by their permission-model flag) ÷ their count`,
      }),
      figure({
        key: "memory.per_runner_rss",
        name: "memory per warm runner (RSS)",
        value: perRunnerRss,
        unit: "MB",
        better: "lower",
        baseline: bareBaseline,
        method: `VmRSS of the server's runner processes ÷ their count (counts shared pages in each)`,
      }),
      figure({
        key: "memory.shared_pss_per_source",
        name: `runner memory per source, ${SHARED_SOURCES} sources of one code sharing a runner (PSS)`,
        value: density.pssPerSourceKb,
        unit: "kB",
        better: "lower",
        method: `the growth of the runners' PSS from the first source of one code to ${SHARED_SOURCES} of it (each deployed, its activate hook run in its own module instance) ÷ the sources added`,
      }),
      figure({
        key: "memory.next_deploy_ms",
        name: `deploying one more source beside ${SHARED_SOURCES} of its code`,
        value: density.nextDeployMs,
        unit: "ms",
        better: "lower",
        method:
          "POST /v1/sources of the same code once the others are deployed (its component is already saved)",
        target: "at most 1 s (for the 10,001st)",
      }),
      figure({
        key: "memory.density_total_rss",
        name: `server and runners with ${SHARED_SOURCES} sources of one code, idle (RSS summed)`,
        value: density.totalRssMb,
        unit: "MB",
        better: "lower",
        baseline: bareBaseline,
        method:
          "VmRSS of the server and every descendant, summed (counts shared pages in each), 2 s after the deploys",
        target: "at most 1,536 MB for 10,000 sources (`--density 10000`)",
      }),
      figure({
        key: "memory.density_total_pss",
        name: `server and runners with ${SHARED_SOURCES} sources of one code, idle (PSS summed)`,
        value: density.totalPssMb,
        unit: "MB",
        better: "lower",
        baseline: bareBaseline,
        method: "PSS of the server and every descendant, summed",
      }),
    ];
    return {
      figures,
      details: {
        density,
        sources: SOURCES,
        deploy_seconds: round(deploySeconds, 1),
        bare: bareMemory,
        idle,
        loaded,
        runners,
        other_children: loaded.children.count - runners,
      },
    };
  } finally {
    await server.stop();
  }
}

/**
 * SHARED_SOURCES sources of one code, on a server of their own: the shared runner's memory per
 * source (its growth from the first source to the last), and how long one more deploy takes.
 */
async function measureDensity(ctx) {
  const SHARED_SOURCES = ctx.densitySources ?? DEFAULT_SHARED_SOURCES;
  const server = await startSluice({ ...ctx.serverOptions, label: "memory-density" });
  try {
    const code = source("shared");
    await server.deploy(code, { name: "shared-0" });
    await sleep(1000);
    const first = treeMemory(server.pid, isRunner).runners;
    const started = Date.now();
    await mapLimit(
      Array.from({ length: SHARED_SOURCES - 1 }, (_, i) => i + 1),
      4,
      (i) => server.deploy(code, { name: `shared-${i}` }),
    );
    const deploySeconds = round((Date.now() - started) / 1000, 1);
    await sleep(2000);
    const tree = treeMemory(server.pid, isRunner);
    const after = tree.runners;
    const nextStarted = performance.now();
    await server.deploy(code, { name: "shared-next" });
    const nextDeployMs = round(performance.now() - nextStarted, 1);
    return {
      sources: SHARED_SOURCES,
      deploySeconds,
      runners: after.count,
      runnerPssMb: after.pssMb,
      pssPerSourceKb: ((after.pssMb - first.pssMb) * 1024) / (SHARED_SOURCES - 1),
      totalRssMb: tree.self.rssMb + tree.children.rssMb,
      totalPssMb: tree.self.pssMb + tree.children.pssMb,
      serverRssMb: tree.self.rssMb,
      nextDeployMs,
    };
  } finally {
    await server.stop();
  }
}

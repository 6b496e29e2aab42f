/**
 * memory: the server's resident memory idle (fresh data dir, no sources), then with 100
 * deployed HTTP sources. Deploying runs each source's hooks in its runner, which stays warm in
 * the pool, so 100 sources leave 100 runner processes: their memory is read from /proc as RSS
 * and as PSS (shared pages split between the processes, so the sum is honest).
 * Baseline: the bare node:http server's RSS, idle, in the same run.
 */
import { treeMemory } from "../lib/proc.mjs";
import { startBareServer } from "../lib/processes.mjs";
import { figure } from "../lib/report.mjs";
import { startSluice } from "../lib/sluice.mjs";
import { mapLimit, round, sleep } from "../lib/stats.mjs";

const SOURCE = `export default {
  name: "memory",
  props: { http: { type: "$.interface.http" }, db: "$.service.db" },
  async run(event) {
    this.db.set("last", event.body ?? null);
    this.$emit(event.body ?? {});
  },
};`;

const SOURCES = 100;

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
      (i) => server.deploy(SOURCE, { name: `memory-${i}` }),
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
    ];
    return {
      figures,
      details: {
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

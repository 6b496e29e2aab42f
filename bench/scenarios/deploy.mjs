/**
 * deploy: POST /v1/sources of a component with one npm import (ms@2.1.3).
 *  - cold: a fresh server with a fresh data directory and its own empty npm cache
 *    (npm_config_cache), so the package is fetched from the registry, installed and bundled.
 *  - warm: the same server again, a new component (new code, so compiled and bundled again)
 *    importing the same, now cached, version.
 * Baselines: cold, `npm install ms@2.1.3` into an empty folder with an empty npm cache (the
 * package manager alone); warm, deploying a component without any import on the same server.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { figure } from "../lib/report.mjs";
import { startSluice } from "../lib/sluice.mjs";
import { percentile, round } from "../lib/stats.mjs";

const run = promisify(execFile);
const PACKAGE = "ms@2.1.3";

const withImport = (nonce) => `import ms from "${PACKAGE}";
export default {
  name: "deploy-bench",
  props: { http: { type: "$.interface.http" } },
  async run() {
    this.$emit({ in: ms("2 days"), nonce: ${JSON.stringify(nonce)} });
  },
};`;

const withoutImport = (nonce) => `export default {
  name: "deploy-bench-plain",
  props: { http: { type: "$.interface.http" } },
  async run() {
    this.$emit({ nonce: ${JSON.stringify(nonce)} });
  },
};`;

async function timed(call) {
  const started = performance.now();
  await call();
  return performance.now() - started;
}

export async function deploy(ctx) {
  const coldRounds = ctx.quick ? 1 : 3;
  const warmRounds = ctx.quick ? 3 : 5;
  const cold = [];
  const warm = [];
  const plain = [];
  const npmCold = [];
  for (let round = 0; round < coldRounds; round++) {
    const cache = fs.mkdtempSync(path.join(ctx.tmp, "npm-cache-"));
    const server = await startSluice({
      ...ctx.serverOptions,
      env: { npm_config_cache: cache },
      label: "deploy",
    });
    try {
      cold.push(await timed(() => server.deploy(withImport(`cold-${round}`))));
      if (round === 0) {
        for (let i = 0; i < warmRounds; i++) {
          warm.push(await timed(() => server.deploy(withImport(`warm-${i}`))));
          plain.push(await timed(() => server.deploy(withoutImport(`plain-${i}`))));
        }
      }
    } finally {
      await server.stop();
    }
    const prefix = fs.mkdtempSync(path.join(ctx.tmp, "npm-prefix-"));
    const npmCache = fs.mkdtempSync(path.join(ctx.tmp, "npm-cache-"));
    npmCold.push(
      await timed(() =>
        run("npm", [
          "install",
          PACKAGE,
          "--prefix",
          prefix,
          "--cache",
          npmCache,
          "--no-save",
          "--no-package-lock",
          "--no-audit",
          "--no-fund",
          "--ignore-scripts",
          "--loglevel=error",
        ]),
      ),
    );
  }
  ctx.log(
    `  cold ${cold.map((ms) => round(ms, 0)).join(", ")} ms (npm install alone ${npmCold.map((ms) => round(ms, 0)).join(", ")} ms); warm ${round(percentile(warm, 50), 0)} ms; no import ${round(percentile(plain, 50), 0)} ms`,
  );
  const figures = [
    figure({
      key: "deploy.cold",
      name: `deploy with one npm import (${PACKAGE}), cold package cache, median of ${coldRounds}`,
      value: percentile(cold, 50),
      unit: "ms",
      better: "lower",
      baseline: {
        name: `npm install ${PACKAGE} with an empty npm cache`,
        value: percentile(npmCold, 50),
        unit: "ms",
      },
      method:
        "POST /v1/sources on a fresh server (fresh data dir, empty npm cache) until its answer: fetch from the npm registry over the network, install, bundle with esbuild, describe in a runner, run the deploy and activate hooks",
    }),
    figure({
      key: "deploy.warm",
      name: `deploy with one npm import (${PACKAGE}), warm package cache, median of ${warmRounds}`,
      value: percentile(warm, 50),
      unit: "ms",
      better: "lower",
      baseline: {
        name: "deploy of a component without imports, median",
        value: percentile(plain, 50),
        unit: "ms",
      },
      method:
        "POST /v1/sources of new code importing the same version on the same server (package cached; bundle, describe and hooks run again)",
      target: "at most 1 s",
    }),
  ];
  return {
    figures,
    details: {
      package: PACKAGE,
      cold_ms: cold.map((ms) => round(ms, 1)),
      warm_ms: warm.map((ms) => round(ms, 1)),
      no_import_ms: plain.map((ms) => round(ms, 1)),
      npm_install_cold_ms: npmCold.map((ms) => round(ms, 1)),
    },
  };
}

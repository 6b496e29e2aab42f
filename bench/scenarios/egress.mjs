/**
 * egress: what the sandbox's network guard costs an action that makes outbound requests.
 * An action makes 100 sequential HTTP requests (fetch, keep-alive) to a bare node:http server on
 * loopback, which the server under test allows with SLUICE_COMPONENT_ALLOWED_CIDRS, so every
 * connection passes the guard's checks (lookup, socket connect, native handle). The figure is the
 * action's own duration (`duration_ms` of POST /v1/actions/run), with the runner warm. Baseline:
 * the same 100 requests from a plain `node` process of this machine, with no sandbox and no guard.
 * A second figure opens a new connection per request (no keep-alive), where the guard runs on
 * every request. Compare a run with `--sluice <checkout before the guard>` for the guard alone.
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { startBareServer } from "../lib/processes.mjs";
import { figure } from "../lib/report.mjs";
import { startSluice } from "../lib/sluice.mjs";
import { summarize } from "../lib/stats.mjs";

const run = promisify(execFile);
const REQUESTS = 100;

/** The body of an async function making REQUESTS requests to `url`; returns its ms. */
const requests = (keepAlive) => `
  const http = await import("node:http");
  const agent = new http.Agent({ keepAlive: ${keepAlive} });
  const started = performance.now();
  for (let i = 0; i < ${REQUESTS}; i++) {
    await new Promise((resolve, reject) => {
      const request = http.request(url, { method: "POST", agent }, (response) => { response.resume(); response.on("end", resolve); });
      request.on("error", reject);
      request.end("{}");
    });
  }
  agent.destroy();
  return performance.now() - started;`;

const action = (keepAlive) => `export default {
  name: "Egress", type: "action", props: { url: { type: "string" } },
  async run() { const url = this.url; ${requests(keepAlive)} },
};`;

async function plainNode(url, keepAlive) {
  const script = `const url = ${JSON.stringify(url)}; (async () => { ${requests(keepAlive)} })().then((ms) => console.log(ms));`;
  const { stdout } = await run(process.execPath, ["--input-type=module", "-e", script]);
  return Number(stdout.trim());
}

export async function egress(ctx) {
  const rounds = ctx.quick ? 10 : 30;
  const bare = await startBareServer();
  const server = await startSluice({
    ...ctx.serverOptions,
    label: "egress",
    env: { ...ctx.serverOptions?.env, SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8" },
  });
  const figures = [];
  try {
    for (const keepAlive of [true, false]) {
      const saved = await server.api("POST", "/v1/components", { component_code: action(keepAlive) });
      const once = () =>
        server.api("POST", "/v1/actions/run", {
          component_id: saved.id,
          configured_props: { url: bare.url },
        });
      const first = await once();
      if (!first.ok) throw new Error(`the egress action failed: ${JSON.stringify(first)}`);
      const sandboxed = [];
      const plain = [];
      for (let i = 0; i < rounds; i++) {
        sandboxed.push((await once()).return_value);
        plain.push(await plainNode(bare.url, keepAlive));
      }
      const key = keepAlive ? "keepalive" : "new_connections";
      figures.push(
        figure({
          key: `egress.${key}_100_ms`,
          name: `action making ${REQUESTS} requests (${keepAlive ? "keep-alive" : "a new connection each"}), median`,
          value: summarize(sandboxed).p50,
          unit: "ms",
          better: "lower",
          baseline: { name: "the same requests from plain node", value: summarize(plain).p50 },
          method: `${rounds} runs; the action's own timing of ${REQUESTS} sequential POSTs to a bare node:http server on loopback, allowed by SLUICE_COMPONENT_ALLOWED_CIDRS`,
        }),
      );
    }
  } finally {
    await server.stop();
    await bare.stop();
  }
  return { figures, details: {} };
}

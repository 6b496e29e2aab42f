/**
 * Child processes of the bench: every one is tracked and killed if the bench exits early.
 * Also a free-port finder, an HTTP readiness poll, and the bare node:http baseline server.
 */
import { spawn } from "node:child_process";
import net from "node:net";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { sleep } from "./stats.mjs";

const HERE = path.dirname(fileURLToPath(import.meta.url));

const children = new Set();
process.on("exit", () => {
  for (const child of children) child.kill("SIGKILL");
});

/** Tracks a child process so that it is killed if the bench exits before stopping it. */
export function track(child) {
  children.add(child);
  child.once("exit", () => children.delete(child));
  return child;
}

/** SIGTERM, then SIGKILL after `graceMs`; resolves once the process has exited. */
export async function stopChild(child, graceMs = 15_000) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), graceMs);
  await exited;
  clearTimeout(timer);
}

/** A free TCP port on 127.0.0.1 (bound then released). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Polls `url` (with `init`) until it answers 2xx; throws if the process exits first or
 * `timeoutMs` passes, with `describe()` appended to the message.
 */
export async function waitForHttp(url, child, timeoutMs, describe = () => "", init = undefined) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the process exited before answering ${url}${describe()}`);
    }
    try {
      const response = await fetch(url, init);
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${url}${describe()}`);
    await sleep(50);
  }
}

/**
 * Starts `script` (a server of this folder taking its port as first argument, then `args`) as a
 * child process with only PATH and `env`, and waits until it answers a POST; resolves to
 * {url, pid, stop}.
 */
async function startServerScript(script, args, env) {
  const port = await freePort();
  const child = track(
    spawn(process.execPath, [path.join(HERE, script), String(port), ...args], {
      env: { PATH: process.env.PATH ?? "", ...env },
      stdio: ["ignore", "ignore", "inherit"],
    }),
  );
  const url = `http://127.0.0.1:${port}/ingest`;
  await waitForHttp(url, child, 10_000, undefined, { method: "POST", body: "{}" });
  return { url, pid: child.pid, stop: () => stopChild(child) };
}

/** Starts bare-server.mjs (the node:http baseline) as a child process; resolves to {url, pid, stop}. */
export function startBareServer({ call = false } = {}) {
  return startServerScript("bare-server.mjs", [], { BENCH_CALL: call ? "1" : "0" });
}

/**
 * Starts floor-server.mjs (the least a durable, sandboxed ingest can do) as a child process with
 * `parts` ("ipc,db", "ipc", "db", "ipc,dbworker" or ""), its database in `dataDir`; resolves to
 * {url, pid, stop}.
 */
export function startFloorServer({ parts = "ipc,db", dataDir }) {
  return startServerScript("floor-server.mjs", [dataDir], { FLOOR_PARTS: parts });
}

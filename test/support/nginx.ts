/**
 * Debian's nginx as the load balancer in front of Sluice nodes: the site configuration that
 * docs/operations.md gives operators (`nginxSiteConfig`, checked against the docs by
 * test/docs/operations-recipe.test.ts), and a private nginx process for tests that serves it on a free
 * loopback port. The process runs in the foreground as a child of the test, with its
 * configuration, pid file, logs and temp files in a temp dir; the system's nginx service is never
 * used. Its access log records which upstreams each request went to, so a test can count the
 * requests nginx retried on another node.
 */
import { type ChildProcess, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { freeLoopbackPort, waitForPort } from "./ports.js";
import { tempDir } from "./temp.js";

export const NGINX_BIN = "/usr/sbin/nginx";

export interface NginxSite {
  /** `host:port` of each Sluice node. */
  readonly upstreams: readonly string[];
  /** What `listen` says: `80`, or `127.0.0.1:18080`. */
  readonly listen: string;
  readonly serverName: string;
}

/**
 * The `upstream` and `server` blocks of the recipe: every node in one upstream group; a request
 * that cannot reach a node (refused, reset or timed out before an answer) goes to the next one,
 * including POSTs (`non_idempotent`); a node that failed 3 times in 5 s is left out for 5 s. Answers, whatever
 * their status, are never retried: a source's own 502 or 503 must not run it again on another
 * node. docs/operations.md explains each choice.
 */
export function nginxSiteConfig(site: NginxSite): string {
  const servers = site.upstreams.map((address) => `    server ${address} max_fails=3 fail_timeout=5s;`);
  return [
    "upstream sluice {",
    ...servers,
    "}",
    "",
    "server {",
    `    listen ${site.listen};`,
    `    server_name ${site.serverName};`,
    "    # SLUICE_ENDPOINT_BODY_LIMIT (10 MB by default)",
    "    client_max_body_size 10m;",
    "",
    "    location / {",
    "        proxy_pass http://sluice;",
    "        proxy_http_version 1.1;",
    "        proxy_set_header Host $host;",
    "        proxy_set_header X-Forwarded-For $proxy_add_x_forwarded_for;",
    "        proxy_set_header X-Forwarded-Proto $scheme;",
    "        # Try the next node when this one cannot be reached or dies before it answers.",
    "        proxy_next_upstream error timeout non_idempotent;",
    "        proxy_next_upstream_tries 0;",
    "        proxy_next_upstream_timeout 10s;",
    "        proxy_connect_timeout 5s;",
    "        # Longer than the longest invocation a source may have (timeout_seconds 900), so",
    "        # that a timeout is a node that hangs, never a request still running.",
    "        proxy_read_timeout 910s;",
    "        proxy_send_timeout 60s;",
    "    }",
    "}",
    "",
  ].join("\n");
}

/** One line of the access log: a request nginx answered, and the node or nodes it tried. */
export interface NginxAccess {
  /** When nginx logged it, in ms since the epoch. */
  readonly at: number;
  readonly method: string;
  readonly uri: string;
  /** The status the client got. */
  readonly status: number;
  /** Each node tried, in order (`host:port`); more than one when nginx retried. */
  readonly upstreams: readonly string[];
  /** The status of each try (502 for a node that could not be reached). */
  readonly upstreamStatuses: readonly string[];
}

export interface Nginx {
  /** http://127.0.0.1:<port> */
  readonly url: string;
  readonly port: number;
  readonly dir: string;
  /** The access log so far. */
  accesses(): NginxAccess[];
  /** The requests nginx sent to more than one node. */
  retried(): NginxAccess[];
  errorLog(): string;
  stop(): Promise<void>;
}

const LOG_FORMAT = "$msec\\t$request_method\\t$request_uri\\t$status\\t$upstream_addr\\t$upstream_status";

const running = new Set<ChildProcess>();

/** Starts nginx in front of the upstreams on a free loopback port (or `port`); resolves once it accepts connections. */
export async function startNginx(options: { upstreams: readonly string[]; port?: number }): Promise<Nginx> {
  if (!fs.existsSync(NGINX_BIN)) {
    throw new Error(
      `${NGINX_BIN} is missing: the cluster suite needs Debian's nginx (apt-get install nginx; .ci/run installs it)`,
    );
  }
  const dir = tempDir("sluice-nginx-");
  // Run as root, nginx's workers drop to nobody: they must reach the temp paths below.
  fs.chmodSync(dir, 0o755);
  const port = options.port ?? (await freeLoopbackPort());
  const accessLog = path.join(dir, "access.log");
  const errorLog = path.join(dir, "error.log");
  const temp = (name: string) => path.join(dir, name);
  const conf = [
    "worker_processes 1;",
    `error_log ${errorLog} info;`,
    "events { worker_connections 4096; }",
    "http {",
    `    log_format cluster "${LOG_FORMAT}";`,
    `    access_log ${accessLog} cluster;`,
    `    client_body_temp_path ${temp("client_body")};`,
    `    proxy_temp_path ${temp("proxy")};`,
    `    fastcgi_temp_path ${temp("fastcgi")};`,
    `    uwsgi_temp_path ${temp("uwsgi")};`,
    `    scgi_temp_path ${temp("scgi")};`,
    nginxSiteConfig({ upstreams: options.upstreams, listen: `127.0.0.1:${port}`, serverName: "localhost" })
      .split("\n")
      .map((line) => (line === "" ? line : `    ${line}`))
      .join("\n"),
    "}",
    "",
  ].join("\n");
  const confPath = path.join(dir, "nginx.conf");
  fs.writeFileSync(confPath, conf);

  const child = spawn(
    NGINX_BIN,
    ["-p", dir, "-e", errorLog, "-c", confPath, "-g", `daemon off; pid ${path.join(dir, "nginx.pid")};`],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  running.add(child);
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<void>((resolve) =>
    child.once("exit", () => {
      running.delete(child);
      resolve();
    }),
  );
  const readLog = (file: string) => (fs.existsSync(file) ? fs.readFileSync(file, "utf8") : "");
  try {
    await waitForPort(port, 10_000, () => child.exitCode !== null || child.signalCode !== null);
  } catch (error) {
    child.kill("SIGKILL");
    throw new Error(`nginx did not start: ${(error as Error).message}\n${output}\n${readLog(errorLog)}`);
  }

  const accesses = (): NginxAccess[] =>
    readLog(accessLog)
      .split("\n")
      .filter((line) => line !== "")
      .map((line) => {
        const [msec = "0", method = "", uri = "", status = "0", addr = "", statuses = ""] = line.split("\t");
        return {
          at: Math.round(Number(msec) * 1000),
          method,
          uri,
          status: Number(status),
          upstreams: addr === "-" ? [] : addr.split(", "),
          upstreamStatuses: statuses === "-" ? [] : statuses.split(", "),
        };
      });
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    dir,
    accesses,
    retried: () => accesses().filter((access) => access.upstreams.length > 1),
    errorLog: () => readLog(errorLog),
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        child.kill("SIGTERM");
        const timer = setTimeout(() => child.kill("SIGKILL"), 5000);
        await exited;
        clearTimeout(timer);
      }
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Kills (SIGKILL) every nginx a test left running; for afterAll. */
export async function killAllNginx(): Promise<void> {
  await Promise.all(
    [...running].map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGKILL");
        }),
    ),
  );
}

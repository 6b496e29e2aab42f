/**
 * A Sluice server for one scenario: `node bin/sluice.js server` as a child process with its own
 * temporary data directory (SQLite), or its own PostgreSQL schema with `--postgres URL`. Its log
 * goes to `<dataDir>/server.log`, at the default level (info) unless a scenario asks otherwise.
 * The handle has a small REST helper, deploy(), restart() and stop().
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { freePort, stopChild, track, waitForHttp } from "./processes.mjs";

/** This checkout: where bench/ lives and where results are written. */
export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * Starts a Sluice server. `options.env` adds or overrides SLUICE_* variables; `options.tmp` is
 * the bench's temporary root; `options.postgres` a postgres:// URL for scale mode; `options.nodeArgs`
 * flags for node itself (such as --cpu-prof while looking into a slow spot); `options.sluiceRoot` the
 * built Sluice checkout to run (this one by default; `--sluice DIR` measures another).
 * `options.shared` ({ schemaUrl, apiKey }) joins a schema another server made (a node of a
 * cluster, bench/cluster.mjs): its URL and API key are used, and stop() leaves it alone.
 */
export async function startSluice({
  tmp,
  env = {},
  postgres,
  label = "sluice",
  nodeArgs = [],
  sluiceRoot = ROOT,
  shared,
}) {
  const dataDir = fs.mkdtempSync(path.join(tmp, `${label}-`));
  const port = await freePort();
  const apiKey = shared?.apiKey ?? `sk_bench_${randomBytes(16).toString("hex")}`;
  const schema = shared ? undefined : postgres ? await createSchema(postgres) : undefined;
  const databaseUrl = shared?.schemaUrl ?? schema?.url;
  const logFile = path.join(dataDir, "server.log");
  const environment = {
    ...machineEnvironment(),
    SLUICE_HOST: "127.0.0.1",
    SLUICE_PORT: String(port),
    SLUICE_DATA_DIR: dataDir,
    SLUICE_BOOTSTRAP_API_KEY: apiKey,
    // The bench's own REST calls (deploying 1,000 sources) must not be rate limited;
    // source endpoints are never rate limited anyway.
    SLUICE_RATE_LIMIT: "10000000",
    SLUICE_ALLOWED_CIDRS: "127.0.0.0/8",
    ...(databaseUrl ? { SLUICE_DATABASE_URL: databaseUrl } : {}),
    ...env,
  };
  const url = `http://127.0.0.1:${port}`;
  const tail = () => `\n--- ${logFile} (tail) ---\n${readTail(logFile)}`;
  /** Spawns the server on this handle's data and waits until it is ready. */
  const launch = async () => {
    const log = fs.openSync(logFile, "a");
    const spawned = track(
      spawn(process.execPath, [...nodeArgs, path.join(sluiceRoot, "bin", "sluice.js"), "server"], {
        cwd: sluiceRoot,
        env: environment,
        stdio: ["ignore", log, log],
      }),
    );
    fs.closeSync(log);
    try {
      // Generous: on a loaded machine the PostgreSQL migrations alone took 38 s.
      await waitForHttp(`${url}/ready`, spawned, 120_000, tail);
    } catch (error) {
      spawned.kill("SIGKILL");
      await schema?.drop();
      throw error;
    }
    return spawned;
  };
  let child = await launch();

  /** One REST call; resolves to the parsed body's `data`, throws with the error body otherwise. */
  const api = async (method, route, body) => {
    const response = await fetch(`${url}${route}`, {
      method,
      headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${route} answered ${response.status}: ${text}`);
    return JSON.parse(text).data;
  };

  return {
    url,
    get pid() {
      return child.pid;
    },
    /** The PostgreSQL URL of its schema (undefined on SQLite), for other nodes to join. */
    schemaUrl: databaseUrl,
    dataDir,
    logFile,
    apiKey,
    api,
    /** Deploys `component_code` as a source; resolves to the source record. */
    deploy: (code, extra = {}) => api("POST", "/v1/sources", { component_code: code, ...extra }),
    /** SIGTERM, then a new process on the same data, port and key: a fresh process's footprint. */
    async restart() {
      await stopChild(child);
      child = await launch();
    },
    /** SIGTERM, then SIGKILL after 15 s; drops the PostgreSQL schema. */
    async stop() {
      await stopChild(child);
      await schema?.drop();
    },
  };
}

/**
 * What a server needs of the machine's environment: PATH, HOME (npm's user config), and the TLS
 * and proxy settings npm needs to reach the registry from here. Nothing else of the bench's
 * environment (npm run's own npm_* variables, say) reaches the server.
 */
function machineEnvironment() {
  const names =
    /^(PATH|HOME|NODE_EXTRA_CA_CERTS|SSL_CERT_FILE|SSL_CERT_DIR|(HTTPS?|NO)_PROXY|(https?|no)_proxy)$/;
  return Object.fromEntries(Object.entries(process.env).filter(([name]) => names.test(name)));
}

function readTail(file) {
  try {
    return fs.readFileSync(file, "utf8").split("\n").slice(-30).join("\n");
  } catch {
    return "(no log)";
  }
}

/** A fresh schema for one server in scale mode; its URL sets the search_path to it. */
async function createSchema(databaseUrl) {
  const { default: pg } = await import("pg");
  const name = `sluice_bench_${randomBytes(6).toString("hex")}`;
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  await client.query(`CREATE SCHEMA ${name}`);
  await client.end();
  const url = new URL(databaseUrl);
  url.searchParams.set("options", `-c search_path=${name}`);
  return {
    url: url.toString(),
    async drop() {
      const admin = new pg.Client({ connectionString: databaseUrl });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS ${name} CASCADE`);
      await admin.end();
    },
  };
}

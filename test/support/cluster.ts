/**
 * A Sluice cluster for tests, as docs/operations.md's "Several nodes behind nginx" sets one up:
 * N real `sluice server` processes on one fresh PostgreSQL schema, with one master key and one
 * base URL (nginx's), each on a fixed port of its own on 127.0.0.1 (so it comes back there after
 * a restart) and a data directory of its own, behind a private nginx (test/support/nginx.ts).
 * Tests stop and restart nodes with real signals; `stop` ends every process and drops the schema.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe } from "vitest";
import { SluiceClient } from "../../src/client/client.js";
import { dialects, postgresUrl, type TestDatabase } from "./dialects.js";
import { killAllNginx, type Nginx, startNginx } from "./nginx.js";
import { freeLoopbackPort } from "./ports.js";
import { RELIABILITY_API_KEY, serverEnvironment } from "./server-env.js";
import { type Exit, killAllServerProcesses, type ServerProcess, spawnServer } from "./server-process.js";
import { tempDir } from "./temp.js";
import { waitUntil } from "./webhook-delivery.js";

export interface ClusterNode {
  /** "A", "B", "C", … */
  readonly name: string;
  readonly port: number;
  /** The node itself, bypassing nginx: http://127.0.0.1:<port> */
  readonly url: string;
  /** The running process; undefined while the node is stopped. */
  readonly process: ServerProcess | undefined;
  /** Every process the node ran, the current one last: their output, for a test that failed. */
  readonly processes: readonly ServerProcess[];
  /** A client of this node alone. */
  readonly client: SluiceClient;
}

export interface NodeRestart {
  readonly signalledAt: number;
  readonly exit: Exit;
  /** From the signal to the process's exit. */
  readonly stoppedMs: number;
  /** From the signal to /ready answering 200 again. */
  readonly readyMs: number;
}

export interface Cluster {
  /** nginx's URL: the base URL of every node. */
  readonly url: string;
  readonly apiKey: string;
  /** A client through nginx. */
  readonly client: SluiceClient;
  readonly nodes: readonly ClusterNode[];
  readonly nginx: Nginx;
  /** Sends the signal to the node and resolves with how it exited. */
  stopNode(index: number, signal?: NodeJS.Signals): Promise<Exit>;
  /** SIGKILL. */
  killNode(index: number): Promise<Exit>;
  /** Starts a stopped node on its port and resolves once its /ready answers 200. */
  startNode(index: number): Promise<void>;
  /** stopNode, then startNode. */
  restartNode(index: number, signal?: NodeJS.Signals): Promise<NodeRestart>;
  /** Stops every node (SIGTERM) and nginx, drops the schema and removes the data directories. */
  stop(): Promise<void>;
}

export interface ClusterOptions {
  /** 3 unless told. */
  readonly nodes?: number;
  /** More SLUICE_* variables for every node. */
  readonly env?: Record<string, string>;
}

/** Starts the nodes (the first alone, since it migrates the schema and creates the account), then nginx. */
export async function startCluster(options: ClusterOptions = {}): Promise<Cluster> {
  if (!postgresUrl) throw new Error("a cluster needs PostgreSQL: set SLUICE_TEST_DATABASE_URL");
  const postgres = dialects.find((dialect) => dialect.name === "postgres");
  if (!postgres) throw new Error("the postgres test dialect is missing");
  const count = options.nodes ?? 3;
  const database: TestDatabase = await postgres.create();
  const databaseUrl = database.databaseUrl as string;
  const nginxPort = await freeLoopbackPort();
  const baseUrl = `http://127.0.0.1:${nginxPort}`;

  interface NodeState {
    name: string;
    port: number;
    url: string;
    dataDir: string;
    process: ServerProcess | undefined;
    processes: ServerProcess[];
    client: SluiceClient;
  }
  const states: NodeState[] = [];
  for (let index = 0; index < count; index++) {
    const port = await freeLoopbackPort();
    const url = `http://127.0.0.1:${port}`;
    states.push({
      name: String.fromCharCode(65 + index),
      port,
      url,
      dataDir: tempDir(`sluice-node-${index}-`),
      process: undefined,
      processes: [],
      client: new SluiceClient({ baseUrl: url, apiKey: RELIABILITY_API_KEY }),
    });
  }
  const stateOf = (index: number): NodeState => {
    const state = states[index];
    if (!state) throw new Error(`there is no node ${index}`);
    return state;
  };

  const startNode = async (index: number) => {
    const state = stateOf(index);
    if (state.process) throw new Error(`node ${state.name} is running`);
    // Warnings only: a log line per request costs each node a good part of its CPU at this load.
    const env = serverEnvironment(
      { dataDir: state.dataDir, databaseUrl },
      { SLUICE_PORT: String(state.port), SLUICE_BASE_URL: baseUrl, SLUICE_LOG_LEVEL: "warn", ...options.env },
    );
    const server = spawnServer(env);
    state.process = server;
    state.processes.push(server);
    await waitUntil(
      `node ${state.name} ready`,
      async () => {
        if (server.child.exitCode !== null || server.child.signalCode !== null)
          throw new Error(
            `node ${state.name} exited while starting:\n${server.stdout()}\n${server.stderr()}`,
          );
        return (await fetch(`${state.url}/ready`).catch(() => undefined))?.status === 200;
      },
      60_000,
      25,
    );
  };

  const stopNode = async (index: number, signal: NodeJS.Signals = "SIGTERM") => {
    const state = stateOf(index);
    const running = state.process;
    if (!running) throw new Error(`node ${state.name} is not running`);
    if (running.child.exitCode === null && running.child.signalCode === null) running.child.kill(signal);
    const exit = await running.exited;
    state.process = undefined;
    return exit;
  };

  let nginx: Nginx | undefined;
  const stop = async () => {
    await Promise.all(
      states.map(async (state, index) => {
        if (state.process) await stopNode(index);
      }),
    );
    await nginx?.stop();
    for (const state of states) fs.rmSync(state.dataDir, { recursive: true, force: true });
    await database.cleanup();
  };

  try {
    await startNode(0);
    await Promise.all(states.slice(1).map((_, index) => startNode(index + 1)));
    nginx = await startNginx({
      upstreams: states.map((state) => `127.0.0.1:${state.port}`),
      port: nginxPort,
    });
  } catch (error) {
    await stop().catch(() => {});
    throw error;
  }
  const proxy = nginx;

  return {
    url: baseUrl,
    apiKey: RELIABILITY_API_KEY,
    client: new SluiceClient({ baseUrl, apiKey: RELIABILITY_API_KEY }),
    nodes: states,
    nginx: proxy,
    stopNode,
    killNode: (index) => stopNode(index, "SIGKILL"),
    startNode,
    async restartNode(index, signal = "SIGTERM") {
      const signalled = Date.now();
      const exit = await stopNode(index, signal);
      const stoppedMs = Date.now() - signalled;
      await startNode(index);
      return { signalledAt: signalled, exit, stoppedMs, readyMs: Date.now() - signalled };
    },
    stop,
  };
}

/**
 * A describe block around one cluster: started before its tests, stopped after them (with every
 * server and nginx process a failed test may have left). Skipped, saying so in its title, when
 * SLUICE_TEST_DATABASE_URL is not set. `body` gets the running cluster through the function it is given.
 */
export function describeCluster(
  title: string,
  body: (running: () => Cluster) => void,
  options: ClusterOptions = {},
): void {
  const shownTitle = postgresUrl ? title : `${title} (skipped: SLUICE_TEST_DATABASE_URL is not set)`;
  describe.skipIf(!postgresUrl)(shownTitle, () => {
    let cluster: Cluster | undefined;
    beforeAll(async () => {
      cluster = await startCluster(options);
    }, 120_000);
    afterAll(async () => {
      await cluster?.stop();
      await killAllServerProcesses();
      await killAllNginx();
    });
    body(() => {
      if (!cluster) throw new Error("the cluster did not start");
      return cluster;
    });
  });
}

/** A workflow run as `GET /v1/workflow_runs/{id}` shows it, the fields the cluster tests read. */
export interface ClusterRunView {
  id: string;
  status: string;
  attempts: number;
  started_at_ms: number | null;
  finished_at_ms: number | null;
}

/** Resolves with the runs, in the order of `runIds`, once none is queued or running. */
export function waitForRunsToFinish(
  client: SluiceClient,
  runIds: readonly string[],
  timeoutMs: number,
  intervalMs: number,
): Promise<ClusterRunView[]> {
  return waitUntil(
    "every run finished",
    async () => {
      const all = await Promise.all(
        runIds.map((id) => client.data<ClusterRunView>("GET", `/v1/workflow_runs/${id}`)),
      );
      return all.every((run) => run.status !== "queued" && run.status !== "running") ? all : undefined;
    },
    timeoutMs,
    intervalMs,
  );
}

/**
 * Starting and stopping a Sluice server: open and migrate the store, check the master key, create
 * the first account on an empty database, listen. `close` drains the node: /ready answers 503 and
 * the workers claim no more jobs at once; after the drain delay the listener closes; once the
 * requests and the jobs in flight are done, the sandbox and the database close.
 */
import type { FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { ServerConfig } from "../config/server-config.js";
import { bootstrapFirstAccount } from "../core/accounts/accounts.js";
import { type ActionSender, createActionSender } from "../core/actions/action-sends.js";
import { RefreshFlights } from "../core/apps/refresh-flights.js";
import { spendConnectToken } from "../core/connect/connect-tokens.js";
import type { CoreContext } from "../core/context.js";
import { createDeliveryWorker, type DeliveryWorker } from "../core/delivery/delivery-worker.js";
import { createDeliveryRetention, type DeliveryRetention } from "../core/delivery/retention.js";
import { createMetrics, type Metrics } from "../core/metrics.js";
import { NodeCaches } from "../core/node-cache.js";
import { createCodeFetcher } from "../core/outbound/fetch-code.js";
import { createMailer } from "../core/outbound/smtp-mailer.js";
import { type AddressPolicy, createAddressPolicy, createGuardedAgent } from "../core/outbound/ssrf-guard.js";
import { checkMasterKey, createSecretBox, loadMasterKey } from "../core/secret-box.js";
import { SourceLanes } from "../core/sources/lane.js";
import { createTimerWorker, type TimerWorker } from "../core/sources/timers/timer-worker.js";
import { createReplayPacer, type ReplayPacer } from "../core/workflows/replay-pacer.js";
import { createWorkflowRunner, type WorkflowRunner } from "../core/workflows/run-worker.js";
import { createCompiler } from "../runtime/compile/esbuild-compiler.js";
import { createNpmPackages } from "../runtime/compile/npm-packages.js";
import { namespaceLauncher } from "../runtime/sandbox/egress/network-namespace.js";
import { createSandbox } from "../runtime/sandbox/runner-pool.js";
import type { Sandbox } from "../runtime/sandbox/sandbox.js";
import { openStore, type Store } from "../store/store.js";
import { buildApp } from "./app.js";
import { type ComponentNetworkPolicy, componentNetworkPolicy, listenPort } from "./component-network.js";
import { createServerLogger } from "./console-log.js";
import { startDraining, stopListening } from "./drain.js";

export interface RunningServer {
  /** Where the server listens, such as http://127.0.0.1:8080. */
  readonly url: string;
  readonly app: FastifyInstance;
  readonly store: Store;
  /**
   * Drains and stops: /ready answers 503 and no worker claims another delivery, tick or workflow
   * run from the first moment; the listener closes after `config.drainDelayMs` (new connections
   * are refused, SSE streams end, requests in flight finish); it resolves once the requests and
   * the jobs in flight are done and the database is closed.
   */
  close(): Promise<void>;
}

export interface StartOptions {
  /** Shows the generated key of the first account; the default prints it to stdout. */
  readonly announceFirstKey?: (apiKey: string) => void;
  /** A log for people (pretty, coloured, one line per request); `sluice server` asks for it on a TTY. */
  readonly humanLog?: boolean;
}

/** What a server runs besides its store; each is set once made, so a failed start closes what it made. */
interface Parts {
  app?: FastifyInstance;
  sandbox?: Sandbox;
  sender?: ActionSender;
  timers?: TimerWorker;
  deliveries?: DeliveryWorker;
  workflows?: WorkflowRunner;
  replays?: ReplayPacer;
  retention?: DeliveryRetention;
}

type Running = Required<Parts>;

export async function startServer(config: ServerConfig, options: StartOptions = {}): Promise<RunningServer> {
  const logger = createServerLogger(config, options.humanLog === true);
  const masterKey = loadMasterKey(config.masterKey, config.dataDir);
  const store = await openStore(
    { databaseUrl: config.databaseUrl, dataDir: config.dataDir },
    { onConnectionError: (error) => logger.warn({ err: error }, "database connection lost; reconnecting") },
  );
  const parts: Parts = {};
  let publicUrl = config.baseUrl;
  try {
    await prepareStore(store, masterKey, config, options, logger);
    const policy = createAddressPolicy(config.allowedCidrs);
    const egress = await componentNetworkPolicy(config);
    // With port 0 the public URL is known only once listening.
    const core = createCore(config, store, masterKey, policy, egress, logger, parts, () => publicUrl);
    const metrics = createMetrics(store);
    const workflows = createWorkflowRunner(core, {
      retryScheduleSeconds: config.runRetryScheduleSeconds,
      onError: (error) => logger.error({ err: error }, "workflow runner"),
    });
    parts.workflows = workflows;
    const app = await buildApp({
      config,
      core,
      metrics,
      logger,
      workflows,
      requestLine: options.humanLog === true,
    });
    parts.app = app;
    const running: Running = {
      app,
      sandbox: core.sandbox,
      sender: core.sender,
      workflows,
      ...createWorkers(core, config, policy, metrics, logger, parts),
    };
    const url = await app.listen({ host: config.host, port: config.port });
    if (/:0$/.test(config.baseUrl)) publicUrl = url;
    await egress.protectListenAddress(listenPort(app));
    running.timers.start();
    running.deliveries.start();
    running.workflows.start();
    running.replays.start();
    running.retention.start();
    logger.info(
      { url, database: config.databaseUrl === undefined ? `sqlite:${config.dataDir}` : "postgres" },
      "Sluice is listening",
    );
    return { url, app, store, close: drainer(running, store, config, logger) };
  } catch (error) {
    await parts.app?.close();
    await parts.timers?.stop();
    await parts.deliveries?.stop();
    await parts.workflows?.stop();
    await parts.replays?.stop();
    await parts.retention?.stop();
    await parts.sender?.close();
    await parts.sandbox?.close();
    await store.close();
    throw error;
  }
}

/** Checks the master key, takes up a dead process's claims, and creates the first account on an empty database. */
async function prepareStore(
  store: Store,
  masterKey: Buffer,
  config: ServerConfig,
  options: StartOptions,
  logger: Logger,
): Promise<void> {
  await checkMasterKey(store.db, masterKey);
  if (store.capabilities.singleProcess) {
    // Claims left by a previous process that died (SIGKILL, power loss) are taken up now.
    const released = await store.jobs.releaseAllLeases();
    if (released > 0)
      logger.warn({ released }, "released the leases of a previous run that did not stop cleanly");
  }
  const first = await bootstrapFirstAccount(store, config.bootstrapApiKey);
  if (first?.generated) (options.announceFirstKey ?? printFirstKey)(first.apiKey);
  else if (first)
    logger.info({ account: first.account.id }, "created the first account with the bootstrap API key");
}

/** The core context: the store with the sandbox, compiler, secrets and outbound senders around it. */
function createCore(
  config: ServerConfig,
  store: Store,
  masterKey: Buffer,
  policy: AddressPolicy,
  egress: ComponentNetworkPolicy,
  logger: Logger,
  parts: Parts,
  baseUrl: () => string,
): CoreContext {
  const packages = createNpmPackages({ dataDir: config.dataDir });
  const sandbox = createSandbox({
    dataDir: config.dataDir,
    packages: packages.cache,
    maxRunners: config.maxRunners,
    memoryBudgetMb: config.runnerMemoryMb,
    egressPolicy: () => egress.spec,
    ...(config.sandboxNetwork === "namespace" ? { networkNamespace: namespaceLauncher() } : {}),
    logger: logger.child({ component: "sandbox" }),
  });
  parts.sandbox = sandbox;
  const sender = createActionSender({ policy, mailer: config.smtp ? createMailer(config.smtp) : undefined });
  parts.sender = sender;
  const caches = new NodeCaches(store);
  return {
    store,
    secrets: createSecretBox(masterKey),
    compiler: createCompiler({ dataDir: config.dataDir, packages }),
    fetchPackage: (spec, dest) => packages.extract(spec, dest),
    sandbox,
    fetchCode: createCodeFetcher(policy),
    sender,
    oauth: {
      transport: { policy, dispatcher: createGuardedAgent(policy) },
      stateTtlMs: config.oauthStateTtlSeconds * 1000,
      spendGrant: spendConnectToken,
      refreshes: new RefreshFlights(),
    },
    lanes: new SourceLanes(store),
    caches,
    get baseUrl() {
      return baseUrl();
    },
  };
}

/** The background workers (deliveries, timers, bulk replays, retention), made but not started. */
function createWorkers(
  core: CoreContext,
  config: ServerConfig,
  policy: AddressPolicy,
  metrics: Metrics,
  logger: Logger,
  parts: Parts,
): Pick<Running, "deliveries" | "timers" | "replays" | "retention"> {
  const { store } = core;
  const deliveries = createDeliveryWorker({
    store,
    secrets: core.secrets,
    policy,
    dispatcher: createGuardedAgent(policy),
    retryScheduleSeconds: config.retryScheduleSeconds,
    metrics,
    onError: (error) => logger.error({ err: error }, "delivery worker"),
  });
  parts.deliveries = deliveries;
  const timers = createTimerWorker(core, {
    onError: (error) => logger.error({ err: error }, "timer worker"),
  });
  parts.timers = timers;
  const replays = createReplayPacer(core, {
    onError: (error) => logger.error({ err: error }, "bulk replays"),
  });
  parts.replays = replays;
  const retention = createDeliveryRetention({
    store,
    retentionMs: config.deliveryRetentionMs,
    onError: (error) => logger.error({ err: error }, "delivery retention"),
    onSwept: (removed) => {
      metrics.deliveriesRemoved(removed);
      logger.info({ removed }, "removed deliveries past their retention");
    },
  });
  parts.retention = retention;
  return { deliveries, timers, replays, retention };
}

/** RunningServer.close: drains, then closes the listener, the workers, the sandbox and the store, once. */
function drainer(running: Running, store: Store, config: ServerConfig, logger: Logger) {
  let closing: Promise<void> | undefined;
  return (): Promise<void> => {
    closing ??= (async () => {
      const listening = running.app;
      startDraining(listening.server);
      logger.info(
        { drainDelayMs: config.drainDelayMs },
        "draining: /ready answers 503, no new jobs are claimed",
      );
      // Each stop claims nothing more at once and resolves when its jobs in flight are done,
      // meanwhile the requests in flight (which may run sources and enqueue jobs) go on.
      const workDone = Promise.allSettled([
        running.timers.stop(),
        running.deliveries.stop(),
        running.workflows.stop(),
        running.replays.stop(),
        running.retention.stop(),
      ]);
      if (config.drainDelayMs > 0) await new Promise((resolve) => setTimeout(resolve, config.drainDelayMs));
      await stopListening(listening.server);
      await listening.close();
      const failed = (await workDone).find((outcome) => outcome.status === "rejected");
      await running.sender.close();
      await running.sandbox.close();
      await store.close();
      if (failed) throw failed.reason;
    })();
    return closing;
  };
}

function printFirstKey(apiKey: string): void {
  process.stdout.write(
    [
      "",
      "Sluice created the first account (an admin). Its API key, shown only this once:",
      "",
      `    ${apiKey}`,
      "",
      `Log the CLI in with:  npx sluice login --api-key ${apiKey}`,
      "",
      "",
    ].join("\n"),
  );
}

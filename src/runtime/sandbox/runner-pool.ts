/**
 * The Sandbox implementation: a pool of warm runners, one per component id, bounded by
 * `maxRunners` with least-recently-used eviction of idle runners. Each component has a queue, so
 * its invocations run one at a time; a runner found dead, stopped or running another bundle is
 * replaced lazily, at the next invocation. `describe` uses a short-lived runner outside the pool.
 */
import fs from "node:fs";
import path from "node:path";
import { createNpmPackages } from "../compile/npm-packages.js";
import type { ComponentDefinition } from "../component-definition.js";
import { ArtifactStore, type PackageInstaller } from "./artifacts.js";
import { createEgressPolicy, type EgressPolicySpec } from "./egress/egress-policy.js";
import { openTunnel } from "./egress/egress-tunnel.js";
import type { NamespaceLauncher } from "./egress/network-namespace.js";
import { failedResult, type SandboxLogger } from "./invocation-collector.js";
import { locateRunnerEntry, type RunnerEntry } from "./runner-entry.js";
import { RunnerProcess, type RunnerProcessOptions } from "./runner-process.js";
import type { Invocation, InvocationResult, RunnerSpec, Sandbox } from "./sandbox.js";

export type { SandboxLogger } from "./invocation-collector.js";

export interface SandboxOptions {
  /** Artifacts go to `<dataDir>/artifacts/`, runners' writable directories to `<dataDir>/tmp/`. */
  readonly dataDir: string;
  /** Warm runners kept at most (more run briefly when that many are busy at once). */
  readonly maxRunners: number;
  /**
   * The network policy of component code, read at each runner's start (the server's own listen
   * port is known only once it listens). Default: the public internet only, nothing allowed again.
   */
  readonly egressPolicy?: () => EgressPolicySpec;
  /**
   * Set for the network-namespace mode (egress/network-namespace.ts): runners start with no network
   * and the pool opens their connections, under the same policy.
   */
  readonly networkNamespace?: NamespaceLauncher;
  readonly logger?: SandboxLogger;
  /**
   * Installs the npm packages a bundle imports when this node's cache lacks them (a bundle
   * compiled on another node); by default npm into `<dataDir>/packages`, as the compiler does.
   */
  readonly packages?: PackageInstaller;
}

export const DEFAULT_HEAP_MB = 256;
/** How long loading and describing a component may take. */
export const DESCRIBE_TIMEOUT_MS = 30_000;

/** One component's place in the pool: its queue and its runner, if it has one. */
interface ComponentSlot {
  readonly componentId: string;
  runner: RunnerProcess | undefined;
  /** Tasks queued or running. */
  pending: number;
  /** The end of the queue. */
  tail: Promise<void>;
}

/**
 * Creates the sandbox. Throws when the runner is not built (`npm run build`) or `maxRunners` is
 * not a positive integer.
 */
export function createSandbox(options: SandboxOptions): Sandbox {
  return new RunnerPool(options);
}

class RunnerPool implements Sandbox {
  /** In least-recently-used-first order: a slot is moved to the end at each use. */
  private readonly slots = new Map<string, ComponentSlot>();
  private readonly describers = new Set<RunnerProcess>();
  private readonly artifacts: ArtifactStore;
  private readonly entry: RunnerEntry;
  private readonly tmpRoot: string;
  private readonly maxRunners: number;
  private readonly logger: SandboxLogger | undefined;
  private readonly egressPolicy: () => EgressPolicySpec;
  private readonly networkNamespace: NamespaceLauncher | undefined;
  private closed = false;

  constructor(options: SandboxOptions) {
    if (!Number.isInteger(options.maxRunners) || options.maxRunners < 1) {
      throw new Error(`maxRunners must be a positive integer, got ${options.maxRunners}`);
    }
    this.entry = locateRunnerEntry();
    this.artifacts = new ArtifactStore(
      path.join(options.dataDir, "artifacts"),
      options.packages ?? createNpmPackages({ dataDir: options.dataDir }).cache,
    );
    this.tmpRoot = path.join(options.dataDir, "tmp");
    fs.mkdirSync(this.tmpRoot, { recursive: true });
    this.maxRunners = options.maxRunners;
    this.logger = options.logger;
    this.egressPolicy = options.egressPolicy ?? (() => ({ allowedCidrs: [], protectedEndpoints: [] }));
    this.networkNamespace = options.networkNamespace;
  }

  async describe(spec: RunnerSpec): Promise<ComponentDefinition> {
    if (this.closed) throw new Error("the sandbox is closed");
    const runner = await this.spawn(spec);
    this.describers.add(runner);
    try {
      return await runner.describe(DESCRIBE_TIMEOUT_MS);
    } finally {
      this.describers.delete(runner);
      void runner.stop();
    }
  }

  invoke(spec: RunnerSpec, invocation: Invocation): Promise<InvocationResult> {
    if (this.closed)
      return Promise.resolve(failedResult({ reason: "crash", message: "the sandbox is closed" }));
    const slot = this.touch(spec.componentId);
    return this.enqueue(slot, () => this.invokeInSlot(slot, spec, invocation));
  }

  /** Stops the component's runner once the invocations already queued for it have run. */
  async evict(componentId: string): Promise<void> {
    const slot = this.slots.get(componentId);
    if (!slot) return;
    await this.enqueue(slot, async () => {
      const runner = slot.runner;
      slot.runner = undefined;
      await runner?.stop("the runner was evicted");
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    const runners = [...this.describers];
    for (const slot of this.slots.values()) if (slot.runner) runners.push(slot.runner);
    this.slots.clear();
    await Promise.all(runners.map((runner) => runner.stop("the sandbox was closed during the invocation")));
  }

  private async invokeInSlot(
    slot: ComponentSlot,
    spec: RunnerSpec,
    invocation: Invocation,
  ): Promise<InvocationResult> {
    if (this.closed) return failedResult({ reason: "crash", message: "the sandbox is closed" });
    const heapMb = spec.heapMb ?? DEFAULT_HEAP_MB;
    let runner = slot.runner;
    if (runner && (!runner.usable || runner.bundleHash !== spec.bundleHash || runner.heapMb !== heapMb)) {
      slot.runner = undefined;
      await runner.stop("the runner was replaced");
      runner = undefined;
    }
    if (!runner) {
      this.makeRoom(slot);
      try {
        runner = await this.spawn(spec);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        return failedResult({ reason: "load_error", message: `the runner could not be started: ${message}` });
      }
      if (this.closed) {
        void runner.stop();
        return failedResult({ reason: "crash", message: "the sandbox is closed" });
      }
      slot.runner = runner;
      const started = runner;
      started.onExit = () => {
        if (slot.runner === started) slot.runner = undefined;
        this.forgetIfUnused(slot);
      };
    }
    return runner.invoke(invocation);
  }

  private async spawn(spec: RunnerSpec): Promise<RunnerProcess> {
    const artifact = await this.artifacts.ensure(spec);
    return RunnerProcess.start({
      componentId: spec.componentId,
      bundleHash: spec.bundleHash,
      artifact,
      entry: this.entry,
      tmpRoot: this.tmpRoot,
      heapMb: spec.heapMb ?? DEFAULT_HEAP_MB,
      ...this.networkPolicy(),
      ...(this.logger ? { logger: this.logger } : {}),
    });
  }

  /** The policy a new runner gets, and in namespace mode how its connections are opened. */
  private networkPolicy(): Pick<RunnerProcessOptions, "egressPolicy" | "namespace"> {
    const launcher = this.networkNamespace;
    if (launcher === undefined) return { egressPolicy: JSON.stringify(this.egressPolicy()) };
    const spec: EgressPolicySpec = { ...this.egressPolicy(), tunnel: true };
    const policy = createEgressPolicy(spec);
    return {
      egressPolicy: JSON.stringify(spec),
      namespace: { launcher, openTunnel: (request, dir, id) => openTunnel(request, policy, dir, id) },
    };
  }

  /** The component's slot, created if needed, marked most recently used. */
  private touch(componentId: string): ComponentSlot {
    let slot = this.slots.get(componentId);
    if (slot) this.slots.delete(componentId);
    else slot = { componentId, runner: undefined, pending: 0, tail: Promise.resolve() };
    this.slots.set(componentId, slot);
    return slot;
  }

  /** Runs `task` after the slot's earlier tasks. `task` must not reject. */
  private enqueue<T>(slot: ComponentSlot, task: () => Promise<T>): Promise<T> {
    slot.pending++;
    const run = slot.tail.then(task);
    slot.tail = run.then(
      () => {},
      () => {},
    );
    return run.finally(() => {
      slot.pending--;
      this.trim();
      this.forgetIfUnused(slot);
    });
  }

  /** Before starting a runner for `starting`: stops least recently used idle runners to stay under the bound. */
  private makeRoom(starting: ComponentSlot): void {
    let live = this.liveRunners();
    for (const slot of this.slots.values()) {
      if (live < this.maxRunners) return;
      if (slot === starting || slot.pending > 0 || !slot.runner) continue;
      this.retire(slot);
      live--;
    }
  }

  /** After a burst of concurrent components took the pool over its bound: back under it. */
  private trim(): void {
    let live = this.liveRunners();
    if (live <= this.maxRunners) return;
    for (const slot of this.slots.values()) {
      if (live <= this.maxRunners) return;
      if (slot.pending > 0 || !slot.runner) continue;
      this.retire(slot);
      live--;
    }
  }

  private retire(slot: ComponentSlot): void {
    const runner = slot.runner;
    slot.runner = undefined;
    void runner?.stop("the runner was evicted");
    this.forgetIfUnused(slot);
  }

  private forgetIfUnused(slot: ComponentSlot): void {
    if (slot.pending === 0 && !slot.runner && this.slots.get(slot.componentId) === slot) {
      this.slots.delete(slot.componentId);
    }
  }

  private liveRunners(): number {
    let live = 0;
    for (const slot of this.slots.values()) if (slot.runner) live++;
    return live;
  }
}

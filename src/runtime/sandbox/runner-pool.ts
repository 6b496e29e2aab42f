/**
 * The Sandbox implementation: a pool of warm runners, one per runner key (a component id), kept
 * within `maxRunners` and the memory budget by evicting the least recently used idle ones. A shared
 * runner holding `maxInstancesPerRunner` module instances overflows into `<key>#2`, …; `describe`
 * uses a short-lived runner outside the pool.
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
import { proportionalMb } from "./memory-watch.js";
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
   * Memory the warm runners may take together, in MB of proportional set size (PSS: shared pages
   * split between the processes sharing them), measured from /proc every few seconds. Past it,
   * the least recently used idle runners are stopped. Unbounded when not given.
   */
  readonly memoryBudgetMb?: number;
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
  /**
   * Module instances one shared runner holds at most (default 1,000); the next
   * instances of the same runner key go to another runner (`<key>#2`, …).
   */
  readonly maxInstancesPerRunner?: number;
}

export const DEFAULT_HEAP_MB = 256;
/** How long loading and describing a component may take. */
export const DESCRIBE_TIMEOUT_MS = 30_000;
/** Module instances one shared runner holds by default (their memory: bench/RESULTS.md, "Density"). */
const DEFAULT_MAX_INSTANCES_PER_RUNNER = 1000;
/** A shared runner that dropped this many module instances is replaced once idle (ES modules are never freed). */
const MAX_FORGOTTEN_INSTANCES = 200;
/** How often the runners' memory is measured against the budget, and how many at a time at most. */
const MEASURE_EVERY_MS = 5_000;
const MEASURED_PER_ROUND = 64;
/** What a runner not measured yet is assumed to take: an idle runner with one component (bench/RESULTS.md, "Density"). */
const ASSUMED_RUNNER_PSS_MB = 10;

/** One runner key's place in the pool: its queue and its runner, if it has one. */
interface ComponentSlot {
  readonly componentId: string;
  runner: RunnerProcess | undefined;
  /** Set while its runner is being (re)started: the others in flight wait for it. */
  starting: Promise<void> | undefined;
  /** Tasks queued or running. */
  pending: number;
  /** Invocations allowed in flight at once (the spec's `concurrency`). */
  limit: number;
  /** Weight of the tasks running: 1 per invocation, `limit` for an exclusive task (evict). */
  running: number;
  /** Tasks waiting for room, first come first served. */
  readonly waiting: { readonly weight: number; readonly start: () => void }[];
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
  /** Where each module instance runs: its runner key as asked, and the slot's key it was given. */
  private readonly placements = new Map<string, { readonly asked: string; readonly key: string }>();
  /** Module instances placed on each slot key. */
  private readonly placedCounts = new Map<string, number>();
  private readonly maxInstancesPerRunner: number;
  private readonly describers = new Set<RunnerProcess>();
  private readonly artifacts: ArtifactStore;
  private readonly entry: RunnerEntry;
  private readonly tmpRoot: string;
  private readonly maxRunners: number;
  private readonly logger: SandboxLogger | undefined;
  private readonly egressPolicy: () => EgressPolicySpec;
  private readonly networkNamespace: NamespaceLauncher | undefined;
  private readonly memoryBudgetMb: number | undefined;
  /** Each warm runner's last measured PSS in MB, and when it was measured. */
  private readonly measured = new WeakMap<RunnerProcess, { readonly mb: number; readonly at: number }>();
  private measuring: NodeJS.Timeout | undefined;
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
    this.maxInstancesPerRunner = options.maxInstancesPerRunner ?? DEFAULT_MAX_INSTANCES_PER_RUNNER;
    this.logger = options.logger;
    this.egressPolicy = options.egressPolicy ?? (() => ({ allowedCidrs: [], protectedEndpoints: [] }));
    this.networkNamespace = options.networkNamespace;
    this.memoryBudgetMb = options.memoryBudgetMb;
    if (this.memoryBudgetMb !== undefined) {
      this.measuring = setInterval(() => void this.measure(), MEASURE_EVERY_MS);
      this.measuring.unref();
    }
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
    const key =
      invocation.instance === undefined
        ? spec.componentId
        : this.place(spec.componentId, invocation.instance);
    const slot = this.touch(key);
    slot.limit = Math.max(1, spec.concurrency ?? 1);
    return this.enqueue(slot, 1, () => this.invokeInSlot(slot, spec, invocation));
  }

  /**
   * The slot key a module instance runs under: where it ran before, else the first of `asked`,
   * `asked#2`, … that holds fewer than maxInstancesPerRunner instances.
   */
  private place(asked: string, instance: string): string {
    const placed = this.placements.get(instance);
    if (placed?.asked === asked) return placed.key;
    if (placed) this.unplace(instance);
    for (let n = 1; ; n++) {
      const key = n === 1 ? asked : `${asked}#${n}`;
      const count = this.placedCounts.get(key) ?? 0;
      if (count < this.maxInstancesPerRunner) {
        this.placements.set(instance, { asked, key });
        this.placedCounts.set(key, count + 1);
        return key;
      }
    }
  }

  private unplace(instance: string): void {
    const placed = this.placements.get(instance);
    if (!placed) return;
    this.placements.delete(instance);
    const left = (this.placedCounts.get(placed.key) ?? 1) - 1;
    if (left > 0) this.placedCounts.set(placed.key, left);
    else this.placedCounts.delete(placed.key);
  }

  /** Stops the component's runner once the invocations already queued for it have run. */
  async evict(componentId: string): Promise<void> {
    const slot = this.slots.get(componentId);
    if (!slot) return;
    await this.enqueue(slot, slot.limit, async () => {
      const runner = slot.runner;
      slot.runner = undefined;
      await runner?.stop("the runner was evicted");
    });
  }

  forgetInstance(instance: string): void {
    const placed = this.placements.get(instance);
    if (!placed) return;
    this.unplace(instance);
    const slot = this.slots.get(placed.key);
    const runner = slot?.runner;
    if (!slot || !runner?.usable) return;
    runner.forget(instance);
    if (runner.forgotten >= MAX_FORGOTTEN_INSTANCES && slot.pending === 0) this.retire(slot);
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.measuring);
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
    const runner = await this.runnerFor(slot, spec);
    if (!(runner instanceof RunnerProcess)) return failedResult(runner);
    return runner.invoke(invocation);
  }

  /** The slot's runner for `spec`, started (or replaced) if needed; one start at a time per slot. */
  private async runnerFor(
    slot: ComponentSlot,
    spec: RunnerSpec,
  ): Promise<RunnerProcess | { reason: "crash" | "load_error"; message: string }> {
    const heapMb = spec.heapMb ?? DEFAULT_HEAP_MB;
    while (slot.starting) await slot.starting;
    if (this.closed) return { reason: "crash", message: "the sandbox is closed" };
    const current = slot.runner;
    if (current?.usable && current.bundleHash === spec.bundleHash && current.heapMb === heapMb)
      return current;
    const started = this.startRunner(slot, spec, current);
    slot.starting = started.then(
      () => {},
      () => {},
    );
    try {
      return await started;
    } finally {
      slot.starting = undefined;
    }
  }

  private async startRunner(
    slot: ComponentSlot,
    spec: RunnerSpec,
    replaced: RunnerProcess | undefined,
  ): Promise<RunnerProcess | { reason: "crash" | "load_error"; message: string }> {
    if (replaced) {
      slot.runner = undefined;
      await replaced.stop("the runner was replaced");
    }
    this.makeRoom(slot);
    let runner: RunnerProcess;
    try {
      runner = await this.spawn(spec);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { reason: "load_error", message: `the runner could not be started: ${message}` };
    }
    if (this.closed) {
      void runner.stop();
      return { reason: "crash", message: "the sandbox is closed" };
    }
    slot.runner = runner;
    runner.onExit = () => {
      if (slot.runner === runner) slot.runner = undefined;
      this.forgetIfUnused(slot);
    };
    return runner;
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
    else
      slot = {
        componentId,
        runner: undefined,
        starting: undefined,
        pending: 0,
        limit: 1,
        running: 0,
        waiting: [],
      };
    this.slots.set(componentId, slot);
    return slot;
  }

  /**
   * Runs `task` once the slot has room for its weight (1 for an invocation, the slot's limit to
   * run alone), after the tasks queued before it. `task` must not reject.
   */
  private async enqueue<T>(slot: ComponentSlot, weight: number, task: () => Promise<T>): Promise<T> {
    slot.pending++;
    try {
      await new Promise<void>((start) => {
        slot.waiting.push({ weight, start });
        this.startWaiting(slot);
      });
      try {
        return await task();
      } finally {
        slot.running -= weight;
        this.startWaiting(slot);
      }
    } finally {
      slot.pending--;
      this.trim();
      this.retireIfWorn(slot);
      this.forgetIfUnused(slot);
    }
  }

  /** Starts the slot's waiting tasks, in order, while they fit. */
  private startWaiting(slot: ComponentSlot): void {
    for (;;) {
      const next = slot.waiting[0];
      if (!next || (slot.running > 0 && slot.running + next.weight > slot.limit)) return;
      slot.waiting.shift();
      slot.running += next.weight;
      next.start();
    }
  }

  /** A shared runner that dropped many module instances is replaced once it is idle. */
  private retireIfWorn(slot: ComponentSlot): void {
    if (slot.pending === 0 && (slot.runner?.forgotten ?? 0) >= MAX_FORGOTTEN_INSTANCES) this.retire(slot);
  }

  /**
   * Before starting a runner for `starting`: stops least recently used idle runners until one
   * more fits under the bound on runners and under the memory budget.
   */
  private makeRoom(starting: ComponentSlot): void {
    let { live, pssMb } = this.usage();
    const next = live > 0 ? pssMb / live : ASSUMED_RUNNER_PSS_MB;
    for (const slot of this.slots.values()) {
      if (live < this.maxRunners && !this.overBudget(pssMb + next)) return;
      if (slot === starting || slot.pending > 0 || !slot.runner) continue;
      pssMb -= this.pssOf(slot.runner);
      this.retire(slot);
      live--;
    }
  }

  /** After a burst took the pool over its bound, or its runners grew past the budget: back under. */
  private trim(): void {
    let { live, pssMb } = this.usage();
    for (const slot of this.slots.values()) {
      if (live <= this.maxRunners && !this.overBudget(pssMb)) return;
      if (slot.pending > 0 || !slot.runner) continue;
      pssMb -= this.pssOf(slot.runner);
      this.retire(slot);
      live--;
    }
  }

  private overBudget(pssMb: number): boolean {
    return this.memoryBudgetMb !== undefined && pssMb > this.memoryBudgetMb;
  }

  /** A runner's last measured PSS, or what an idle runner is assumed to take before its first measurement. */
  private pssOf(runner: RunnerProcess): number {
    return this.measured.get(runner)?.mb ?? ASSUMED_RUNNER_PSS_MB;
  }

  /** Warm runners, and their PSS in MB together. */
  private usage(): { live: number; pssMb: number } {
    let live = 0;
    let pssMb = 0;
    for (const slot of this.slots.values()) {
      if (!slot.runner) continue;
      live++;
      pssMb += this.pssOf(slot.runner);
    }
    return { live, pssMb };
  }

  /**
   * Measures the PSS of the runners measured longest ago (at most MEASURED_PER_ROUND a round, so a
   * pool of thousands costs a bounded read of /proc), then trims the pool to its budget.
   */
  private async measure(): Promise<void> {
    const runners: RunnerProcess[] = [];
    for (const slot of this.slots.values()) if (slot.runner) runners.push(slot.runner);
    const lastMeasured = (runner: RunnerProcess) => this.measured.get(runner)?.at ?? 0;
    runners.sort((a, b) => lastMeasured(a) - lastMeasured(b));
    for (const runner of runners.slice(0, MEASURED_PER_ROUND)) {
      const mb = runner.pid === undefined ? undefined : await proportionalMb(runner.pid);
      if (mb !== undefined) this.measured.set(runner, { mb, at: Date.now() });
    }
    if (!this.closed) this.trim();
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
}

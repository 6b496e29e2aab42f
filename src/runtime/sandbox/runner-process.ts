/**
 * One runner child process, seen from the server: its spawn, its start-up, its invocations under
 * their time-outs, and what its death means for those in flight (ARCHITECTURE.md). Nothing a
 * child does makes this throw; the pool replaces a runner that is no longer `usable`.
 */
import { type ChildProcess, fork } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { performance } from "node:perf_hooks";
import type { ComponentDefinition } from "../component-definition.js";
import type { Artifact } from "./artifacts.js";
import type { TunnelAnswer, TunnelRequest } from "./egress/egress-tunnel.js";
import type { NamespaceLauncher } from "./egress/network-namespace.js";
import {
  type Failure,
  failedResult,
  formatDuration,
  InvocationCollector,
  notStartedResult,
  type Outcome,
  type SandboxLogger,
} from "./invocation-collector.js";
import { InvokeOutbox } from "./invoke-outbox.js";
import { memoryLimitMb, watchMemory } from "./memory-watch.js";
import { permissionFlag, quietWarningFlags } from "./node-capabilities.js";
import type {
  DataStoreCallMessage,
  DoneMessage,
  EgressOpenMessage,
  InvokeMessage,
  ParentMessage,
  RunnerMessage,
} from "./protocol.js";
import { parseRunnerMessage } from "./protocol-parse.js";
import { classifyDeath } from "./runner-death.js";
import type { RunnerEntry } from "./runner-entry.js";
import { ComponentLoadError, type Invocation, type InvocationResult } from "./sandbox.js";
import { describeError, type SerializedError, serializeError } from "./serialized-error.js";

export interface RunnerProcessOptions {
  readonly componentId: string;
  readonly bundleHash: string;
  readonly artifact: Artifact;
  readonly entry: RunnerEntry;
  /** Where the runner's own writable directory is created. */
  readonly tmpRoot: string;
  readonly heapMb: number;
  /** The network policy of the component's code (egress/egress-policy.ts), as JSON. */
  readonly egressPolicy: string;
  /**
   * The network-namespace mode: how to start the runner in a namespace of its own, and how to open
   * the connections it asks for (in its directory, `dir`).
   */
  readonly namespace?: {
    readonly launcher: NamespaceLauncher;
    readonly openTunnel: (request: TunnelRequest, dir: string, id: number) => Promise<TunnelAnswer>;
  };
  readonly logger?: SandboxLogger;
}

type StartOutcome =
  | { readonly ok: true }
  | { readonly ok: false; readonly failure: Failure; readonly loadCode?: "load_error" | "not_a_component" };

interface InFlight {
  readonly instance: string | undefined;
  readonly collector: InvocationCollector;
  readonly timeoutMs: number;
  /** Set when it starts: when it is the first of its instance's in flight (see `queues`). */
  started: { readonly at: number; readonly timer: NodeJS.Timeout } | undefined;
  readonly resolve: (result: InvocationResult) => void;
  readonly onDataStore: Invocation["onDataStore"];
}

interface PendingDescribe {
  resolve(definition: ComponentDefinition): void;
  reject(error: ComponentLoadError): void;
}

/** How much of the child's stderr is kept: enough for V8's out-of-memory report. */
const STDERR_TAIL_CHARS = 16 * 1024;

export class RunnerProcess {
  readonly componentId: string;
  readonly bundleHash: string;
  readonly heapMb: number;
  /** Resolves when the process is gone and its directory removed. */
  readonly closed: Promise<void>;
  /** Called once when the process has exited, whatever the reason. */
  onExit: ((runner: RunnerProcess) => void) | undefined;

  private readonly child: ChildProcess;
  private readonly logger: SandboxLogger | undefined;
  private state: "starting" | "ready" | "stopping" | "exited" = "starting";
  private startOutcome: StartOutcome | undefined;
  private readonly startWaiters: ((outcome: StartOutcome) => void)[] = [];
  private readonly inFlight = new Map<number, InFlight>();
  /**
   * The ids in flight of each module instance ("" for the unnamed one), in the order they were
   * sent. The runner runs an instance's invocations one after another in that order: the first
   * has started, the others wait for it.
   */
  private readonly queues = new Map<string, number[]>();
  /**
   * The module instances whose key-value state the runner holds: an invocation came with it, and
   * the runner carries it from run to run, so the next may come without it.
   */
  private readonly heldState = new Set<string>();
  private pendingDescribe: PendingDescribe | undefined;
  /** Each module instance's last props ("" for the unnamed one): unchanged props are not sent again. */
  private readonly lastProps = new Map<string, Invocation["props"]>();
  /** Module instances dropped (forget) since the runner started: their modules stay in memory. */
  forgotten = 0;
  private nextId = 1;
  /** Set when the parent stops the runner: the failure of an invocation caught in it. */
  private stopReason: string | undefined;
  /** The code the component passed to process.exit, as the runner reported it. */
  private exitCalled: number | undefined;
  /** The invocation that called process.exit, when the runner could tell. */
  private exitCalledBy: number | undefined;
  private stderrTail = "";
  /** Stops sampling the process's memory; set while it loads or runs an invocation. */
  private unwatchMemory: (() => void) | undefined;
  private markClosed: () => void = () => {};
  private readonly namespace: RunnerProcessOptions["namespace"];
  private tunnelsOpened = 0;
  /** Set once a malformed message from the runner was logged. */
  private malformedSeen = false;
  /** Invokes on their way, written together at the end of the event loop's turn. */
  private readonly outbox = new InvokeOutbox({
    send: (message) => this.send(message),
    unsendable: (message, reason) => {
      if (message.db !== undefined) this.heldState.delete(message.instance ?? "");
      this.settle(message.id, {
        ok: false,
        failure: { reason: "crash", message: `the invocation cannot be sent: ${reason}` },
      });
    },
    stateLost: (message) => this.settle(message.id, "not_started"),
  });

  private constructor(
    options: RunnerProcessOptions,
    private readonly tmpDir: string,
  ) {
    this.componentId = options.componentId;
    this.bundleHash = options.bundleHash;
    this.heapMb = options.heapMb;
    this.logger = options.logger;
    this.closed = new Promise((resolve) => {
      this.markClosed = resolve;
    });
    this.namespace = options.namespace;
    this.child = fork(options.entry.file, [options.artifact.file, options.egressPolicy], {
      execPath: options.namespace?.launcher.execPath ?? process.execPath,
      execArgv: [
        ...(options.namespace?.launcher.execArgvPrefix ?? []),
        permissionFlag(),
        `--allow-fs-read=${options.artifact.dir}`,
        ...options.artifact.packageDirs.map((dir) => `--allow-fs-read=${dir}`),
        `--allow-fs-read=${options.entry.dir}`,
        `--allow-fs-read=${tmpDir}`,
        `--allow-fs-write=${tmpDir}`,
        `--max-old-space-size=${options.heapMb}`,
        ...quietWarningFlags(),
      ],
      env: { PD_COMPONENT: options.componentId },
      cwd: tmpDir,
      // Its own process group: a terminal's Ctrl-C reaches the server, which stops runners itself.
      detached: true,
      stdio: ["ignore", "ignore", "pipe", "ipc"],
      serialization: "json",
    });
    this.child.stderr?.setEncoding("utf8");
    this.child.stderr?.on("data", (chunk: string) => {
      this.stderrTail = (this.stderrTail + chunk).slice(-STDERR_TAIL_CHARS);
    });
    this.watchMemory();
    this.child.on("message", (message: unknown) => this.onMessage(message));
    this.child.on("close", (code, signal) => this.onClose(code, signal));
    this.child.on("error", (error) => {
      // A spawn failure (no pid) is reported here first, with its cause; the 'close' after it is a no-op.
      if (this.child.pid === undefined) this.onClose(null, null, error.message);
      else this.logger?.warn({ componentId: this.componentId, err: error }, "sandbox: runner process error");
    });
  }

  /** Spawns a runner; it loads the bundle in the background (see `invoke` and `describe`). */
  static async start(options: RunnerProcessOptions): Promise<RunnerProcess> {
    await fs.promises.mkdir(options.tmpRoot, { recursive: true });
    const tmpDir = await fs.promises.mkdtemp(path.join(options.tmpRoot, "runner-"));
    return new RunnerProcess(options, tmpDir);
  }

  get pid(): number | undefined {
    return this.child.pid;
  }

  /** False once the runner has failed, been stopped or exited: the pool replaces it. */
  get usable(): boolean {
    return this.state === "starting" || this.state === "ready";
  }

  /**
   * Runs one invocation. Never rejects. The caller sends one at a time, or several at once when
   * each names its module instance. An instance's invocations run one after another, in the
   * order they were sent (the next may be sent before the previous one ends); one that comes
   * without its state (`db`) runs on what the previous one left, or resolves `notStarted` when
   * the runner does not hold it.
   */
  async invoke(invocation: Invocation): Promise<InvocationResult> {
    const start = await this.waitForStart(invocation.timeoutMs);
    if (!start.ok) return failedResult(start.failure);
    const { instance } = invocation;
    const key = instance ?? "";
    if (invocation.db === undefined && !(this.usable && this.heldState.has(key))) {
      return notStartedResult("the runner does not hold the state of the module instance");
    }
    if (!this.usable) return failedResult(this.gone());
    const id = this.nextId++;
    const collector = new InvocationCollector(
      id,
      invocation.onRespond,
      this.logger,
      instance ?? this.componentId,
    );
    const props = invocation.props === this.lastProps.get(key) ? undefined : invocation.props;
    this.lastProps.set(key, invocation.props);
    const message: InvokeMessage = {
      t: "invoke",
      id,
      method: invocation.method,
      event: invocation.event,
      ...(invocation.db === undefined ? {} : { db: invocation.db }),
      ...(instance === undefined ? {} : { instance }),
      ...(props === undefined ? {} : { props }),
      ...(invocation.steps === undefined ? {} : { steps: invocation.steps }),
      ...(invocation.context === undefined ? {} : { context: invocation.context }),
      ...(invocation.flowUrls === undefined ? {} : { flow: invocation.flowUrls }),
    };
    return new Promise((resolve) => {
      this.inFlight.set(id, {
        instance,
        collector,
        timeoutMs: invocation.timeoutMs,
        started: undefined,
        resolve,
        onDataStore: invocation.onDataStore,
      });
      const queue = this.queues.get(key);
      if (queue) queue.push(id);
      else {
        this.queues.set(key, [id]);
        this.begin(id);
      }
      this.watchMemory();
      this.outbox.invoke(message);
      if (invocation.db !== undefined) this.heldState.add(key);
      invocation.onSent?.();
    });
  }

  /** The invocation starts in the runner: its time limit runs from now. */
  private begin(id: number): void {
    const inFlight = this.inFlight.get(id);
    if (!inFlight || inFlight.started) return;
    const { instance, timeoutMs } = inFlight;
    const timer = setTimeout(() => {
      const timedOut = `timed out after ${formatDuration(timeoutMs)}`;
      // Code may still be running in the process: it goes, with whatever else was in flight.
      void this.stop(this.broughtDownBy(instance, timedOut));
      this.settle(id, { ok: false, failure: { reason: "timeout", message: timedOut } });
    }, timeoutMs);
    inFlight.started = { at: performance.now(), timer };
  }

  /** Drops a module instance in the runner: its next invocation imports it afresh. */
  forget(instance: string): void {
    this.lastProps.delete(instance);
    this.heldState.delete(instance);
    this.forgotten++;
    this.post({ t: "forget", instance });
  }

  /** Invocations in flight. */
  get busy(): number {
    return this.inFlight.size;
  }

  /** What the other invocations in flight are told when one brings the runner down. */
  private broughtDownBy(instance: string | undefined, what: string): string {
    const who = instance === undefined ? "another invocation" : `an invocation of ${instance}`;
    return `the runner was restarted: ${who}, which shared it, ${what}`;
  }

  /** Describes the loaded component; throws ComponentLoadError when it cannot be loaded. */
  async describe(timeoutMs: number): Promise<ComponentDefinition> {
    const start = await this.waitForStart(timeoutMs);
    if (!start.ok) throw new ComponentLoadError(start.loadCode ?? "load_error", start.failure.message);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pendingDescribe = undefined;
        reject(
          new ComponentLoadError(
            "load_error",
            `describing the component timed out after ${formatDuration(timeoutMs)}`,
          ),
        );
        void this.stop();
      }, timeoutMs);
      this.pendingDescribe = {
        resolve: (definition) => {
          clearTimeout(timer);
          resolve(definition);
        },
        reject: (error) => {
          clearTimeout(timer);
          reject(error);
        },
      };
      this.post({ t: "describe" });
    });
  }

  /** Kills the process (SIGKILL); resolves once it is gone. An invocation in flight fails with `reason`. */
  stop(reason = "the runner was stopped"): Promise<void> {
    if (this.usable) {
      this.state = "stopping";
      this.stopReason = reason;
      this.child.kill("SIGKILL");
    }
    return this.closed;
  }

  /** Samples the process's resident memory until the load or the invocations in progress end. */
  private watchMemory(): void {
    const pid = this.child.pid;
    if (this.unwatchMemory || pid === undefined) return;
    const limitMb = memoryLimitMb(this.heapMb);
    this.unwatchMemory = watchMemory(pid, limitMb, (residentMb) => {
      this.unwatchMemory = undefined;
      const shared =
        this.inFlight.size > 1
          ? ` (${this.inFlight.size} invocations shared the runner; the memory is the process's, so any of them may have used it)`
          : "";
      const failure: Failure = {
        reason: "out_of_memory",
        message: `the component used ${Math.round(residentMb)} MB of memory, over its limit of ${limitMb} MB (heap limit ${this.heapMb} MB)${shared}`,
      };
      this.settleAll({ ok: false, failure });
      this.settleStart({ ok: false, failure, loadCode: "load_error" });
      void this.stop(failure.message);
    });
  }

  private unwatch(): void {
    this.unwatchMemory?.();
    this.unwatchMemory = undefined;
  }

  /** Sends a message other than an invoke, after the invokes queued before it. */
  private post(message: ParentMessage): void {
    this.outbox.flush();
    this.send(message);
  }

  /** Writes to the channel; throws only when `message` cannot be serialized (a caller's bug). */
  private send(message: ParentMessage): void {
    // Stopped or gone: its 'close' settles (or has settled) whatever was in flight.
    if (!this.usable || !this.child.connected) return;
    this.child.send(message, (error) => {
      // The child is gone or going: its 'close' settles whatever was in flight.
      if (error)
        this.logger?.warn({ componentId: this.componentId, err: error }, "sandbox: send to runner failed");
    });
  }

  /** The start-up's outcome; a load that takes longer than `timeoutMs` fails it (and stops the runner). */
  private waitForStart(timeoutMs: number): Promise<StartOutcome> {
    if (this.startOutcome) return Promise.resolve(this.startOutcome);
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        const message = `the component did not load within ${formatDuration(timeoutMs)}`;
        this.settleStart({ ok: false, failure: { reason: "timeout", message }, loadCode: "load_error" });
      }, timeoutMs);
      this.startWaiters.push((outcome) => {
        clearTimeout(timer);
        resolve(outcome);
      });
    });
  }

  private settleStart(outcome: StartOutcome): void {
    if (this.startOutcome) return;
    this.startOutcome = outcome;
    if (outcome.ok && this.state === "starting") this.state = "ready";
    if (this.inFlight.size === 0) this.unwatch();
    for (const waiter of this.startWaiters.splice(0)) waiter(outcome);
    if (!outcome.ok) void this.stop();
  }

  /** Ends the invocation with `outcome`, or as not started; the next of its instance starts. */
  private settle(id: number, outcome: Outcome | "not_started"): void {
    const inFlight = this.inFlight.get(id);
    if (!inFlight) return;
    this.inFlight.delete(id);
    const key = inFlight.instance ?? "";
    const queue = this.queues.get(key) ?? [];
    const at = queue.indexOf(id);
    if (at >= 0) queue.splice(at, 1);
    if (queue.length === 0) this.queues.delete(key);
    else if (at === 0 && this.usable) this.begin(queue[0] as number);
    if (this.inFlight.size === 0) this.unwatch();
    const { started } = inFlight;
    if (started) clearTimeout(started.timer);
    if (outcome === "not_started") {
      inFlight.resolve(notStartedResult(this.stopReason ?? "the runner went down before it started"));
      return;
    }
    const durationMs = started ? performance.now() - started.at : 0;
    inFlight.resolve(inFlight.collector.result(outcome, durationMs));
  }

  /**
   * The runner is going down: every invocation in flight ends with `outcome`, or `of(id)`'s,
   * but those still waiting behind another of their instance, which end as not started.
   */
  private settleAll(outcome: Outcome | ((id: number) => Outcome)): void {
    for (const [id, inFlight] of [...this.inFlight]) {
      if (!inFlight.started) this.settle(id, "not_started");
    }
    for (const id of [...this.inFlight.keys()]) {
      this.settle(id, typeof outcome === "function" ? outcome(id) : outcome);
    }
  }

  /** Namespace mode: opens the connection the runner asked for, and answers it. */
  private openTunnel({ rid, host, port }: EgressOpenMessage): void {
    if (this.namespace === undefined) return;
    void this.namespace.openTunnel({ host, port }, this.tmpDir, ++this.tunnelsOpened).then((answer) => {
      this.post({ t: "egress_answer", rid, answer });
    });
  }

  private onMessage(raw: unknown): void {
    const parsed = parseRunnerMessage(raw);
    if (!parsed.ok) {
      this.onMalformed(parsed.error, parsed.t);
      return;
    }
    const message = parsed.message;
    switch (message.t) {
      case "egress_open":
        this.openTunnel(message);
        break;
      case "ready":
        this.settleStart({ ok: true });
        break;
      case "load_error":
        this.settleStart({
          ok: false,
          loadCode: message.code,
          failure: failureOf("load_error", message.error),
        });
        break;
      case "exit":
        this.exitCalled = message.code;
        if (message.id !== undefined) this.exitCalledBy = message.id;
        break;
      case "definition":
        this.endDescribe(message.definition);
        break;
      case "describe_error":
        this.endDescribe(new ComponentLoadError(message.code, describeError(message.error)));
        break;
      default:
        this.onEffect(message);
    }
  }

  /** An effect or the end of an invocation; dropped when that invocation already ended (timed out, or stray async work). */
  private onEffect(message: Extract<RunnerMessage, { id: number }>): void {
    const current = this.inFlight.get(message.id)?.collector;
    if (current === undefined) return;
    switch (message.t) {
      case "emit":
        current.emit(message.event, message.meta);
        break;
      case "log":
        current.log(message.line);
        break;
      case "set":
        current.set(message.key, message.value);
        break;
      case "respond":
        current.respond(message);
        break;
      case "export":
        current.export(message.name, message.value);
        break;
      case "flow_exit":
        current.flowExit(message.reason);
        break;
      case "flow_wait":
        current.flowWait(message);
        break;
      case "send":
        current.send(message.kind, message.params);
        break;
      case "data_store":
        this.onDataStoreCall(message);
        break;
      case "done":
        this.onDone(message);
        break;
    }
  }

  /**
   * A message that does not fit the protocol (code in the runner may call process.send itself):
   * dropped, and said once per runner. A malformed definition fails the describe waiting for it.
   */
  private onMalformed(error: string, t: RunnerMessage["t"] | undefined): void {
    if (t === "definition")
      this.endDescribe(new ComponentLoadError("load_error", "the runner sent a malformed definition"));
    if (this.malformedSeen) return;
    this.malformedSeen = true;
    this.logger?.warn(
      { componentId: this.componentId, pid: this.child.pid, error },
      "sandbox: dropped a malformed message from a runner (further ones are dropped silently)",
    );
  }

  /** Performs a data store call of an invocation in flight and answers the runner. */
  private onDataStoreCall({ id, call, storeId, op, args }: DataStoreCallMessage): void {
    const handler = this.inFlight.get(id)?.onDataStore;
    const answer = handler
      ? handler(storeId, op, { ...args })
      : Promise.reject(new Error("this invocation has no data store"));
    answer.then(
      (value) =>
        this.post({
          t: "data_store_result",
          call,
          ok: true,
          ...(value === undefined ? {} : { value: JSON.stringify(value) }),
        }),
      (error: unknown) => {
        // The server's stack stays in the server.
        const { stack: _, ...withoutStack } = serializeError(error);
        this.post({ t: "data_store_result", call, ok: false, error: withoutStack });
      },
    );
  }

  private onDone(message: DoneMessage): void {
    const { id } = message;
    if (message.ok) {
      const { returnValue } = message;
      this.settle(id, returnValue === undefined ? { ok: true } : { ok: true, returnValue });
      return;
    }
    const instance = this.inFlight.get(id)?.instance;
    // An uncaught exception left the runner in an unknown state: the next of the instance does not start.
    if (message.retire === true) void this.stop(this.broughtDownBy(instance, "threw an uncaught exception"));
    this.settle(id, { ok: false, failure: failureOf("error", message.error) });
  }

  /** Ends the describe waiting, if any: with the definition, or failed. */
  private endDescribe(outcome: ComponentDefinition | ComponentLoadError): void {
    const pending = this.pendingDescribe;
    if (!pending) return;
    this.pendingDescribe = undefined;
    if (outcome instanceof ComponentLoadError) pending.reject(outcome);
    else pending.resolve(outcome);
  }

  private onClose(code: number | null, signal: NodeJS.Signals | null, spawnError?: string): void {
    if (this.state === "exited") return;
    const stoppedByUs = this.state === "stopping";
    this.state = "exited";
    this.unwatch();
    const failure = classifyDeath({
      code,
      signal,
      heapMb: this.heapMb,
      stderrTail: this.stderrTail,
      ...(spawnError === undefined ? {} : { spawnError }),
      ...(this.exitCalled === undefined ? {} : { exitCalled: this.exitCalled }),
      ...(this.stopReason === undefined ? {} : { stopReason: this.stopReason }),
    });
    if (!stoppedByUs) {
      this.logger?.warn(
        { componentId: this.componentId, pid: this.child.pid, code, signal, reason: failure.reason },
        `sandbox: runner exited: ${failure.message}`,
      );
    }
    this.settleStart({ ok: false, failure, loadCode: "load_error" });
    // Whoever called process.exit gets that; the others in flight are told who it was.
    const exiter = this.exitCalledBy === undefined ? undefined : this.inFlight.get(this.exitCalledBy);
    this.settleAll((id) =>
      exiter === undefined || id === this.exitCalledBy
        ? { ok: false, failure }
        : {
            ok: false,
            failure: {
              reason: "crash",
              message: this.broughtDownBy(exiter.instance, `called process.exit(${this.exitCalled})`),
            },
          },
    );
    this.endDescribe(
      new ComponentLoadError("load_error", `the component could not be loaded: ${failure.message}`),
    );
    fs.promises
      .rm(this.tmpDir, { recursive: true, force: true })
      .catch(() => {})
      .finally(() => {
        this.markClosed();
        this.onExit?.(this);
      });
  }

  private gone(): Failure {
    return { reason: "crash", message: this.stopReason ?? "the runner process is gone" };
  }
}

/** The failure an error the runner reported stands for. */
function failureOf(reason: Failure["reason"], error: SerializedError): Failure {
  return {
    reason,
    message: describeError(error),
    ...(error.stack === undefined ? {} : { stack: error.stack }),
  };
}

/**
 * The entry of a runner, forked by runner-process.ts: imports the bundle, runs the parent's
 * invocations (in module instances of their own when they name one) and sends their effects as
 * they happen. It owns the process-wide hooks a component could escape through: the console,
 * process.exit, uncaught errors, signals and `process.env`. Only Sluice's own modules and Node
 * built-ins may be imported here: it is bundled into dist/runner/runner.cjs (ARCHITECTURE.md).
 */
import { AsyncLocalStorage } from "node:async_hooks";
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";
import { type ActionEffects, createActionContext } from "../api/action-context.js";
import { createComponentThis, type InvocationEffects } from "../api/component-instance.js";
import {
  asComponentObject,
  type ComponentObject,
  isRecord,
  NotAComponentError,
  type UnknownRecord,
} from "../api/component-object.js";
import { clipLogMessage, createCapturedConsole, type LogSink } from "../api/console-capture.js";
import { describeComponent } from "../api/describe-component.js";
import { type OptionsRequest, runAdditionalProps, runOptions } from "../api/dynamic-props.js";
import { toJson } from "../api/json-value.js";
import { installEgressGuard } from "./egress/egress-guard.js";
import { createEgressPolicy, type EgressPolicySpec } from "./egress/egress-policy.js";
import type { TunnelAnswer, TunnelRequest } from "./egress/egress-tunnel.js";
import { explainNativeAddonError, refuseNativeAddons } from "./native-addons.js";
import type { DataStoreResultMessage, DoneMessage, InvokeMessage, RunnerMessage } from "./protocol.js";
import { parseParentMessage } from "./protocol-parse.js";
import type { PropValue } from "./sandbox.js";
import { describeError, deserializeError, type SerializedError, serializeError } from "./serialized-error.js";

/** Thrown out of process.exit() so that no component code runs after it while the exit is sent. */
class ProcessExitRequested extends Error {}

const realExit = process.exit.bind(process);
const ipcSend = process.send?.bind(process);
/** Set once process.exit was called: nothing more is sent, the process is on its way out. */
let exiting = false;
/** The invocations running, by id, with the `db.set`s each made (as JSON). */
const running = new Map<
  number,
  { readonly instance: string | undefined; readonly writes: Map<string, string> }
>();
/**
 * The invocation whose asynchronous context the code runs in, once the runner holds more than one
 * module instance. Until then invocations run one at a time and need no context (which costs
 * every promise a little on Node 20): the one in flight is `unscoped`.
 */
const invocationScope = new AsyncLocalStorage<number>();
let unscoped: number | undefined;

/**
 * The invocation that code running now belongs to: its asynchronous context's, or, outside any
 * (a callback a library registered at import time), the one running without a context, or the
 * only one in flight.
 */
function currentInvocation(): number | undefined {
  const scoped = invocationScope.getStore();
  if (scoped !== undefined) return running.has(scoped) ? scoped : undefined;
  if (unscoped !== undefined && running.has(unscoped)) return unscoped;
  if (running.size === 1) return running.keys().next().value;
  return undefined;
}

/**
 * One module instance of the component, with what its last invocation left: its props and its
 * key-value state. Its invocations run one after another, in the order they came.
 */
interface Instance {
  readonly component: Promise<ComponentObject>;
  /** The props of the instance's last invocation (the parent omits them when unchanged). */
  props: Readonly<Record<string, PropValue>>;
  /**
   * The key-value state as the last invocation left it: its input and its `db.set`s. The parent
   * leaves an invocation's state out when the runner holds it; undefined until one brings it.
   */
  db: Record<string, unknown> | undefined;
  /** Invocations that came while another of the instance ran, in order. */
  readonly waiting: InvokeMessage[];
  busy: boolean;
}

/** Sends to the parent; false when that is impossible (no channel, or exiting). */
function send(message: RunnerMessage, sent?: (error: Error | null) => void): boolean {
  if (exiting || ipcSend === undefined || !process.connected) return false;
  ipcSend(message, undefined, undefined, sent);
  return true;
}

const log: LogSink = (level, message) => {
  const id = currentInvocation();
  if (id === undefined) return;
  send({ t: "log", id, line: { ts: Date.now(), level, message: clipLogMessage(message) } });
};

function installProcessHooks(): void {
  globalThis.console = createCapturedConsole(log);
  // Direct writes (libraries that bypass console) become log lines too. V8's fatal errors are
  // written by C++ to fd 2 and still reach the parent, which reads them to detect OOM.
  for (const [stream, level] of [
    [process.stdout, "log"],
    [process.stderr, "error"],
  ] as const) {
    stream.write = ((chunk: unknown, ...rest: unknown[]) => {
      const text =
        typeof chunk === "string"
          ? chunk
          : chunk instanceof Uint8Array
            ? Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength).toString("utf8")
            : String(chunk);
      log(level, text.replace(/\n$/, ""));
      const callback = rest.find((arg) => typeof arg === "function") as (() => void) | undefined;
      if (callback) process.nextTick(callback);
      return true;
    }) as typeof stream.write;
  }

  process.exit = ((code?: number | string | null) => {
    const exitCode = exitCodeOf(code ?? process.exitCode);
    if (!exiting) {
      const id = currentInvocation();
      const message: RunnerMessage = { t: "exit", code: exitCode, ...(id === undefined ? {} : { id }) };
      // Exit once the report is written (a congested channel would otherwise lose it).
      const queued = send(message, () => realExit(exitCode));
      exiting = true;
      if (!queued) realExit(exitCode);
      setTimeout(() => realExit(exitCode), 1000).unref();
    }
    throw new ProcessExitRequested(`process.exit(${exitCode}) was called`);
  }) as typeof process.exit;

  process.on("uncaughtException", (error) => {
    if (exiting || error instanceof ProcessExitRequested) return;
    // Between invocations nobody can be told; the parent sees the exit and drops this runner.
    if (running.size === 0) return realExit(70);
    const id = currentInvocation();
    // Several in flight and no telling whose it was: all of them fail, and the runner retires.
    const charged = id === undefined ? [...running.keys()] : [id];
    for (const each of charged)
      finish({ t: "done", id: each, ok: false, error: errorOf(error), retire: true });
  });
  process.on("unhandledRejection", (reason) => {
    if (reason instanceof ProcessExitRequested) return;
    log(
      "error",
      `Unhandled promise rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : inspect(reason)}`,
    );
  });
  process.on("disconnect", () => realExit(0));
  scopeEnvironment();
  confineSignals();
  refuseNativeAddons();
}

/**
 * `process.env` is the runner's environment (PD_COMPONENT, set at spawn) seen through the
 * invocation running: one in a module instance of its own sees that instance's id (its source's)
 * as PD_COMPONENT, whichever source's runner this is.
 */
function scopeEnvironment(): void {
  const environment: Record<string, string | undefined> = { ...process.env };
  const scoped = (key: string | symbol) => {
    if (key !== "PD_COMPONENT") return undefined;
    const id = currentInvocation();
    return id === undefined ? undefined : running.get(id)?.instance;
  };
  const view = new Proxy(environment, {
    get: (target, key) => scoped(key) ?? Reflect.get(target, key),
    getOwnPropertyDescriptor: (target, key) => {
      const value = scoped(key);
      const own = Reflect.getOwnPropertyDescriptor(target, key);
      return value === undefined || own === undefined ? own : { ...own, value };
    },
  });
  Object.defineProperty(process, "env", {
    value: view,
    writable: true,
    configurable: true,
    enumerable: true,
  });
}

/**
 * The permission model of Node 20 does not cover signals: without this, a component could kill
 * the server (`process.kill(process.ppid)`), its process group (pid 0) or other runners. Both
 * the public `kill` and the `_kill` binding it calls are replaced, and the pid allowed is the one
 * read at start-up.
 */
function confineSignals(): void {
  const ownPid = process.pid;
  // `_kill` is Node's undocumented binding behind process.kill: it returns a libuv errno.
  const host = process as unknown as { _kill: (pid: number, signal: number) => number };
  const rawKill = host._kill.bind(process);
  const UV_EPERM = -1;
  host._kill = (pid, signal) => (pid === ownPid ? rawKill(pid, signal) : UV_EPERM);
  const kill = process.kill.bind(process);
  process.kill = ((pid: number, signal?: string | number) => {
    if (Number(pid) !== ownPid) {
      throw Object.assign(new Error("process.kill: a component may signal only its own process"), {
        code: "ERR_ACCESS_DENIED",
      });
    }
    return kill(pid, signal);
  }) as typeof process.kill;
}

function exitCodeOf(code: unknown): number {
  const value = typeof code === "string" ? Number(code) : code;
  return typeof value === "number" && Number.isInteger(value) ? value : 0;
}

/** What the component threw, as it goes to the parent. */
function errorOf(thrown: unknown): SerializedError {
  return serializeError(explainNativeAddonError(thrown));
}

/** Sends the invocation's outcome, once; later outcomes of the same invocation are ignored. */
function finish(done: DoneMessage): void {
  if (!running.delete(done.id)) return;
  send(done);
}

async function importComponent(url: string): Promise<ComponentObject> {
  const namespace: unknown = await import(url);
  return asComponentObject(isRecord(namespace) ? namespace.default : undefined);
}

/** Imports the bundle at start: `ready`, or why it cannot run. */
async function load(file: string): Promise<ComponentObject | undefined> {
  try {
    const component = await importComponent(pathToFileURL(file).href);
    send({ t: "ready" });
    return component;
  } catch (error) {
    const code = error instanceof NotAComponentError ? "not_a_component" : "load_error";
    send({ t: "load_error", code, error: errorOf(error) });
    return undefined;
  }
}

/** The module instances by name; the unnamed one ("") is the module imported at start. */
const instances = new Map<string, Instance>();
/** The module imported at start is handed to the first named instance (no second import for it). */
let startModuleTaken = false;

/** Module instances imported so far: each gets a URL of its own. */
let moduleImports = 0;

function instanceFor(name: string | undefined, loaded: ComponentObject): Instance {
  const key = name ?? "";
  let instance = instances.get(key);
  if (instance) return instance;
  let component: Promise<ComponentObject>;
  if (key === "" || !startModuleTaken) {
    if (key !== "") startModuleTaken = true;
    component = Promise.resolve(loaded);
  } else {
    // The same file under another URL is a module instance of its own (its npm packages are
    // shared). Numbered, because a URL imported before (an instance forgotten, then wanted again)
    // would give back the same module, with the state its code left in it.
    const url = `${pathToFileURL(artifactFile ?? "").href}?instance=${encodeURIComponent(key)}&import=${++moduleImports}`;
    component = importComponent(url);
  }
  instance = { component, props: {}, db: undefined, waiting: [], busy: false };
  instances.set(key, instance);
  return instance;
}

/** Data store calls waiting for the parent's answer, by call number. */
const dataStoreCalls = new Map<
  number,
  { resolve: (value: unknown) => void; reject: (error: Error) => void }
>();
let nextDataStoreCall = 1;

function settleDataStoreCall(message: DataStoreResultMessage): void {
  const pending = dataStoreCalls.get(message.call);
  if (!pending) return;
  dataStoreCalls.delete(message.call);
  if (message.ok) pending.resolve(message.value === undefined ? undefined : JSON.parse(message.value));
  else pending.reject(deserializeError(message.error));
}

function effectsOf(id: number): InvocationEffects {
  return {
    dataStore(storeId, op, args) {
      if (!running.has(id)) return Promise.reject(new Error("the invocation has ended"));
      const call = nextDataStoreCall++;
      return new Promise((resolve, reject) => {
        dataStoreCalls.set(call, { resolve, reject });
        send({ t: "data_store", id, call, storeId, op, args });
      });
    },
    emit(event, meta) {
      if (running.has(id)) send({ t: "emit", id, meta, ...(event === undefined ? {} : { event }) });
    },
    set(key, value) {
      const invocation = running.get(id);
      if (!invocation) return;
      invocation.writes.set(key, value);
      send({ t: "set", id, key, value });
    },
    respond(response) {
      if (running.has(id)) send({ t: "respond", id, ...response });
    },
  };
}

function actionEffectsOf(id: number): ActionEffects {
  return {
    export(name, value) {
      if (running.has(id)) send({ t: "export", id, name, ...(value === undefined ? {} : { value }) });
    },
    respond(response) {
      if (running.has(id)) send({ t: "respond", id, ...response });
    },
    flowExit(reason) {
      if (running.has(id)) send({ t: "flow_exit", id, ...(reason === undefined ? {} : { reason }) });
    },
    flowWait(wait) {
      if (running.has(id)) send({ t: "flow_wait", id, ...wait });
    },
    send(kind, params) {
      if (running.has(id)) send({ t: "send", id, kind, params });
    },
  };
}

/** An action's run gets `{ steps, $ }`; a source's gets the event. */
function runArgument(component: ComponentObject, message: InvokeMessage): unknown {
  if (component.type !== "action") return message.event;
  return {
    steps: message.steps ?? {},
    $: createActionContext(actionEffectsOf(message.id), message.context ?? {}, message.flow),
  };
}

/** Runs the invocation once those of its instance that came before it have run. */
async function invoke(loaded: ComponentObject, message: InvokeMessage): Promise<void> {
  const instance = instanceFor(message.instance, loaded);
  instance.waiting.push(message);
  if (instance.busy) return;
  instance.busy = true;
  try {
    for (let next = instance.waiting.shift(); next; next = instance.waiting.shift()) {
      await runInInstance(instance, next);
    }
  } finally {
    instance.busy = false;
  }
}

async function runInInstance(instance: Instance, message: InvokeMessage): Promise<void> {
  const { id } = message;
  if (running.has(id)) return;
  if (message.props) instance.props = message.props;
  if (message.db) instance.db = { ...message.db };
  const db = instance.db;
  if (db === undefined) {
    // The parent sends the state whenever it does not know the runner holds it: a bug if reached.
    const error = serializeError("the runner does not hold this instance's key-value state");
    send({ t: "done", id, ok: false, error });
    return;
  }
  const writes = new Map<string, string>();
  running.set(id, { instance: message.instance, writes });
  const body = async () => {
    try {
      const component = await instance.component;
      const self = createComponentThis(component, { props: instance.props, db }, effectsOf(id));
      const value: unknown =
        message.method === "options"
          ? await runOptions(component, self, message.event as OptionsRequest)
          : message.method === "additionalProps"
            ? await runAdditionalProps(component, self)
            : await runMethod(component, self, message);
      finish({ t: "done", id, ok: true, ...returnValueOf(value) });
    } catch (error) {
      finish({ t: "done", id, ok: false, error: errorOf(error) });
    }
  };
  if (instances.size > 1) {
    // Everything the invocation starts, however deep, runs in its context: its effects are its own.
    await invocationScope.run(id, body);
  } else {
    unscoped = id;
    await body();
  }
  // What the next invocation of the instance starts from, as the parent's copy has it.
  for (const [key, json] of writes) db[key] = JSON.parse(json);
}

/** `run` or a lifecycle hook; a missing one is a no-op. */
async function runMethod(
  component: ComponentObject,
  self: UnknownRecord,
  message: InvokeMessage,
): Promise<unknown> {
  const method =
    message.method === "run"
      ? component.run
      : isRecord(component.hooks)
        ? component.hooks[message.method]
        : undefined;
  if (typeof method !== "function") return undefined;
  return message.method === "run" ? method.call(self, runArgument(component, message)) : method.call(self);
}

function returnValueOf(value: unknown): { returnValue?: string } {
  try {
    const json = toJson(value, "run's return value");
    return json === undefined ? {} : { returnValue: json };
  } catch (error) {
    log("warn", `${describeError(errorOf(error))}; it was dropped`);
    return {};
  }
}

function describe(component: ComponentObject): void {
  try {
    send({ t: "definition", definition: describeComponent(component) });
  } catch (error) {
    const code = error instanceof NotAComponentError ? "not_a_component" : "load_error";
    send({ t: "describe_error", code, error: errorOf(error) });
  }
}

/** Tunnel requests sent to the parent and not yet answered (namespace mode). */
const tunnels = new Map<number, (answer: TunnelAnswer) => void>();
let nextTunnel = 1;

function openTunnel(request: TunnelRequest): Promise<TunnelAnswer> {
  return new Promise((resolve) => {
    const rid = nextTunnel++;
    tunnels.set(rid, resolve);
    if (!send({ t: "egress_open", rid, host: request.host, port: request.port })) {
      tunnels.delete(rid);
      resolve({ ok: false, refused: false, code: "ECONNABORTED", message: "the runner is shutting down" });
    }
  });
}

/**
 * Installs the network guard (argv[3], the policy as JSON) before any component code runs. A runner
 * whose guard cannot be installed refuses to load the component: it fails closed.
 */
function installNetworkGuard(policyJson: string): boolean {
  try {
    const spec = JSON.parse(policyJson) as EgressPolicySpec;
    installEgressGuard({
      policy: createEgressPolicy(spec),
      onRefusal: (refusal) => log("error", refusal.message),
      ...(spec.tunnel ? { tunnel: openTunnel } : {}),
    });
    return true;
  } catch (error) {
    const why = `the sandbox's network guard could not be installed: ${describeError(errorOf(error))}`;
    send({ t: "load_error", code: "load_error", error: serializeError(why) });
    return false;
  }
}

const artifactFile = process.argv[2];
const egressPolicy = process.argv[3];
if (ipcSend === undefined || artifactFile === undefined || egressPolicy === undefined) {
  process.stderr.write(
    "usage: forked by the sandbox with an IPC channel: runner.js <artifact file> <network policy JSON>\n",
  );
  realExit(64);
} else if (installNetworkGuard(egressPolicy)) {
  installProcessHooks();
  const loaded = load(artifactFile);
  process.on("message", (raw: unknown) => {
    const message = parseParentMessage(raw);
    if (message.t === "data_store_result") {
      settleDataStoreCall(message);
      return;
    }
    if (message.t === "egress_answer") {
      tunnels.get(message.rid)?.(message.answer);
      tunnels.delete(message.rid);
      return;
    }
    // Invokes and forgets take effect in the order they came: both wait for the load, in turn.
    void loaded.then((component) => {
      if (component === undefined) return;
      // Its next invocation (if any) imports a fresh instance; one in flight finishes on the old.
      if (message.t === "forget") instances.delete(message.instance);
      else if (message.t === "invoke") void invoke(component, message);
      else if (message.t === "invoke_batch")
        for (const each of message.messages) void invoke(component, each);
      else if (message.t === "describe") describe(component);
    });
  });
}

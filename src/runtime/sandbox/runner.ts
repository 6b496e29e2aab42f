/**
 * The entry of a runner: the child process that runs one component (`node runner.js
 * <artifact file>`, forked by runner-process.ts under the permission model). It imports the
 * bundle, then serves invocations from the parent one at a time, sending their effects as they
 * happen (see protocol.ts). It owns the process-wide hooks a component could otherwise escape
 * through: the console (captured as log lines), process.exit (reported, then honoured), and
 * uncaught errors (charged to the invocation that was running). A source's `run` gets the event;
 * an action's gets `{ steps, $ }` (api/action-context.ts).
 *
 * It must import only Sluice's own modules and Node built-ins: `npm run build` bundles it with them
 * into dist/runner/runner.cjs, the only code of the project a runner may read (runner-entry.ts).
 */
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
import type {
  DataStoreResultMessage,
  DoneMessage,
  InvokeMessage,
  ParentMessage,
  RunnerMessage,
} from "./protocol.js";
import type { PropValue } from "./sandbox.js";

/** Thrown out of process.exit() so that no component code runs after it while the exit is sent. */
class ProcessExitRequested extends Error {}

const realExit = process.exit.bind(process);
const ipcSend = process.send?.bind(process);
/** Set once process.exit was called: nothing more is sent, the process is on its way out. */
let exiting = false;
/** The id of the invocation in flight, if any: effects and log lines are charged to it. */
let active: number | undefined;
/** The props of the last invocation (the parent omits them when unchanged). */
let currentProps: Readonly<Record<string, PropValue>> = {};

/** Sends to the parent; false when that is impossible (no channel, or exiting). */
function send(message: RunnerMessage, sent?: (error: Error | null) => void): boolean {
  if (exiting || ipcSend === undefined || !process.connected) return false;
  ipcSend(message, undefined, undefined, sent);
  return true;
}

const log: LogSink = (level, message) => {
  if (active === undefined) return;
  send({ t: "log", id: active, line: { ts: Date.now(), level, message: clipLogMessage(message) } });
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
      const message: RunnerMessage = {
        t: "exit",
        code: exitCode,
        ...(active === undefined ? {} : { id: active }),
      };
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
    if (active === undefined) return realExit(70);
    finish({ t: "done", id: active, ok: false, ...errorFields(error), retire: true });
  });
  process.on("unhandledRejection", (reason) => {
    if (reason instanceof ProcessExitRequested) return;
    log(
      "error",
      `Unhandled promise rejection: ${reason instanceof Error ? (reason.stack ?? reason.message) : inspect(reason)}`,
    );
  });
  process.on("disconnect", () => realExit(0));
  confineSignals();
  refuseNativeAddons();
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

function errorFields(thrown: unknown): { message: string; stack?: string } {
  const error = explainNativeAddonError(thrown);
  if (error instanceof Error) {
    const message = error.name && error.name !== "Error" ? `${error.name}: ${error.message}` : error.message;
    return { message, ...(typeof error.stack === "string" ? { stack: error.stack } : {}) };
  }
  return { message: typeof error === "string" ? error : inspect(error) };
}

/** Sends the invocation's outcome, once; later outcomes of the same invocation are ignored. */
function finish(done: DoneMessage): void {
  if (active !== done.id) return;
  active = undefined;
  send(done);
}

async function load(file: string): Promise<ComponentObject | undefined> {
  let namespace: unknown;
  try {
    namespace = await import(pathToFileURL(file).href);
  } catch (error) {
    send({ t: "load_error", code: "load_error", ...errorFields(error) });
    return undefined;
  }
  try {
    const component = asComponentObject(isRecord(namespace) ? namespace.default : undefined);
    send({ t: "ready" });
    return component;
  } catch (error) {
    const code = error instanceof NotAComponentError ? "not_a_component" : "load_error";
    send({ t: "load_error", code, ...errorFields(error) });
    return undefined;
  }
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
  else pending.reject(new Error(message.message ?? "the data store call failed"));
}

function effectsOf(id: number): InvocationEffects {
  return {
    dataStore(storeId, op, args) {
      if (active !== id) return Promise.reject(new Error("the invocation has ended"));
      const call = nextDataStoreCall++;
      return new Promise((resolve, reject) => {
        dataStoreCalls.set(call, { resolve, reject });
        send({ t: "data_store", id, call, storeId, op, args });
      });
    },
    emit(event, meta) {
      if (active === id) send({ t: "emit", id, meta, ...(event === undefined ? {} : { event }) });
    },
    set(key, value) {
      if (active === id) send({ t: "set", id, key, value });
    },
    respond(response) {
      if (active === id) send({ t: "respond", id, ...response });
    },
  };
}

function actionEffectsOf(id: number): ActionEffects {
  return {
    export(name, value) {
      if (active === id) send({ t: "export", id, name, ...(value === undefined ? {} : { value }) });
    },
    respond(response) {
      if (active === id) send({ t: "respond", id, ...response });
    },
    flowExit(reason) {
      if (active === id) send({ t: "flow_exit", id, ...(reason === undefined ? {} : { reason }) });
    },
    send(kind, params) {
      if (active === id) send({ t: "send", id, kind, params });
    },
  };
}

/** An action's run gets `{ steps, $ }`; a source's gets the event. */
function runArgument(component: ComponentObject, message: InvokeMessage): unknown {
  if (component.type !== "action") return message.event;
  return { steps: message.steps ?? {}, $: createActionContext(actionEffectsOf(message.id)) };
}

async function invoke(component: ComponentObject, message: InvokeMessage): Promise<void> {
  const { id } = message;
  if (active !== undefined) {
    send({ t: "done", id, ok: false, message: "the runner is busy with another invocation" });
    return;
  }
  if (message.props) currentProps = message.props;
  active = id;
  try {
    const self = createComponentThis(component, { props: currentProps, db: message.db }, effectsOf(id));
    const value: unknown =
      message.method === "options"
        ? await runOptions(component, self, message.event as OptionsRequest)
        : message.method === "additionalProps"
          ? await runAdditionalProps(component, self)
          : await runMethod(component, self, message);
    finish({ t: "done", id, ok: true, ...returnValueOf(value) });
  } catch (error) {
    finish({ t: "done", id, ok: false, ...errorFields(error) });
  }
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
    log("warn", `${errorFields(error).message}; it was dropped`);
    return {};
  }
}

function describe(component: ComponentObject): void {
  try {
    send({ t: "definition", definition: describeComponent(component) });
  } catch (error) {
    const code = error instanceof NotAComponentError ? "not_a_component" : "load_error";
    send({ t: "describe_error", code, message: errorFields(error).message });
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
    send({
      t: "load_error",
      code: "load_error",
      message: `the sandbox's network guard could not be installed: ${errorFields(error).message}`,
    });
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
  process.on("message", (message: ParentMessage) => {
    if (message.t === "data_store_result") {
      settleDataStoreCall(message);
      return;
    }
    if (message.t === "egress_answer") {
      tunnels.get(message.rid)?.(message.answer);
      tunnels.delete(message.rid);
      return;
    }
    void loaded.then((component) => {
      if (component === undefined) return;
      if (message.t === "invoke") void invoke(component, message);
      else if (message.t === "describe") describe(component);
    });
  });
}

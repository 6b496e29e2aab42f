/**
 * The sandbox's contract: each component runs in a runner process of its own, kept warm in a
 * pool; an invocation resolves, never rejects, with what the component did and why it failed.
 * A source's `run` gets the event; an action's gets `{ steps, $ }`, and what it does with `$`
 * comes back in the result. Callers import this file, not the implementation; the invariants are
 * in ARCHITECTURE.md.
 */
import type { ComponentDefinition, HookName } from "../component-definition.js";

/** Which code a runner loads. The bundle is written to `<dataDir>/artifacts/<bundleHash>/` once. */
export interface RunnerSpec {
  /** `dc_…` for a deployed component (its runner is pooled under this id), or any unique id. */
  readonly componentId: string;
  readonly bundleHash: string;
  /** The compiled bundle's code, written to disk if this node does not have the artifact yet. */
  readonly bundle: string | (() => Promise<string>);
  /** Heap limit of the runner process, MB (default 256). */
  readonly heapMb?: number;
  /**
   * How many invocations may be in flight on this runner at once (default 1: one at a time).
   * Above 1, each invocation should name its `instance`: the sources of one account and bundle
   * share a runner this way, each in a module instance of its own.
   */
  readonly concurrency?: number;
}

/** What `this.<prop>` is for each prop, computed by core from the configured props. */
export type PropValue =
  /** Any plain value: string, number, boolean, object, array, a timer schedule object. */
  | { readonly kind: "value"; readonly value: unknown }
  /** `$.interface.http`: `this.<prop>.endpoint` and `this.<prop>.respond(...)`. */
  | { readonly kind: "http"; readonly endpoint: string; readonly customResponse: boolean }
  /** `$.service.db`: synchronous get/set over the component's key-value state. */
  | { readonly kind: "db" }
  /** `app`: the app object of the definition, with `$auth` set to this value. */
  | { readonly kind: "app"; readonly auth: Record<string, unknown> }
  /** `data_store`: the async data store API over the account's store `ds_…` (calls go to `onDataStore`). */
  | { readonly kind: "data_store"; readonly storeId: string }
  /** `http_request`: the configured request (core/components/http-request-prop.ts) with `execute()`. */
  | { readonly kind: "http_request"; readonly value: unknown };

/** Answers a runner's data store call; rejects with an Error whose message the component sees. */
export type DataStoreHandler = (
  storeId: string,
  op: string,
  args: Record<string, unknown>,
) => Promise<unknown>;

/**
 * Dynamic props, run like an invocation: `options` (the event is an OptionsRequest of
 * api/dynamic-props.ts; the return value `{options, context}`) and `additionalProps` (the return
 * value the described props). A ConfigurationError fails with a message starting
 * "ConfigurationError: ", a prop without options with "NoOptionsError: ".
 */
export type ConfigureMethod = "options" | "additionalProps";

export interface Invocation {
  /**
   * `run` (with `event`, or an action's `steps`), or a lifecycle hook. A missing hook or run
   * method is a no-op success.
   */
  readonly method: "run" | HookName | ConfigureMethod;
  readonly event?: unknown;
  readonly props: Readonly<Record<string, PropValue>>;
  /**
   * The component's whole key-value state before this invocation. Absent (with an `instance`):
   * the state the instance's previous invocation left in its runner, which keeps it; when the
   * runner does not hold it (it is new, or the instance was forgotten), the invocation resolves
   * `notStarted`, and the caller sends it again with its state.
   */
  readonly db?: Readonly<Record<string, unknown>>;
  readonly timeoutMs: number;
  /** Called as soon as the component calls respond() or `$.respond()`; at most once per invocation. */
  readonly onRespond?: (response: HttpResponse) => void;
  /**
   * An action's `steps`: `run({ steps, $ })` receives it (JSON; `{}` when absent). A workflow
   * runner passes the results of the earlier steps; sources ignore it.
   */
  readonly steps?: unknown;
  /** An action's `$.context`: the run it is a step of (JSON; `{}` when absent). */
  readonly context?: Readonly<Record<string, unknown>>;
  /**
   * What a workflow step's `$.flow.delay`, `suspend` and `rerun` return: the URLs that end the wait
   * the step would start. Absent outside a workflow run, where those calls throw.
   */
  readonly flowUrls?: FlowUrls;
  /** Performs the invocation's data store calls (only for the stores of its props). */
  readonly onDataStore?: DataStoreHandler;
  /**
   * The module instance the invocation runs in, in a runner shared by several (a source's id):
   * its module state and PD_COMPONENT are its own. Absent: the runner's one module.
   */
  readonly instance?: string;
  /**
   * Called once the invocation is handed to its runner: an invocation of the same instance
   * invoked after that runs after this one, in the same runner or not at all (`notStarted`).
   * Not called when the invocation ends without reaching a runner.
   */
  readonly onSent?: () => void;
}

export interface HttpResponse {
  readonly status: number;
  readonly headers: Readonly<Record<string, string>>;
  /** The body as bytes; `isJson` when the component passed an object (serialize → application/json). */
  readonly body: Uint8Array;
  readonly isJson: boolean;
  /** An action's `$.respond({ immediate: true })`: answer the caller now, not when the workflow ends. */
  readonly immediate?: boolean;
}

export interface EmittedEvent {
  readonly event: unknown;
  /** The second argument of $emit, as given: `{id, name, summary, ts}` (any may be absent). */
  readonly meta: {
    readonly id?: string | number;
    readonly name?: string;
    readonly summary?: string;
    readonly ts?: number;
  };
}

export interface LogLine {
  /** Epoch ms. */
  readonly ts: number;
  readonly level: "log" | "info" | "warn" | "error" | "debug";
  readonly message: string;
}

export type FailureReason = "error" | "timeout" | "crash" | "out_of_memory" | "exit" | "load_error";

export interface InvocationResult {
  readonly ok: boolean;
  /** Set when !ok. */
  readonly failure?: { readonly reason: FailureReason; readonly message: string; readonly stack?: string };
  /** Everything emitted, in call order, including before a failure. */
  readonly emits: readonly EmittedEvent[];
  /** Keys set with db.set, final values (JSON round-tripped). */
  readonly dbWrites: Readonly<Record<string, unknown>>;
  readonly logs: readonly LogLine[];
  /** The value `run` returned (JSON round-tripped): an action step's `$return_value`. */
  readonly returnValue?: unknown;
  readonly durationMs: number;
  /** An action's `$.export(name, value)` calls but `$summary` (JSON; the last of a name wins). */
  readonly exports?: Readonly<Record<string, unknown>>;
  /** An action's `$.export("$summary", text)`. */
  readonly summary?: string;
  /** Set when an action called `$.flow.exit(reason?)`: the workflow ends after this step. */
  readonly flowExit?: { readonly reason: string | null };
  /** Set when an action called `$.flow.delay`, `suspend` or `rerun`: the run waits after this step. */
  readonly flowWait?: FlowWait;
  /** The response given with respond() / `$.respond()`, also passed to `onRespond` when it was given. */
  readonly response?: HttpResponse;
  /** An action's `$.send.*` calls, in call order: queued, for core to perform after the run. */
  readonly sends?: readonly QueuedSend[];
  /**
   * The invocation did not start, and did nothing: it waited in its runner behind another
   * invocation of its instance and the runner went down first, or it came without its state
   * (`db`) to a runner that does not hold it. Run it again, with its state.
   */
  readonly notStarted?: true;
}

export interface FlowUrls {
  readonly resume_url: string;
  readonly cancel_url: string;
}

export type FlowWaitKind = "delay" | "suspend" | "rerun";

/** A step's `$.flow.delay(ms)`, `$.flow.suspend(timeoutMs)` or `$.flow.rerun(delayMs, context, maxRetries)`. */
export interface FlowWait {
  readonly kind: FlowWaitKind;
  /** The delay, the suspend's time-out, or the wait before the rerun. */
  readonly ms: number;
  /** `$.flow.rerun`'s context, given to the step's next run as `$.context.run.context`. */
  readonly context?: unknown;
  /** `$.flow.rerun`'s maxRetries. */
  readonly maxRetries?: number;
}

export type SendKind = "http" | "email" | "emit" | "sse" | "s3";

/**
 * One `$.send.<kind>(params)` call. The runner checks the params' shape when the component calls,
 * but they come from untrusted code: core checks them again before sending anything.
 */
export interface QueuedSend {
  readonly kind: SendKind;
  readonly params: Readonly<Record<string, unknown>>;
}

export interface Sandbox {
  /** Loads the bundle in a short-lived runner and describes the component it exports. */
  describe(spec: RunnerSpec): Promise<ComponentDefinition>;
  /** Runs one invocation in the component's warm runner (started if needed). Never rejects. */
  invoke(spec: RunnerSpec, invocation: Invocation): Promise<InvocationResult>;
  /** Stops the component's runner, if any (after an update or delete). */
  evict(componentId: string): Promise<void>;
  /**
   * Drops a module instance from the shared runner it ran in (its source was updated or deleted):
   * its next invocation starts from a fresh import. One in flight finishes first.
   */
  forgetInstance(instance: string): void;
  /** Stops every runner. */
  close(): Promise<void>;
}

/** The bundle cannot be loaded (it throws at import) or exports no component object. */
export class ComponentLoadError extends Error {
  override readonly name = "ComponentLoadError";
  constructor(
    readonly code: "load_error" | "not_a_component",
    message: string,
  ) {
    super(message);
  }
}

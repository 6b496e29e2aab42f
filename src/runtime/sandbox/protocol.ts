/**
 * The IPC messages between the server (runner-process.ts) and a runner (runner.ts): one
 * discriminated union each way. What a runner sends is parsed once, in protocol-parse.ts, before
 * anything reads it; the invariants of the channel are in ARCHITECTURE.md.
 */
import type { EmitMeta } from "../api/component-instance.js";
import type { EncodedHttpResponse } from "../api/http-interface.js";
import type { ComponentDefinition, HookName } from "../component-definition.js";
import type { TunnelAnswer } from "./egress/egress-tunnel.js";
import type { ConfigureMethod, FlowUrls, FlowWaitKind, LogLine, PropValue, SendKind } from "./sandbox.js";
import type { SerializedError } from "./serialized-error.js";

/**
 * Parent → runner: run one invocation. One is in flight per runner at a time, unless the
 * invocations name their `instance`: those of different instances may overlap, and those of one
 * instance may be sent before the previous one ended (pipelined): the runner runs them one after
 * another, in the order they came, each starting when the previous one is done.
 */
export interface InvokeMessage {
  readonly t: "invoke";
  readonly id: number;
  /** The module instance to run in (a source's id); absent: the module imported at start. */
  readonly instance?: string;
  readonly method: "run" | HookName | ConfigureMethod;
  readonly event?: unknown;
  /** Absent when the props are the same object as in the instance's previous invoke: the runner keeps them. */
  readonly props?: Readonly<Record<string, PropValue>>;
  /**
   * The key-value state before this invocation. Absent: the state the instance's previous
   * invocation left in this runner (its input plus its `db.set`s), which the runner keeps.
   */
  readonly db?: Readonly<Record<string, unknown>>;
  /** An action's `steps` (JSON); absent for sources. */
  readonly steps?: unknown;
  /** An action's `$.context` (JSON); absent for sources. */
  readonly context?: unknown;
  /** A workflow step's resume and cancel URLs, for `$.flow.delay`, `suspend` and `rerun`. */
  readonly flow?: FlowUrls;
}

/**
 * Parent → runner: several invokes written in one turn of the parent's event loop, in the order
 * they were sent (invoke-outbox.ts): one write to the channel instead of one each.
 */
export interface InvokeBatchMessage {
  readonly t: "invoke_batch";
  readonly messages: readonly InvokeMessage[];
}

/** Parent → runner: describe the loaded component (short-lived runners only). */
export interface DescribeMessage {
  readonly t: "describe";
}

/** Parent → runner (namespace mode): the outcome of an EgressOpenMessage. */
export interface EgressAnswerMessage {
  readonly t: "egress_answer";
  readonly rid: number;
  readonly answer: TunnelAnswer;
}

/** Parent → runner: the answer to a data store call. */
export type DataStoreResultMessage =
  | {
      readonly t: "data_store_result";
      readonly call: number;
      readonly ok: true;
      /** JSON of the answer; absent for undefined. */
      readonly value?: string;
    }
  | {
      readonly t: "data_store_result";
      readonly call: number;
      readonly ok: false;
      /** Without its stack: the server's stack stays in the server. */
      readonly error: SerializedError;
    };

/** Parent → runner: drop a module instance (its source was updated or deleted). */
export interface ForgetMessage {
  readonly t: "forget";
  readonly instance: string;
}

export type ParentMessage =
  | InvokeMessage
  | InvokeBatchMessage
  | DescribeMessage
  | DataStoreResultMessage
  | EgressAnswerMessage
  | ForgetMessage;

/** The bundle imported and exports a component: the runner takes invocations. */
export interface ReadyMessage {
  readonly t: "ready";
}

/** The bundle threw at import, or its default export is not a component. */
export interface LoadErrorMessage {
  readonly t: "load_error";
  readonly code: LoadErrorCode;
  readonly error: SerializedError;
}

export type LoadErrorCode = "load_error" | "not_a_component";

export interface EmitMessage {
  readonly t: "emit";
  readonly id: number;
  /** JSON of the event; absent when the component emitted `undefined`. */
  readonly event?: string;
  readonly meta: EmitMeta;
}

export interface LogMessage {
  readonly t: "log";
  readonly id: number;
  readonly line: LogLine;
}

export interface SetMessage {
  readonly t: "set";
  readonly id: number;
  readonly key: string;
  /** JSON of the value. */
  readonly value: string;
}

/** The component's HTTP response; its body is UTF-8 text, or base64 of bytes. */
export interface RespondMessage extends EncodedHttpResponse {
  readonly t: "respond";
  readonly id: number;
}

/** An action's `$.export(name, value)`; `$summary` included. */
export interface ExportMessage {
  readonly t: "export";
  readonly id: number;
  readonly name: string;
  /** JSON of the value; absent for `undefined`. */
  readonly value?: string;
}

/** An action called `$.flow.exit(reason?)`. */
export interface FlowExitMessage {
  readonly t: "flow_exit";
  readonly id: number;
  readonly reason?: string;
}

/** An action called `$.flow.delay`, `suspend` or `rerun`: the run waits after this step. */
export interface FlowWaitMessage {
  readonly t: "flow_wait";
  readonly id: number;
  readonly kind: FlowWaitKind;
  readonly ms: number;
  /** JSON of `$.flow.rerun`'s context; absent for undefined. */
  readonly context?: string;
  readonly maxRetries?: number;
}

/** An action's `$.send.<kind>(params)`, queued: the parent performs it after the run. */
export interface SendMessage {
  readonly t: "send";
  readonly id: number;
  readonly kind: SendKind;
  /** JSON of the params object. */
  readonly params: string;
}

export type DoneMessage =
  | {
      readonly t: "done";
      readonly id: number;
      readonly ok: true;
      /** JSON of run's return value; absent for `undefined`. */
      readonly returnValue?: string;
    }
  | {
      readonly t: "done";
      readonly id: number;
      readonly ok: false;
      readonly error: SerializedError;
      /** The runner is in an unknown state (an uncaught exception): the parent should replace it. */
      readonly retire?: boolean;
    };

/** The component called process.exit(code); the runner exits right after sending this. */
export interface ExitMessage {
  readonly t: "exit";
  readonly id?: number;
  readonly code: number;
}

export type DescribeResultMessage =
  | { readonly t: "definition"; readonly definition: ComponentDefinition }
  | { readonly t: "describe_error"; readonly code: LoadErrorCode; readonly error: SerializedError };

/** Runner → parent (namespace mode): open a connection for the component (egress/egress-tunnel.ts). */
export interface EgressOpenMessage {
  readonly t: "egress_open";
  /** The runner's number for this request, echoed in the answer. */
  readonly rid: number;
  readonly host: string;
  readonly port: number;
}

export type RunnerMessage =
  | EgressOpenMessage
  | ReadyMessage
  | LoadErrorMessage
  | EmitMessage
  | LogMessage
  | SetMessage
  | RespondMessage
  | ExportMessage
  | FlowExitMessage
  | FlowWaitMessage
  | SendMessage
  | DoneMessage
  | ExitMessage
  | DescribeResultMessage
  | DataStoreCallMessage;

/** A component called its data store (`this.<prop>.get(…)`, …); the parent answers with data_store_result. */
export interface DataStoreCallMessage {
  readonly t: "data_store";
  readonly id: number;
  readonly call: number;
  readonly storeId: string;
  /** Checked by the server's handler, which answers an unknown one with an error. */
  readonly op: string;
  readonly args: Readonly<Record<string, unknown>>;
}

/**
 * `this` for one invocation, built inside the runner: configured prop values, `$.service.db`,
 * `$.interface.http`, app objects, the component's methods bound to it, and `$emit`. Effects go
 * to an `InvocationEffects` sink (the runner sends them to the parent as they happen).
 */
import type { PropValue } from "../sandbox/sandbox.js";
import { createAppObject } from "./app-prop.js";
import { type ComponentObject, functionsOf, isRecord, type UnknownRecord } from "./component-object.js";
import { createDataStore, type DataStoreOp } from "./data-store.js";
import { createHttpInterface, type EncodedHttpResponse } from "./http-interface.js";
import { createHttpRequest } from "./http-request.js";
import { toJson } from "./json-value.js";
import { createKeyValueStore } from "./key-value-store.js";

/** The second argument of $emit, checked. */
export interface EmitMeta {
  id?: string | number;
  name?: string;
  summary?: string;
  ts?: number;
}

/** Where the effects of one invocation go. */
export interface InvocationEffects {
  /** `event` is the event's JSON, undefined when the component emitted undefined. */
  emit(event: string | undefined, meta: EmitMeta): void;
  set(key: string, json: string): void;
  respond(response: EncodedHttpResponse): void;
  /** A data store call, answered by the parent. */
  dataStore(storeId: string, op: DataStoreOp, args: Record<string, unknown>): Promise<unknown>;
}

export interface InvocationInput {
  readonly props: Readonly<Record<string, PropValue>>;
  readonly db: Readonly<Record<string, unknown>>;
}

/** Builds a fresh `this`: nothing a component sets on it survives into the next invocation. */
export function createComponentThis(
  component: ComponentObject,
  input: InvocationInput,
  effects: InvocationEffects,
): UnknownRecord {
  const self: UnknownRecord = {};
  for (const [name, method] of functionsOf(component.methods)) {
    self[name] = method.bind(self);
  }
  const declaredProps = isRecord(component.props) ? component.props : {};
  const http = { responded: false };
  let db: ReturnType<typeof createKeyValueStore> | undefined;
  for (const [name, prop] of Object.entries(input.props)) {
    switch (prop.kind) {
      case "value":
        // Copied so that a component mutating a prop object cannot change the next invocation's.
        self[name] =
          typeof prop.value === "object" && prop.value !== null ? structuredClone(prop.value) : prop.value;
        break;
      case "http_request":
        self[name] = createHttpRequest(prop.value);
        break;
      case "http":
        self[name] = createHttpInterface(prop.endpoint, http, (response) => effects.respond(response));
        break;
      case "db":
        db ??= createKeyValueStore(input.db, (key, json) => effects.set(key, json));
        self[name] = db;
        break;
      case "app":
        self[name] = createAppObject(declaredProps[name], structuredClone(prop.auth));
        break;
      case "data_store": {
        const { storeId } = prop;
        self[name] = createDataStore((op, args) => effects.dataStore(storeId, op, args));
        break;
      }
    }
  }
  if (db !== undefined) {
    const state = db;
    // Pipedream's step-level state, `this.$checkpoint`, is the db's "$checkpoint" key: registry
    // actions read it there and write it with `this.db.set("$checkpoint", …)`.
    Object.defineProperty(self, "$checkpoint", {
      get: () => state.get("$checkpoint"),
      set: (value: unknown) => state.set("$checkpoint", value),
      enumerable: false,
    });
  }
  self.$emit = (event?: unknown, meta?: unknown): Promise<void> => {
    effects.emit(toJson(event, "$emit"), checkEmitMeta(meta));
    return Promise.resolve();
  };
  return self;
}

function checkEmitMeta(meta: unknown): EmitMeta {
  if (meta === undefined || meta === null) return {};
  if (!isRecord(meta))
    throw new TypeError("$emit: the second argument must be an object: { id, name, summary, ts }");
  const checked: EmitMeta = {};
  const { id, name, summary, ts } = meta;
  if (id !== undefined && id !== null) {
    if (typeof id !== "string" && typeof id !== "number") {
      throw new TypeError(`$emit: meta.id must be a string or a number, got ${typeof id}`);
    }
    checked.id = id;
  }
  if (name !== undefined && name !== null) {
    if (typeof name !== "string")
      throw new TypeError(`$emit: meta.name must be a string, got ${typeof name}`);
    checked.name = name;
  }
  if (summary !== undefined && summary !== null) {
    if (typeof summary === "object" || typeof summary === "function") {
      throw new TypeError(`$emit: meta.summary must be a string, got ${typeof summary}`);
    }
    checked.summary = String(summary);
  }
  if (ts !== undefined && ts !== null) {
    const epochMs = ts instanceof Date ? ts.getTime() : typeof ts === "string" ? Date.parse(ts) : ts;
    if (typeof epochMs === "number" && Number.isFinite(epochMs)) checked.ts = epochMs;
    else {
      // As on Pipedream, an unusable ts does not lose the event: it takes the time of the emit.
      // Registry components do this (@pipedream/mysql's New Table, for a table whose CREATE_TIME
      // is null, emits ts NaN).
      console.warn(
        `$emit: meta.ts ${String(ts)} is not an epoch timestamp in milliseconds; the event is stamped now`,
      );
    }
  }
  return checked;
}

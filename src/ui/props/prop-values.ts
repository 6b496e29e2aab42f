/**
 * The configuration form's values: what each input holds (text, as typed) and how it becomes the
 * configured value the API takes. Parsing here gives a message next to the prop before anything
 * is sent; the server checks everything again.
 */
import type { ConfigurableProp } from "../../client/types.js";
import {
  configuredHttpRequest,
  type HttpRequestValue,
  httpRequestValue,
  isHttpRequestValue,
} from "./http-request-value.js";

/** SPEC.md: a configured value may be at most 64 KB (the server refuses larger ones too). */
export const MAX_VALUE_BYTES = 64 * 1024;

/** A data_store prop's value is a string: the store's ds_ id (or a name, created on deploy). */
export type FormValue = string | boolean | TimerValue | RemoteValue | AppValue | HttpRequestValue | undefined;

/** An option picked from remote (async) options: its value as the component gave it. */
export interface RemoteValue {
  kind: "remote";
  value: unknown;
}

/** An app prop's connected account. */
export interface AppValue {
  kind: "app";
  authProvisionId: string;
}

export function isRemoteValue(value: FormValue): value is RemoteValue {
  return typeof value === "object" && value !== null && (value as { kind?: string }).kind === "remote";
}

export function isAppValue(value: FormValue): value is AppValue {
  return typeof value === "object" && value !== null && (value as { kind?: string }).kind === "app";
}

/**
 * A prop whose options load from the component: async `options`, its own or a propDefinition's
 * (the server resolves propDefinitions and describes an options method as `remoteOptions: true`;
 * `hasAsyncOptions` is Pipedream Connect's name for the same).
 */
export function hasRemoteOptions(prop: ConfigurableProp): boolean {
  return prop.type !== "app" && (prop.remoteOptions === true || prop.hasAsyncOptions === true);
}

export interface TimerValue {
  mode: "interval" | "cron";
  intervalSeconds: string;
  cron: string;
  timezone: string;
}

/** Props the form shows; interfaces and the db are wired by the server and take no value. */
export function isConfigurable(prop: ConfigurableProp): boolean {
  if (prop.type === "$.interface.http" || prop.type === "$.service.db" || prop.type === "alert") return false;
  if (prop.type === "$.interface.timer" && prop.static !== undefined) return false;
  return true;
}

/** The initial text of an input, from a configured value or the prop's default. */
export function initialValue(prop: ConfigurableProp, configured: unknown): FormValue {
  const value = configured ?? prop.default;
  if (prop.type === "app") {
    const id = (value as { authProvisionId?: unknown } | undefined)?.authProvisionId;
    return typeof id === "string" ? { kind: "app", authProvisionId: id } : undefined;
  }
  if (hasRemoteOptions(prop))
    return value === undefined || value === null ? undefined : { kind: "remote", value };
  if (prop.type === "http_request") return httpRequestValue(value);
  if (prop.type === "$.interface.timer") {
    const schedule = (value ?? {}) as { intervalSeconds?: number; cron?: string; timezone?: string };
    return {
      mode: schedule.cron ? "cron" : "interval",
      intervalSeconds: schedule.intervalSeconds === undefined ? "" : String(schedule.intervalSeconds),
      cron: schedule.cron ?? "",
      timezone: schedule.timezone ?? "",
    };
  }
  if (prop.type === "boolean") return value === true;
  if (value === undefined || value === null) return "";
  if (typeof value === "string") return value;
  if (typeof value === "number") return String(value);
  return JSON.stringify(value, null, 2);
}

export class PropValueError extends Error {}

/** The configured value of one input, or undefined when it is left empty. Throws PropValueError. */
export function configuredValue(prop: ConfigurableProp, value: FormValue): unknown {
  if (prop.type === "app") {
    if (isAppValue(value)) return { authProvisionId: value.authProvisionId };
    if (prop.optional) return undefined;
    throw new PropValueError("Choose a connected account, or connect a new one");
  }
  if (isRemoteValue(value)) return value.value;
  if (hasRemoteOptions(prop) && value === undefined) return undefined;
  if (isHttpRequestValue(value)) {
    const request = configuredHttpRequest(value);
    if (typeof request === "string") throw new PropValueError(request);
    if (request && new TextEncoder().encode(JSON.stringify(request)).length > MAX_VALUE_BYTES) {
      throw new PropValueError(`The request is larger than ${MAX_VALUE_BYTES / 1024} KB`);
    }
    return request;
  }
  if (prop.type === "$.interface.timer") {
    const timer = value as TimerValue;
    if (timer.mode === "cron") {
      if (timer.cron.trim() === "") throw new PropValueError("Enter a cron expression, such as 0 * * * *");
      return timer.timezone.trim()
        ? { cron: timer.cron.trim(), timezone: timer.timezone.trim() }
        : { cron: timer.cron.trim() };
    }
    const seconds = Number(timer.intervalSeconds);
    if (!Number.isInteger(seconds) || seconds < 1)
      throw new PropValueError("The interval is a whole number of seconds, at least 1");
    return { intervalSeconds: seconds };
  }
  if (prop.type === "boolean") return value === true;
  const text = typeof value === "string" ? value : "";
  if (new TextEncoder().encode(text).length > MAX_VALUE_BYTES) {
    throw new PropValueError(`The value is larger than ${MAX_VALUE_BYTES / 1024} KB`);
  }
  if (text.trim() === "") return undefined;
  if (prop.type === "integer") {
    if (!/^-?\d+$/.test(text.trim())) throw new PropValueError("Enter a whole number");
    const number = Number(text);
    if (typeof prop.min === "number" && number < prop.min) throw new PropValueError(`At least ${prop.min}`);
    if (typeof prop.max === "number" && number > prop.max) throw new PropValueError(`At most ${prop.max}`);
    return number;
  }
  if (prop.type === "object" || prop.type.endsWith("[]")) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch (error) {
      throw new PropValueError(`Invalid JSON: ${(error as Error).message}`);
    }
    if (prop.type === "object" && (typeof parsed !== "object" || parsed === null || Array.isArray(parsed))) {
      throw new PropValueError('Enter a JSON object, such as {"key": "value"}');
    }
    if (prop.type.endsWith("[]") && !Array.isArray(parsed)) {
      throw new PropValueError('Enter a JSON array, such as ["a", "b"]');
    }
    return parsed;
  }
  return text;
}

/** The prop a server message is about: it says `prop '<name>': …`. */
export function propOfMessage(message: string): string | undefined {
  return /prop '([^']+)'/.exec(message)?.[1];
}

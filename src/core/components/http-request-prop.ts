/**
 * The `http_request` prop type (Pipedream's "HTTP Request Configuration"), sent by the component
 * with `this.<prop>.execute()`. What a person configures (params and headers as an object or a
 * list, a body as any JSON or a raw or fields form) is normalized here at deploy, so the runner
 * receives one shape (`HttpRequestConfig`). The URL may be left out at deploy (a prop's default
 * often holds only the method); `execute()` then refuses to send.
 */
import { InvalidInputError } from "../errors.js";

export interface NamedValue {
  readonly name: string;
  readonly value: string;
}

export interface HttpRequestConfig {
  readonly url: string | null;
  readonly method: string;
  readonly params: readonly NamedValue[];
  readonly headers: readonly NamedValue[];
  readonly body:
    | null
    | { readonly type: "raw"; readonly contentType: string; readonly raw: string }
    | { readonly type: "fields"; readonly contentType: string; readonly fields: readonly NamedValue[] };
  readonly auth:
    | { readonly type: "none" }
    | { readonly type: "basic"; readonly username: string; readonly password: string }
    | { readonly type: "bearer"; readonly token: string };
}

const METHODS = new Set(["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"]);

function invalid(prop: string, problem: string): InvalidInputError {
  return new InvalidInputError(`prop '${prop}': ${problem}`, "invalid_prop");
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function text(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  return undefined;
}

function namedValues(prop: string, value: unknown, what: string): NamedValue[] {
  if (value === undefined || value === null) return [];
  if (isRecord(value)) {
    return Object.entries(value).map(([name, item]) => {
      const itemText = text(item);
      if (itemText === undefined) throw invalid(prop, `${what}.${name} must be a string`);
      return { name, value: itemText };
    });
  }
  if (!Array.isArray(value)) throw invalid(prop, `${what} must be an object or a list of {name, value}`);
  return value.flatMap((item, index) => {
    if (!isRecord(item) || typeof item.name !== "string") {
      throw invalid(prop, `${what}[${index}] must be {name, value}`);
    }
    if (item.disabled === true || item.name === "") return [];
    const itemText = text(item.value ?? "");
    if (itemText === undefined) throw invalid(prop, `${what}[${index}].value must be a string`);
    return [{ name: item.name, value: itemText }];
  });
}

function bodyOf(prop: string, value: unknown): HttpRequestConfig["body"] {
  if (value === undefined || value === null || value === "") return null;
  if (isRecord(value) && value.type === "raw") {
    const raw = text(value.raw ?? "");
    if (raw === undefined) throw invalid(prop, "body.raw must be a string");
    return { type: "raw", contentType: text(value.contentType) ?? "text/plain", raw };
  }
  if (isRecord(value) && value.type === "fields") {
    return {
      type: "fields",
      contentType: text(value.contentType) ?? "application/json",
      fields: namedValues(prop, value.fields, "body.fields"),
    };
  }
  if (typeof value === "string") return { type: "raw", contentType: "text/plain", raw: value };
  return { type: "raw", contentType: "application/json", raw: JSON.stringify(value) };
}

function authOf(prop: string, value: unknown): HttpRequestConfig["auth"] {
  if (value === undefined || value === null) return { type: "none" };
  if (!isRecord(value))
    throw invalid(prop, 'auth must be {type: "basic", username, password} or {type: "bearer", token}');
  const type =
    value.type ?? (value.token !== undefined ? "bearer" : value.username !== undefined ? "basic" : "none");
  if (type === "none") return { type: "none" };
  if (type === "basic") {
    return { type: "basic", username: text(value.username) ?? "", password: text(value.password) ?? "" };
  }
  if (type === "bearer") {
    const token = text(value.token);
    if (token === undefined || token === "") throw invalid(prop, "auth.token is required for bearer auth");
    return { type: "bearer", token };
  }
  throw invalid(prop, `auth.type must be "none", "basic" or "bearer", not ${JSON.stringify(type)}`);
}

/** The configured value (an object, or its JSON text) as the runner receives it. */
export function normalizeHttpRequest(prop: string, value: unknown): HttpRequestConfig {
  let given = value;
  if (typeof given === "string") {
    try {
      given = JSON.parse(given);
    } catch {
      // A bare URL is a GET of it.
      given = { url: given };
    }
  }
  if (!isRecord(given))
    throw invalid(prop, "an http_request is an object: {url, method, params, headers, body, auth}");
  let url: string | null = null;
  if (given.url !== undefined && given.url !== null && given.url !== "") {
    if (typeof given.url !== "string") throw invalid(prop, "url must be a string");
    let parsed: URL;
    try {
      parsed = new URL(given.url);
    } catch {
      throw invalid(prop, `url '${given.url.slice(0, 100)}' is not an absolute URL`);
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") {
      throw invalid(prop, "url must be an http or https URL");
    }
    url = given.url;
  }
  const method =
    given.method === undefined || given.method === null ? "GET" : text(given.method)?.toUpperCase();
  if (method === undefined || !METHODS.has(method)) {
    throw invalid(prop, `method must be one of ${[...METHODS].join(", ")}`);
  }
  return {
    url,
    method,
    params: namedValues(prop, given.params, "params"),
    headers: namedValues(prop, given.headers, "headers"),
    body: bodyOf(prop, given.body ?? given.data),
    auth: authOf(prop, given.auth),
  };
}

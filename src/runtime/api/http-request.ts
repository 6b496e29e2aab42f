/**
 * An `http_request` prop inside the runner: the configured request (normalized by core, see
 * core/components/http-request-prop.ts) with `execute()`, which sends it from the runner, so the sandbox's
 * egress guard applies to it as to any connection the component opens. It resolves with the
 * response body (parsed when it is JSON) and rejects on a non-2xx status, as axios does, or with
 * the reason a connection failed (such as the network policy's refusal).
 */
import type { UnknownRecord } from "./component-object.js";

interface NamedValue {
  name: string;
  value: string;
}

interface HttpRequestConfig {
  url: string | null;
  method: string;
  params: NamedValue[];
  headers: NamedValue[];
  body:
    | null
    | { type: "raw"; contentType: string; raw: string }
    | { type: "fields"; contentType: string; fields: NamedValue[] };
  auth:
    | { type: "none" }
    | { type: "basic"; username: string; password: string }
    | { type: "bearer"; token: string };
}

function encodeBody(body: NonNullable<HttpRequestConfig["body"]>): string {
  if (body.type === "raw") return body.raw;
  const fields = Object.fromEntries(body.fields.map((field) => [field.name, field.value]));
  return /x-www-form-urlencoded/i.test(body.contentType)
    ? new URLSearchParams(fields).toString()
    : JSON.stringify(fields);
}

export function createHttpRequest(value: unknown): UnknownRecord {
  const config = structuredClone(value) as HttpRequestConfig;
  const request: UnknownRecord = { ...config };
  Object.defineProperty(request, "execute", {
    enumerable: false,
    value: async (): Promise<unknown> => {
      if (!config.url) throw new Error("http_request: no url is configured");
      const url = new URL(config.url);
      for (const param of config.params) url.searchParams.append(param.name, param.value);
      const headers = new Headers();
      for (const header of config.headers) headers.append(header.name, header.value);
      if (config.auth.type === "basic") {
        const pair = `${config.auth.username}:${config.auth.password}`;
        headers.set("authorization", `Basic ${Buffer.from(pair).toString("base64")}`);
      } else if (config.auth.type === "bearer") {
        headers.set("authorization", `Bearer ${config.auth.token}`);
      }
      let body: string | undefined;
      if (config.body && config.method !== "GET" && config.method !== "HEAD") {
        body = encodeBody(config.body);
        if (!headers.has("content-type")) headers.set("content-type", config.body.contentType);
      }
      let response: Response;
      try {
        response = await fetch(url, {
          method: config.method,
          headers,
          ...(body === undefined ? {} : { body }),
        });
      } catch (error) {
        // fetch says only "fetch failed"; the reason (the egress guard's refusal, say) is its cause.
        const cause = (error as { cause?: unknown }).cause;
        const reason = cause instanceof Error ? cause.message : (error as Error).message;
        throw new Error(`http_request: ${config.method} ${url.origin} failed: ${reason}`, { cause: error });
      }
      const textBody = await response.text();
      let data: unknown = textBody;
      if (/json/i.test(response.headers.get("content-type") ?? "")) {
        try {
          data = JSON.parse(textBody);
        } catch {
          data = textBody;
        }
      }
      if (!response.ok) {
        const error = new Error(`Request failed with status code ${response.status}`) as Error & {
          response?: unknown;
        };
        error.response = { status: response.status, data };
        throw error;
      }
      return data;
    },
  });
  return request;
}

/**
 * An `http_request` prop's value in the form: method, URL, params, headers and a raw body, as
 * typed. The configured value is the object the API takes (src/core/components/http-request-prop.ts
 * normalizes it); its `auth`, which this editor does not show, is kept as it was.
 */

export interface NamedRow {
  name: string;
  value: string;
}

export interface HttpRequestValue {
  kind: "http_request";
  method: string;
  url: string;
  params: NamedRow[];
  headers: NamedRow[];
  contentType: string;
  body: string;
  /** The configured auth, passed through unchanged. */
  auth?: unknown;
}

export const HTTP_METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"] as const;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function rowsOf(value: unknown): NamedRow[] {
  if (isRecord(value)) return Object.entries(value).map(([name, item]) => ({ name, value: String(item) }));
  if (!Array.isArray(value)) return [];
  return value
    .filter(isRecord)
    .map((item) => ({ name: String(item.name ?? ""), value: String(item.value ?? "") }));
}

/** The editor's value from a configured value (or a default), in any shape the API accepts. */
export function httpRequestValue(given: unknown): HttpRequestValue {
  let value = given;
  if (typeof value === "string") {
    try {
      value = JSON.parse(value);
    } catch {
      value = { url: value };
    }
  }
  const config = isRecord(value) ? value : {};
  const body = config.body ?? config.data;
  let contentType = "application/json";
  let text = "";
  if (isRecord(body) && body.type === "raw") {
    contentType = String(body.contentType ?? "text/plain");
    text = String(body.raw ?? "");
  } else if (isRecord(body) && body.type === "fields") {
    contentType = String(body.contentType ?? "application/json");
    text = JSON.stringify(
      Object.fromEntries(rowsOf(body.fields).map((row) => [row.name, row.value])),
      null,
      2,
    );
  } else if (typeof body === "string") {
    contentType = "text/plain";
    text = body;
  } else if (body !== undefined && body !== null) {
    text = JSON.stringify(body, null, 2);
  }
  return {
    kind: "http_request",
    method: typeof config.method === "string" ? config.method.toUpperCase() : "GET",
    url: typeof config.url === "string" ? config.url : "",
    params: rowsOf(config.params),
    headers: rowsOf(config.headers),
    contentType,
    body: text,
    ...(config.auth !== undefined ? { auth: config.auth } : {}),
  };
}

export function isHttpRequestValue(value: unknown): value is HttpRequestValue {
  return isRecord(value) && value.kind === "http_request";
}

/**
 * The configured value, or undefined for an untouched GET with nothing in it. Returns a message
 * (a string) for a URL that is not an absolute http(s) URL.
 */
export function configuredHttpRequest(value: HttpRequestValue): Record<string, unknown> | string | undefined {
  const url = value.url.trim();
  const params = value.params.filter((row) => row.name.trim() !== "");
  const headers = value.headers.filter((row) => row.name.trim() !== "");
  if (url !== "") {
    let parsed: URL;
    try {
      parsed = new URL(url);
    } catch {
      return "Enter an absolute URL, such as https://api.example.com/items";
    }
    if (parsed.protocol !== "http:" && parsed.protocol !== "https:") return "The URL must be http or https";
  }
  const empty = url === "" && params.length === 0 && headers.length === 0 && value.body.trim() === "";
  if (empty && value.method === "GET" && value.auth === undefined) return undefined;
  return {
    method: value.method,
    ...(url ? { url } : {}),
    params: params.map((row) => ({ name: row.name.trim(), value: row.value })),
    headers: headers.map((row) => ({ name: row.name.trim(), value: row.value })),
    ...(value.body.trim() !== ""
      ? { body: { type: "raw", contentType: value.contentType.trim() || "text/plain", raw: value.body } }
      : {}),
    ...(value.auth !== undefined ? { auth: value.auth } : {}),
  };
}

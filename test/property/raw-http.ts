/**
 * Requests exactly as generated: node:http sends the path as given (no URL normalisation, so `..`,
 * malformed percent-escapes and raw latin-1 bytes reach the server), any method, any headers, any
 * body bytes. A server-sent event stream is read up to its headers and then dropped. The request
 * head must stay under Node's 16 KB header limit; over it the server may close the connection
 * before the client has finished writing.
 */
import http from "node:http";

export interface RawRequest {
  readonly method: string;
  /** Path and query string, sent verbatim. */
  readonly path: string;
  readonly headers: Record<string, string>;
  readonly body?: Buffer;
}

export interface RawReply {
  readonly status: number;
  readonly contentType: string;
  readonly text: string;
}

export function send(origin: string, request: RawRequest, timeoutMs = 30_000): Promise<RawReply> {
  const { hostname, port } = new URL(origin);
  return new Promise<RawReply>((resolve, reject) => {
    const outgoing = http.request(
      {
        // A connection per request: a server that closes one after an error cannot fail the next.
        agent: false,
        hostname,
        port,
        method: request.method,
        path: request.path,
        // Node sends no length with a GET's or DELETE's body unless told: always say it.
        headers: request.body
          ? { ...request.headers, "content-length": String(request.body.length) }
          : request.headers,
      },
      (response) => {
        const status = response.statusCode ?? 0;
        const contentType = String(response.headers["content-type"] ?? "");
        if (contentType.startsWith("text/event-stream")) {
          // A live stream never ends: its status and headers are all there is to check.
          response.destroy();
          resolve({ status, contentType, text: "" });
          return;
        }
        const chunks: Buffer[] = [];
        response.on("data", (chunk: Buffer) => chunks.push(chunk));
        response.on("end", () =>
          resolve({ status, contentType, text: Buffer.concat(chunks).toString("utf8") }),
        );
        response.on("error", reject);
      },
    );
    outgoing.setTimeout(timeoutMs, () =>
      outgoing.destroy(new Error(`no answer within ${timeoutMs} ms to ${request.method} ${request.path}`)),
    );
    outgoing.on("error", reject);
    outgoing.end(request.body);
  });
}

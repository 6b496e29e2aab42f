/**
 * The HTTP side the bench's own servers share (bare-server.mjs, floor-server.mjs): `node:http` on
 * 127.0.0.1 that reads each request's body and parses it as JSON (400 when it is not), then calls
 * `handle(body, respond, request)`; `respond()` answers 200 {"success":true}, what a Sluice HTTP
 * source answers without customResponse, and `respond(error)` 500. Stops on SIGTERM.
 */
import http from "node:http";

export function serveJson(port, handle) {
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
      } catch {
        response.writeHead(400).end();
        return;
      }
      handle(
        body,
        (error) => {
          if (error) return response.writeHead(500).end();
          response.writeHead(200, { "content-type": "application/json; charset=utf-8" });
          response.end('{"success":true}');
        },
        request,
      );
    });
  });
  server.keepAliveTimeout = 30_000;
  server.listen(port, "127.0.0.1");
  process.on("SIGTERM", () => server.close(() => process.exit(0)));
}

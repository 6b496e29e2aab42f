/**
 * The baseline: a bare node:http server, run as its own process as Sluice is. Every request's
 * body is read and parsed as JSON; the answer is 200 {"success":true}, what a Sluice HTTP
 * source answers without customResponse. With BENCH_CALL=1 it also calls a trivial function
 * with the parsed body (the invoke scenario's direct-call baseline over HTTP).
 * Usage: node bench/lib/bare-server.mjs PORT
 */
import http from "node:http";

const port = Number(process.argv[2]);
const call = process.env.BENCH_CALL === "1";
const component = {
  async run(event) {
    this.last = event.body;
  },
};

const server = http.createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", async () => {
    let body;
    try {
      body = JSON.parse(Buffer.concat(chunks).toString("utf8") || "null");
    } catch {
      response.writeHead(400).end();
      return;
    }
    if (call) await component.run({ method: request.method, path: request.url, body });
    response.writeHead(200, { "content-type": "application/json; charset=utf-8" });
    response.end('{"success":true}');
  });
});
server.keepAliveTimeout = 30_000;
server.listen(port, "127.0.0.1");
process.on("SIGTERM", () => server.close(() => process.exit(0)));

/**
 * The baseline: a bare node:http server, run as its own process as Sluice is. Every request's
 * body is read and parsed as JSON; the answer is 200 {"success":true}, what a Sluice HTTP
 * source answers without customResponse (json-server.mjs). With BENCH_CALL=1 it also calls a
 * trivial function with the parsed body (the invoke scenario's direct-call baseline over HTTP).
 * Usage: node bench/lib/bare-server.mjs PORT
 */
import { serveJson } from "./json-server.mjs";

const call = process.env.BENCH_CALL === "1";
const component = {
  async run(event) {
    this.last = event.body;
  },
};

serveJson(Number(process.argv[2]), async (body, respond, request) => {
  if (call) await component.run({ method: request.method, path: request.url, body });
  respond();
});

/**
 * The local webhook receiver, in the bench process: answers every POST 200 at once and records
 * when it arrived (Date.now(), the clock the sandboxed components also read), its path and its
 * JSON body. The deliver scenario points Sluice's webhooks and its own direct baseline POSTs here.
 */
import http from "node:http";
import { sleep } from "./stats.mjs";

export async function startReceiver() {
  let received = [];
  const server = http.createServer((request, response) => {
    const chunks = [];
    request.on("data", (chunk) => chunks.push(chunk));
    request.on("end", () => {
      const at = Date.now();
      let body;
      try {
        body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
      } catch {
        body = undefined;
      }
      received.push({ at, path: request.url ?? "", body });
      response.writeHead(200, { "content-type": "text/plain" });
      response.end("ok");
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address();
  return {
    url: `http://127.0.0.1:${port}`,
    get received() {
      return received;
    },
    /** Forgets what was received so far. */
    reset() {
      received = [];
    },
    /**
     * Resolves once `count` requests arrived (`count` distinct ones, by the key `distinct` gives
     * each, when set); after `timeoutMs` rejects, or with `partial` resolves with what arrived.
     */
    async waitForCount(count, timeoutMs, { partial = false, distinct } = {}) {
      const deadline = Date.now() + timeoutMs;
      const arrived = () => (distinct ? new Set(received.map(distinct)).size : received.length);
      // The distinct count is computed only once the raw count is there (it costs CPU).
      while (received.length < count || arrived() < count) {
        if (Date.now() > deadline) {
          if (partial) return received;
          throw new Error(`the receiver got ${arrived()} of ${count} requests in ${timeoutMs} ms`);
        }
        await sleep(1);
      }
      return received;
    },
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

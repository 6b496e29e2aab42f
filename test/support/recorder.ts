/** A local HTTP server that records the requests it gets: a stand-in for any URL a component or a delivery calls. */
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface RecordedRequest {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: string;
  at: number;
  /** The sender's TCP port: with test/support/process-sockets.ts, which process sent it. */
  remotePort: number;
}

/** How the recorder answers a request. */
export interface RecorderAnswer {
  status: number;
  body?: string;
  headers?: Record<string, string>;
}

/**
 * Chooses the answer to each request. It may return a promise: one that never settles makes an
 * endpoint that never answers (its connections are dropped by `close`).
 */
export type AnswerFunction = (request: RecordedRequest) => RecorderAnswer | Promise<RecorderAnswer>;

/** A receiver's answer held until `release` is called: `held` resolves then. */
export function heldAnswer(): { held: Promise<void>; release: () => void } {
  let release: () => void = () => {};
  const held = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { held, release };
}

export interface Recorder {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Resolves once `count` requests have arrived (or rejects after `timeoutMs`). */
  waitFor(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /**
   * Connections open to the recorder. None after a sender exited: its connections closed, and a
   * request comes before its connection's close, so every request it sent has been recorded.
   */
  openConnections(): Promise<number>;
  close(): Promise<void>;
}

export async function startRecorder(answer: AnswerFunction = () => ({ status: 200 })): Promise<Recorder> {
  const requests: RecordedRequest[] = [];
  const waiters: (() => void)[] = [];
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const recorded: RecordedRequest = {
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
        remotePort: request.socket.remotePort ?? 0,
      };
      requests.push(recorded);
      for (const wake of waiters.splice(0)) wake();
      const send = ({ status, body, headers }: RecorderAnswer) => {
        if (response.destroyed) return;
        response.writeHead(status, { "content-type": "text/plain", ...headers });
        response.end(body ?? "ok");
      };
      const answered = answer(recorded);
      if (answered instanceof Promise) answered.then(send, () => response.destroy());
      else send(answered);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    async waitFor(count, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (requests.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} requests, got ${requests.length}`);
        await new Promise<void>((resolve) => {
          waiters.push(resolve);
          setTimeout(resolve, 100);
        });
      }
      return requests;
    },
    openConnections: () =>
      new Promise<number>((resolve, reject) =>
        server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      ),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

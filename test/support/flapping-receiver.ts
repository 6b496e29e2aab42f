/**
 * A webhook receiver that flaps: every `phaseMs` it moves to the next phase of a cycle, where it is
 * up (answers 200), refusing connections (its listener closed, open connections dropped),
 * unavailable (answers 503), or resetting (reads each request, then destroys the connection
 * without an answer). It keeps every request answered 200, and counts every request that arrived.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { RecordedRequest } from "./recorder.js";

export type ReceiverPhase = "up" | "refusing" | "unavailable" | "resetting";

export const FLAPPING_CYCLE: readonly ReceiverPhase[] = [
  "up",
  "refusing",
  "up",
  "unavailable",
  "up",
  "resetting",
];

export interface FlappingReceiver {
  readonly url: string;
  /** The requests answered 200, in order. */
  readonly accepted: RecordedRequest[];
  /** Requests that arrived, by the phase that handled them. */
  readonly arrivals: Record<ReceiverPhase, number>;
  /** How many times it changed phase. */
  phaseChanges(): number;
  /** Stays up from now on. */
  stopFlapping(): Promise<void>;
  close(): Promise<void>;
}

export async function startFlappingReceiver(
  options: { phaseMs?: number; cycle?: readonly ReceiverPhase[] } = {},
): Promise<FlappingReceiver> {
  const phaseMs = options.phaseMs ?? 300;
  const cycle = options.cycle ?? FLAPPING_CYCLE;
  const accepted: RecordedRequest[] = [];
  const arrivals: Record<ReceiverPhase, number> = { up: 0, refusing: 0, unavailable: 0, resetting: 0 };
  let phase: ReceiverPhase = cycle[0] ?? "up";
  let changes = 0;

  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      // "refusing" can still see a request on a connection that was open when the phase began.
      arrivals[phase]++;
      if (phase === "resetting" || phase === "refusing") {
        request.socket.destroy();
        return;
      }
      if (phase === "unavailable") {
        response.writeHead(503, { "content-type": "text/plain" }).end("flapping: down");
        return;
      }
      accepted.push({
        method: request.method ?? "",
        url: request.url ?? "",
        headers: request.headers,
        body: Buffer.concat(chunks).toString("utf8"),
        at: Date.now(),
        remotePort: request.socket.remotePort ?? 0,
      });
      response.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  const stopListening = () =>
    new Promise<void>((resolve) => {
      server.close(() => resolve());
      server.closeAllConnections();
    });

  await listen(0);
  const { port } = server.address() as AddressInfo;

  /** Listening or not as the phase wants; a port taken meanwhile is tried again at the next phase. */
  const apply = async (next: ReceiverPhase) => {
    phase = next;
    changes++;
    if (next === "refusing" && server.listening) await stopListening();
    else if (next !== "refusing" && !server.listening) await listen(port).catch(() => {});
  };
  let step = 0;
  let changing = Promise.resolve();
  const timer = setInterval(() => {
    step = (step + 1) % cycle.length;
    const next = cycle[step] ?? "up";
    changing = changing.then(() => apply(next));
  }, phaseMs);

  return {
    url: `http://127.0.0.1:${port}`,
    accepted,
    arrivals,
    phaseChanges: () => changes,
    async stopFlapping() {
      clearInterval(timer);
      await changing;
      await apply("up");
    },
    async close() {
      clearInterval(timer);
      await changing;
      if (server.listening) await stopListening();
    },
  };
}

/**
 * How a node stops taking HTTP traffic when it drains: /ready answers 503, then `stopListening`
 * refuses new connections, ends the SSE streams and resolves once every request in flight is
 * answered, so Fastify's close finds none left to answer 503 to. Keyed by the node's http.Server.
 */
import type { Server } from "node:http";

interface Drain {
  draining: boolean;
  /** Ends each long-lived response (an SSE stream) still open. */
  readonly streamEnds: Set<() => void>;
}

const drains = new WeakMap<Server, Drain>();

function drainOf(server: Server): Drain {
  let drain = drains.get(server);
  if (!drain) {
    drain = { draining: false, streamEnds: new Set() };
    drains.set(server, drain);
  }
  return drain;
}

/** From now on the node is draining: /ready says so. There is no way back (the node is stopping). */
export function startDraining(server: Server): void {
  drainOf(server).draining = true;
}

export function isDraining(server: Server): boolean {
  return drains.get(server)?.draining === true;
}

/** Registers a response that never ends by itself, to end when the node stops listening; returns the removal. */
export function endWhenListeningStops(server: Server, end: () => void): () => void {
  const { streamEnds } = drainOf(server);
  streamEnds.add(end);
  return () => streamEnds.delete(end);
}

/** How often connections that became idle are closed while the requests in flight finish. */
const IDLE_SWEEP_MS = 100;

/**
 * Stops listening: new connections are refused, and a connection is closed as soon as it is idle
 * (a request that comes on a kept-alive connection before that is served). Resolves when the last
 * connection has closed.
 */
export function stopListening(server: Server): Promise<void> {
  return new Promise((resolve) => {
    const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
    // The callback comes once every connection has closed (with an error when the server was
    // not listening, which changes nothing here).
    server.close(() => {
      clearInterval(sweep);
      resolve();
    });
    for (const end of drainOf(server).streamEnds) end();
  });
}

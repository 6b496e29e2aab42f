/**
 * How a node stops taking HTTP traffic when it drains (RunningServer.close). From `startDraining`
 * its /ready answers 503. `stopListening` then refuses new connections, drops idle ones, ends the
 * open SSE streams (their clients reconnect, to another node, with Last-Event-ID) and resolves
 * once every request in flight has been answered. Fastify's own close comes after: it answers 503
 * to any request it still reads, which a load balancer passes on to the client (it cannot know
 * that the request was not processed), so by then there must be none left to read.
 *
 * The state is keyed by the node's http.Server, which every encapsulated Fastify instance shares.
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

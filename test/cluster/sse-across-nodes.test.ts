/**
 * SSE across nodes: a client of one node's stream gets the events emitted through another node
 * (the stream reads the database; PostgreSQL's LISTEN/NOTIFY says when to), in order; when its
 * node restarts, the client (Sluice's own, as the CLI uses it) reconnects with Last-Event-ID and
 * gets what it missed, with no gap and nothing twice. PostgreSQL only.
 */
import { expect, it } from "vitest";
import { describeCluster } from "../support/cluster.js";
import {
  deployEmitter,
  type EmittedPayload,
  type EmitterSource,
  emit,
  waitUntil,
} from "../support/webhook-delivery.js";

interface StreamedEvent {
  readonly id: string;
  readonly event: EmittedPayload;
}

/** `<ms>-<seq>` ids, compared numerically. */
function idOrder(a: string, b: string): number {
  const [aMs = 0, aSeq = 0] = a.split("-").map(Number);
  const [bMs = 0, bSeq = 0] = b.split("-").map(Number);
  return aMs - bMs || aSeq - bSeq;
}

describeCluster("SSE across nodes on one PostgreSQL schema", (running) => {
  it("a stream on node A gets the events emitted through node C in order, and after A restarts resumes with Last-Event-ID without gaps or repeats", async () => {
    const cluster = running();
    const [nodeA, , nodeC] = cluster.nodes;
    if (!nodeA || !nodeC) throw new Error("the cluster has fewer than 3 nodes");
    const source = await deployEmitter(cluster.client, "sse-across");
    const throughC: EmitterSource = {
      id: source.id,
      endpointUrl: `${nodeC.url}${new URL(source.endpointUrl).pathname}`,
    };
    const emitThroughC = async (from: number, to: number) => {
      for (let start = from; start < to; start += 10) await emit(throughC, { count: 10, tag: "sse", start });
    };

    const streamed: StreamedEvent[] = [];
    let opened = 0;
    const abort = new AbortController();
    const following = nodeA.client
      .follow<StreamedEvent>(`/sse/dc/${source.id}/emits`, (item) => streamed.push(item), abort.signal, {
        onOpen: () => {
          opened++;
        },
      })
      .catch((error: unknown) => error);
    try {
      await waitUntil("A's stream to open", () => opened === 1);

      // Live: emitted through C, streamed by A.
      const liveStarted = Date.now();
      await emitThroughC(0, 100);
      await waitUntil("100 events on A's stream", () => streamed.length >= 100, 15_000);
      const liveMs = Date.now() - liveStarted;

      // A restarts; 100 more are emitted through C while it is down.
      const signalled = Date.now();
      expect(await cluster.stopNode(0, "SIGTERM")).toEqual({ code: 0, signal: null });
      const stoppedMs = Date.now() - signalled;
      await emitThroughC(100, 200);
      expect(streamed).toHaveLength(100);
      await cluster.startNode(0);
      const restartedMs = Date.now() - signalled;
      await waitUntil("the 100 missed events on A's stream", () => streamed.length >= 200, 15_000);
      const caughtUpMs = Date.now() - signalled;

      // Live again on the new process.
      await emitThroughC(200, 250);
      await waitUntil("250 events on A's stream", () => streamed.length >= 250, 15_000);
      // A marker event after them: anything sent twice is on the stream before it.
      await emit(throughC, { count: 1, tag: "sse", start: 250 });
      await waitUntil(
        "the marker on A's stream",
        () => streamed.some((item) => item.event.n === 250),
        15_000,
      );

      expect(streamed.map((item) => item.event.n)).toEqual(Array.from({ length: 251 }, (_, n) => n));
      const ids = streamed.map((item) => item.id);
      expect(new Set(ids).size).toBe(251);
      expect([...ids].sort(idOrder)).toEqual(ids);
      // The stream was opened again, on the restarted process.
      expect(opened).toBe(2);
      console.log(
        `SSE across nodes: 100 events emitted through C reached A's stream in ${liveMs} ms; A stopped ` +
          `${stoppedMs} ms after SIGTERM and was ready again after ${restartedMs} ms; the 100 emitted ` +
          `meanwhile arrived ${caughtUpMs} ms after the signal (Last-Event-ID resume); 250 of 250 in order (and a marker), 0 repeats`,
      );
    } finally {
      abort.abort();
      expect(await following).toBeUndefined();
    }
  }, 120_000);
});

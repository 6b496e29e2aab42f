/**
 * PostgreSQL restarts in the middle of a run, twice (a clean `fast` shutdown, then an `immediate`
 * one, which is a crash followed by recovery), while events keep coming over HTTP to two server
 * nodes' shared database. The cluster is the test's own (the machine's shared server is never
 * touched). Shows: both processes stay up; requests during an outage get 503
 * database_unavailable with Retry-After, never a 500; once PostgreSQL is back every event that
 * got a 200 is stored and delivered, signed; and the other node's LISTEN connection is back (its
 * SSE stream, which has no polling, gets the events emitted on the first node); and a timer
 * source ticks again right after.
 */
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { SluiceClient } from "../../src/client/client.js";
import { startEmitLoop } from "../support/emit-loop.js";
import { type PrivatePostgres, startPrivatePostgres } from "../support/private-postgres.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { RELIABILITY_API_KEY, serverEnvironment } from "../support/server-env.js";
import { killAllServerProcesses, startServerProcess, stopServerProcess } from "../support/server-process.js";
import { storedEvents } from "../support/stored-events.js";
import { tempDir } from "../support/temp.js";
import { letTimePass } from "../support/wait.js";
import {
  DeliveryApi,
  deployEmitter,
  distinctMessageIds,
  emit,
  verifyDelivery,
  waitUntil,
} from "../support/webhook-delivery.js";

/** How long each outage lasts once the server has noticed it. */
const OUTAGE_MS = 2_000;

/** A timer source that ticks every second and emits when it ran. */
const TICKER_SOURCE = `export default {
  name: "ticker",
  props: { timer: { type: "$.interface.timer", default: { intervalSeconds: 1 } } },
  async run() {
    this.$emit({ ran_at: Date.now() });
  },
};`;

describe("a PostgreSQL restart in the middle of a run", () => {
  let postgres: PrivatePostgres | undefined;
  let recorder: Recorder | undefined;
  const dataDirs: string[] = [];
  const streams = new AbortController();

  afterAll(async () => {
    streams.abort();
    await killAllServerProcesses();
    await recorder?.close();
    await postgres?.destroy();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("the servers stay up, answer 503 database_unavailable during each outage, reconnect, and store and deliver every accepted event", async () => {
    postgres = await startPrivatePostgres();
    recorder = await startRecorder();
    dataDirs.push(tempDir(), tempDir());
    const [a, b] = [
      await startServerProcess(
        serverEnvironment({ dataDir: dataDirs[0] as string, databaseUrl: postgres.url }),
      ),
      await startServerProcess(
        serverEnvironment({ dataDir: dataDirs[1] as string, databaseUrl: postgres.url }),
      ),
    ];
    const clientA = new SluiceClient({ baseUrl: a.url, apiKey: RELIABILITY_API_KEY });
    const clientB = new SluiceClient({ baseUrl: b.url, apiKey: RELIABILITY_API_KEY });
    const api = new DeliveryApi(clientA);
    const source = await deployEmitter(clientA, "pg-restart");
    const webhook = await api.createWebhook({ url: `${recorder.url}/pg-restart`, name: "pg-restart" });
    await api.subscribe(source.id, webhook.id);
    const ticker = await clientA.deploySource({ component_code: TICKER_SOURCE, name: "ticker" });

    // Node B streams the source's events; they are emitted on node A, so B hears of them only
    // through PostgreSQL's LISTEN/NOTIFY.
    const streamedOnB = new Set<string>();
    let opened = false;
    const following = clientB
      .follow<{ id: string }>(
        `/sse/dc/${source.id}/emits`,
        (item) => streamedOnB.add(item.id),
        streams.signal,
        {
          onOpen: () => {
            opened = true;
          },
        },
      )
      .catch((error: unknown) => error);
    await waitUntil("B's stream to open", () => opened);

    const loop = startEmitLoop(source, { tag: "pg-restart", callers: 4 });
    const acceptedCount = () => loop.answers.filter((answer) => answer.status === 200).length;
    await waitUntil("100 accepted events", () => acceptedCount() >= 100, 20_000);

    const recoveries: string[] = [];
    let lastUp = 0;
    for (const mode of ["fast", "immediate"] as const) {
      const stopping = Date.now();
      await postgres.stop(mode);
      await waitUntil(
        "503s during the outage",
        () => (loop.tally(stopping)["503 database_unavailable"] ?? 0) >= 10,
        10_000,
      );
      const ready = await fetch(`${a.url}/ready`);
      expect(ready.status).toBe(503);
      // Time is the point: the outage lasts this long.
      await letTimePass(OUTAGE_MS);
      await postgres.start();
      const up = Date.now();
      lastUp = up;
      const firstAccepted = await waitUntil(
        "an accepted event after the restart",
        () => loop.answers.find((answer) => answer.status === 200 && answer.at > up),
        30_000,
      );
      const before = acceptedCount();
      await waitUntil("100 more accepted events", () => acceptedCount() >= before + 100, 20_000);
      recoveries.push(
        `${mode} stop: ${up - stopping} ms down, first 200 ${firstAccepted.at - up} ms after PostgreSQL was back`,
      );
    }
    await loop.stop();
    const stoppedEmitting = Date.now();

    // Up all along, and nothing but 200 or a clean 503 with Retry-After.
    expect(a.server.child.exitCode).toBeNull();
    expect(b.server.child.exitCode).toBeNull();
    const tally = loop.tally();
    expect(Object.keys(tally).sort()).toEqual(["200", "503 database_unavailable"]);
    const unavailable = loop.answers.filter((answer) => answer.status === 503);
    expect(unavailable.every((answer) => answer.retryAfter === "1")).toBe(true);
    expect((await fetch(`${a.url}/ready`)).status).toBe(200);

    // Every accepted event is stored. (An event whose commit reached the database just as the
    // connection dropped is stored without its 200: stored may hold a few the caller never saw
    // accepted, never fewer.)
    const stored = await storedEvents(clientA, source.id);
    const storedNumbers = new Set(stored.map((event) => event.payload.n));
    const accepted = loop.accepted();
    expect(accepted.filter((n) => !storedNumbers.has(n))).toEqual([]);
    expect(storedNumbers.size).toBe(stored.length);

    // Every stored event is delivered, signed, and recorded as delivered.
    await waitUntil(
      "every stored event delivered",
      () => distinctMessageIds(recorder?.requests ?? []).size >= stored.length,
      60_000,
      100,
    );
    const received = recorder.requests;
    const deliveredNumbers = new Set(
      received.map((request) => verifyDelivery(request, webhook.signing_secret).n),
    );
    expect([...storedNumbers].filter((n) => !deliveredNumbers.has(n))).toEqual([]);
    await waitUntil(
      "every delivery recorded as delivered",
      async () => (await api.listDeliveries(webhook.id, "delivered")).length === stored.length,
      60_000,
      500,
    );

    const settledMs = Date.now() - stoppedEmitting;

    // The timers tick again: a tick whose run failed on the database is not held until its lease expires.
    const tickedAgain = await waitUntil(
      "a timer tick after the last restart",
      async () => {
        const page = await clientA.listEvents(ticker.id, { limit: 100, expand: "event" });
        const after = page.data
          .map((summary) => (summary.event as { ran_at: number }).ran_at)
          .filter((ranAt) => ranAt > lastUp);
        return after.length > 0 ? Math.min(...after) : undefined;
      },
      15_000,
      200,
    );

    // B's LISTEN connection is back: an event emitted on A reaches B's stream, with all it missed.
    await emit(source, { count: 1, tag: "pg-restart-marker", start: -1 });
    await waitUntil("B's stream to catch up", () => streamedOnB.size >= stored.length + 1, 10_000);
    expect(streamedOnB.size).toBe(stored.length + 1);

    const duplicates = received.length - distinctMessageIds(received).size;
    console.log(
      `[postgres restart] ${recoveries.join("; ")}; ${accepted.length} accepted, ${stored.length} stored, ` +
        `${unavailable.length} answered 503 database_unavailable, 0 errors; all delivered ` +
        `and recorded within ${settledMs} ms of the last emit (${received.length} requests, duplicates: ${duplicates}); ` +
        `node B's SSE stream caught up; the timer ticked again ${tickedAgain - lastUp} ms after PostgreSQL was back`,
    );
    streams.abort();
    await following;
    expect((await stopServerProcess(a.server)).code).toBe(0);
    expect((await stopServerProcess(b.server)).code).toBe(0);
  }, 180_000);
});

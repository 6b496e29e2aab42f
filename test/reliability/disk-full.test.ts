/**
 * The data disk fills up: a server on SQLite with its data directory on a small real filesystem
 * (a 16 MB tmpfs, or an ext4 loop image where tmpfs cannot be mounted), a file taking all but a
 * little of it, and events coming until it is full. Shows: new events get 507 storage_full with a
 * message that says the disk is full, never a 500; the server stays up, and its reads (REST, SSE,
 * /health) still answer; no event that got a 200 is lost, and once space is freed the server takes
 * events again and delivers every one.
 */
import fs from "node:fs";
import { afterAll, describe, expect, it } from "vitest";
import { SluiceClient } from "../../src/client/client.js";
import { startEmitLoop } from "../support/emit-loop.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { RELIABILITY_API_KEY, serverEnvironment } from "../support/server-env.js";
import { killAllServerProcesses, startServerProcess, stopServerProcess } from "../support/server-process.js";
import { mountSmallDisk, type SmallDisk } from "../support/small-disk.js";
import { storedEvents } from "../support/stored-events.js";
import { letTimePass } from "../support/wait.js";
import {
  DeliveryApi,
  deployEmitter,
  distinctMessageIds,
  emit,
  verifyDelivery,
  waitUntil,
} from "../support/webhook-delivery.js";

const DISK_MB = 16;
/**
 * Room left beside the ballast file. SQLite's write-ahead log grows to about 4 MB (1,000 pages)
 * before it is checkpointed and reused; past that the room holds a few hundred events.
 */
const LEAVE_BYTES = 6 * 1024 * 1024;
const PAYLOAD_BYTES = 8_000;
/** Consecutive 507s that show the disk is full, not a passing hiccup. */
const FULL_STREAK = 20;

describe("the data disk fills up", () => {
  let disk: SmallDisk | undefined;
  let recorder: Recorder | undefined;
  const streams = new AbortController();

  afterAll(async () => {
    streams.abort();
    await killAllServerProcesses();
    await recorder?.close();
    await disk?.release();
  });

  it("new events get 507 storage_full, the server stays up and readable, and every accepted event is kept and delivered once space is freed", async () => {
    disk = await mountSmallDisk(DISK_MB);
    // While the disk fills, the receiver holds its answers (up to 10 s, within the 15 s delivery
    // time-out), so deliveries are still pending when the disk is full and the delivery worker has
    // to claim and record on a full disk.
    let releaseHeld = () => {};
    const held = new Promise<void>((resolve) => {
      releaseHeld = resolve;
    });
    let holding = false;
    recorder = await startRecorder(async () => {
      if (holding) await Promise.race([held, letTimePass(10_000)]);
      return { status: 200 };
    });
    const { server, url } = await startServerProcess(serverEnvironment({ dataDir: disk.dir }));
    const client = new SluiceClient({ baseUrl: url, apiKey: RELIABILITY_API_KEY });
    const api = new DeliveryApi(client);
    const source = await deployEmitter(client, "disk-full");
    const webhook = await api.createWebhook({ url: `${recorder.url}/disk-full`, name: "disk-full" });
    await api.subscribe(source.id, webhook.id);
    const streamed = new Set<string>();
    let opened = false;
    const following = client
      .follow<{ id: string }>(`/sse/dc/${source.id}/emits`, (item) => streamed.add(item.id), streams.signal, {
        onOpen: () => {
          opened = true;
        },
      })
      .catch((error: unknown) => error);
    await waitUntil("the stream to open", () => opened);

    holding = true;
    const ballast = disk.fill(LEAVE_BYTES);
    const loop = startEmitLoop(source, {
      tag: "x".repeat(PAYLOAD_BYTES),
      callers: 2,
    });
    const full = await waitUntil(
      `${FULL_STREAK} storage_full answers in a row`,
      () => {
        const last = loop.answers.slice(-FULL_STREAK);
        return last.length === FULL_STREAK && last.every((answer) => answer.code === "storage_full")
          ? Date.now()
          : undefined;
      },
      60_000,
      20,
    ).catch((error: Error) => {
      throw new Error(
        `${error.message}; answers: ${JSON.stringify(loop.tally())}; ${disk?.freeBytes()} bytes free`,
      );
    });
    // Full for a while: the delivery worker and the endpoint keep failing to write, and must not
    // crash or give up on anything. Time is the point.
    await letTimePass(2_000);
    await loop.stop();
    expect(server.child.exitCode).toBeNull();

    const tally = loop.tally();
    expect(Object.keys(tally).sort()).toEqual(["200", "507 storage_full"]);
    const refusal = await fetch(source.endpointUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ count: 1, tag: "x".repeat(PAYLOAD_BYTES), start: -1 }),
    });
    expect(refusal.status).toBe(507);
    const error = ((await refusal.json()) as { error: { code: string; message: string } }).error;
    expect(error.code).toBe("storage_full");
    expect(error.message).toMatch(/disk is full/);
    // Reads need no space.
    expect((await fetch(`${url}/health`)).status).toBe(200);
    const accepted = loop.accepted();
    const storedWhileFull = await storedEvents(client, source.id);
    const storedWhileFullNumbers = new Set(storedWhileFull.map((event) => event.payload.n));
    expect(accepted.filter((n) => !storedWhileFullNumbers.has(n))).toEqual([]);

    // Space is freed: everything accepted is still there, and the server takes new events again.
    const pendingWhileFull = storedWhileFull.length - distinctMessageIds(recorder.requests).size;
    fs.rmSync(ballast);
    const freed = Date.now();
    holding = false;
    releaseHeld();
    await waitUntil(
      "an event accepted after space was freed",
      async () => {
        try {
          await emit(source, { count: 1, tag: "after-free", start: 1_000_000 });
          return true;
        } catch {
          return false;
        }
      },
      20_000,
      200,
    );
    const recoveredMs = Date.now() - freed;
    for (let start = 1_000_001; start <= 1_000_050; start += 10)
      await emit(source, { count: 10, tag: "after-free", start });
    const stored = await storedEvents(client, source.id);
    const storedNumbers = new Set(stored.map((event) => event.payload.n));
    expect(accepted.filter((n) => !storedNumbers.has(n))).toEqual([]);
    const storedAfter = stored.map((event) => event.payload.n).filter((n) => !storedWhileFullNumbers.has(n));
    expect(storedAfter.sort((x, y) => x - y)).toEqual(Array.from({ length: 51 }, (_, i) => 1_000_000 + i));

    // Every stored event is delivered, signed, and recorded; the stream has every one too.
    await waitUntil(
      "every stored event delivered",
      () => distinctMessageIds(recorder?.requests ?? []).size >= stored.length,
      60_000,
      100,
    );
    const received = recorder.requests;
    const delivered = new Set(received.map((request) => verifyDelivery(request, webhook.signing_secret).n));
    expect([...storedNumbers].filter((n) => !delivered.has(n))).toEqual([]);
    await waitUntil(
      "every delivery recorded as delivered",
      async () => (await api.listDeliveries(webhook.id, "delivered")).length === stored.length,
      60_000,
      500,
    );
    await waitUntil("the stream to have every event", () => streamed.size >= stored.length, 10_000);
    expect(streamed.size).toBe(stored.length);

    const duplicates = received.length - distinctMessageIds(received).size;
    const refused = tally["507 storage_full"] ?? 0;
    console.log(
      `[disk full] ${disk.kind} of ${DISK_MB} MB: ${accepted.length} events of ${PAYLOAD_BYTES} bytes accepted, ` +
        `then full after ${full - (loop.answers[0]?.at ?? full)} ms; ${refused} answered 507 storage_full, 0 errors; ` +
        `${pendingWhileFull} deliveries were pending on the full disk; after freeing space the first event was accepted within ${recoveredMs} ms; ${stored.length} stored, ` +
        `all delivered (${received.length} requests, duplicates: ${duplicates})`,
    );
    streams.abort();
    await following;
    expect((await stopServerProcess(server)).code).toBe(0);
  }, 180_000);
});

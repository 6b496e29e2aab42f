/**
 * A node drains on SIGTERM, as a load balancer and the other nodes need it to: `/ready` answers
 * 503 at once, no delivery is claimed any more, what is in flight finishes, and the process exits
 * 0 (or 1 when its work outlasts SLUICE_SHUTDOWN_TIMEOUT). Real `sluice server` processes on
 * SQLite (draining does not depend on the database), real signals, a real receiver.
 */
import fs from "node:fs";
import { afterEach, describe, expect, it } from "vitest";
import { SluiceClient } from "../../src/client/client.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { RELIABILITY_API_KEY, serverEnvironment } from "../support/server-env.js";
import { killAllServerProcesses, startServerProcess, stopServerProcess } from "../support/server-process.js";
import { tempDir } from "../support/temp.js";
import {
  DeliveryApi,
  deployEmitter,
  type EmitterSource,
  emit,
  verifyDelivery,
  waitUntil,
} from "../support/webhook-delivery.js";

const cleanups: (() => Promise<void> | void)[] = [];
let recorder: Recorder | undefined;

afterEach(async () => {
  await killAllServerProcesses();
  await recorder?.close();
  recorder = undefined;
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function newDataDir(): string {
  const dir = tempDir("sluice-drain-");
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

/** The same source through a server started later (another port). */
function at(source: EmitterSource, serverUrl: string): EmitterSource {
  return { id: source.id, endpointUrl: `${serverUrl}${new URL(source.endpointUrl).pathname}` };
}

/** A server with an emitter source whose events go to a webhook on the recorder. */
async function startWithWebhook(env: Record<string, string>, receiver: Recorder) {
  const started = await startServerProcess(env);
  const api = new DeliveryApi(new SluiceClient({ baseUrl: started.url, apiKey: RELIABILITY_API_KEY }));
  const source = await deployEmitter(api.client, "drain");
  const webhook = await api.createWebhook({ url: `${receiver.url}/drain`, name: "drain" });
  await api.subscribe(source.id, webhook.id);
  return { ...started, api, source, webhook };
}

describe("draining on SIGTERM", () => {
  it("/ready answers 503 draining at once; during SLUICE_DRAIN_DELAY requests are still served but no delivery is claimed; it exits 0 and the next start sends what was left", async () => {
    recorder = await startRecorder();
    const env = serverEnvironment({ dataDir: newDataDir() }, { SLUICE_DRAIN_DELAY: "1500" });
    const first = await startWithWebhook(env, recorder);
    await emit(first.source, { tag: "before", start: 0 });
    await recorder.waitFor(1);
    expect((await fetch(`${first.url}/ready`)).status).toBe(200);

    const signalled = Date.now();
    first.server.child.kill("SIGTERM");
    await first.server.waitForStderr("SIGTERM: draining");
    const ready = await fetch(`${first.url}/ready`);
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({
      error: { code: "draining", message: expect.stringContaining("shutting down") },
    });
    // Liveness is another matter: the process is alive and well.
    expect((await fetch(`${first.url}/health`)).status).toBe(200);
    // Still served during the delay: this event is accepted (stored with its delivery) ...
    await emit(first.source, { tag: "during", start: 1 });

    expect(await first.server.exited).toEqual({ code: 0, signal: null });
    const drainedMs = Date.now() - signalled;
    expect(drainedMs).toBeGreaterThanOrEqual(1500);
    // ... but the draining node claimed no delivery: only the first event reached the receiver.
    await waitUntil(
      "the exited node's connections closed",
      async () => (await recorder?.openConnections()) === 0,
    );
    expect(
      recorder.requests.map((request) => verifyDelivery(request, first.webhook.signing_secret).n),
    ).toEqual([0]);

    // The next node to run (here, the same one started again) delivers it.
    const second = await startServerProcess(env);
    await recorder.waitFor(2);
    const received = recorder.requests.map((request) =>
      verifyDelivery(request, first.webhook.signing_secret),
    );
    expect(received.map((payload) => [payload.tag, payload.n])).toEqual([
      ["before", 0],
      ["during", 1],
    ]);
    await emit(at(first.source, second.url), { tag: "after", start: 2 });
    await recorder.waitFor(3);
    expect(await stopServerProcess(second.server)).toEqual({ code: 0, signal: null });
    console.log(`drain with SLUICE_DRAIN_DELAY=1500: exited 0 after ${drainedMs} ms`);
  }, 60_000);

  it("a delivery in flight when SIGTERM arrives is finished and recorded before the process exits 0: it is not sent again", async () => {
    const holdMs = 1500;
    recorder = await startRecorder(
      () => new Promise((resolve) => setTimeout(() => resolve({ status: 200 }), holdMs)),
    );
    const receiver = recorder;
    const dataDir = newDataDir();
    const env = serverEnvironment({ dataDir });
    const first = await startWithWebhook(env, receiver);
    await emit(first.source, { tag: "in-flight", start: 0 });
    await receiver.waitFor(1);

    const signalled = Date.now();
    first.server.child.kill("SIGTERM");
    await first.server.waitForStderr("SIGTERM: draining");
    expect(await first.server.exited).toEqual({ code: 0, signal: null });
    const exitedAfterMs = Date.now() - signalled;
    const answeredAt = (receiver.requests[0]?.at ?? 0) + holdMs;
    // It waited for the receiver's answer (the listener closed long before).
    expect(Date.now()).toBeGreaterThanOrEqual(answeredAt);

    const second = await startServerProcess(env);
    const api = new DeliveryApi(new SluiceClient({ baseUrl: second.url, apiKey: RELIABILITY_API_KEY }));
    const [delivery] = await api.listDeliveries(first.webhook.id);
    expect(delivery).toMatchObject({ status: "delivered", attempts: 1, last_status_code: 200 });
    // A delivery the first process had not recorded would be pending here, and sent again by this
    // one; recorded as delivered, it is not sent again.
    expect(receiver.requests).toHaveLength(1);
    expect(await stopServerProcess(second.server)).toEqual({ code: 0, signal: null });
    console.log(
      `drain with a delivery in flight (receiver answers in ${holdMs} ms): exited 0 after ${exitedAfterMs} ms`,
    );
  }, 60_000);

  it("work that outlasts SLUICE_SHUTDOWN_TIMEOUT does not hold the process: it exits 1 when the time is up", async () => {
    // A receiver that never answers: the delivery would take its full 15 s time-out.
    recorder = await startRecorder(() => new Promise(() => {}));
    const env = serverEnvironment({ dataDir: newDataDir() }, { SLUICE_SHUTDOWN_TIMEOUT: "1000" });
    const first = await startWithWebhook(env, recorder);
    await emit(first.source, { tag: "stuck", start: 0 });
    await recorder.waitFor(1);

    const signalled = Date.now();
    first.server.child.kill("SIGTERM");
    const exit = await first.server.exited;
    const exitedAfterMs = Date.now() - signalled;
    expect(exit).toEqual({ code: 1, signal: null });
    expect(first.server.stderr()).toContain("still busy after 1000 ms; exiting");
    expect(exitedAfterMs).toBeGreaterThanOrEqual(1000);
    expect(exitedAfterMs).toBeLessThan(5000);
    // Nothing is lost: the abandoned delivery is sent again, here by the next start (on
    // PostgreSQL, by another node once its lease expires).
    await startServerProcess(env);
    await waitUntil("the delivery sent again", () => recorder?.requests.length === 2, 10_000);
  }, 60_000);
});

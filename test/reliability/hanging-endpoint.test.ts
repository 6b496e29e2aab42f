/**
 * A hanging endpoint does not slow a healthy one: one emitter with two webhooks, the measured
 * healthy one and a second one. In half the trials the second one's receiver answers at once (the
 * control); in the other half it accepts each connection and never answers (Sluice gives up after
 * 15 s; its per-webhook in-flight cap keeps it from taking the healthy webhook's slots). The
 * healthy webhook's emit-to-receipt p99 beside the hanging one must stay within 10 % of its p99
 * beside the answering one, plus a 5 ms floor for timer noise at these small figures.
 *
 * The control has the same fan-out as the hanging case: each event is stored with two deliveries
 * and two jobs either way, so what the comparison shows is the cost of the second endpoint hanging,
 * not the cost of a second subscription (which a healthy webhook alone would leave out).
 *
 * Robust on a small, busy machine: each trial is a fresh server process (nothing from one trial,
 * such as the hanging webhook's backlog, reaches the next), with a warm-up, then 600 events at a
 * steady 200 events/s; seven trials of each, answering/hanging in ABBA order (so a drift in the machine's load
 * weighs on both alike), and the medians of the trials' p99s are compared.
 */
import fs from "node:fs";
import os from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { SluiceClient } from "../../src/client/client.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { RELIABILITY_API_KEY, serverEnvironment } from "../support/server-env.js";
import { killAllServerProcesses, startServerProcess } from "../support/server-process.js";
import { tempDir } from "../support/temp.js";
import { letTimePass } from "../support/wait.js";
import {
  DeliveryApi,
  deployEmitter,
  emit,
  percentile,
  verifyDelivery,
  waitUntil,
} from "../support/webhook-delivery.js";

const EVENTS_PER_TRIAL = 600;
const EVENTS_PER_REQUEST = 5;
/** 5 events every 25 ms: 200 events/s. */
const REQUEST_INTERVAL_MS = 25;
const WARM_UP_EVENTS = 100;
/** A = beside an answering webhook, B = beside the hanging one: ABBA ABBA ABBA AB, seven trials of each. */
const TRIALS: readonly Condition[] = Array.from({ length: 14 }, (_, index) =>
  index % 4 === 0 || index % 4 === 3 ? "answering" : "hanging",
);
const ALLOWED_RATIO = 1.1;
const FLOOR_MS = 5;

type Condition = "answering" | "hanging";

interface Trial {
  condition: Condition;
  p50: number;
  p99: number;
}

const median = (values: readonly number[]) => percentile(values, 50);

describe("a hanging endpoint beside a healthy one", () => {
  const cleanups: (() => Promise<void> | void)[] = [];

  afterEach(async () => {
    await killAllServerProcesses();
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  /** One trial on a fresh server: the healthy webhook's emit-to-receipt latencies. */
  const runTrial = async (condition: Condition): Promise<Trial> => {
    const dataDir = tempDir();
    const healthy = await startRecorder();
    // Accepts, reads the request, never answers.
    const hanging = await startRecorder(() => new Promise(() => {}));
    const answering = await startRecorder();
    cleanups.push(async () => {
      await healthy.close();
      await hanging.close();
      await answering.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    });
    const { server, url } = await startServerProcess(serverEnvironment({ dataDir }));
    const api = new DeliveryApi(new SluiceClient({ baseUrl: url, apiKey: RELIABILITY_API_KEY }));
    const source = await deployEmitter(api.client, "hanging");
    const webhook = await api.createWebhook({ url: `${healthy.url}/healthy`, name: "healthy" });
    await api.subscribe(source.id, webhook.id);
    const second =
      condition === "hanging"
        ? await api.createWebhook({ url: `${hanging.url}/hanging`, name: "hanging" })
        : await api.createWebhook({ url: `${answering.url}/answering`, name: "answering" });
    await api.subscribe(source.id, second.id);
    await emitSteadily(source, "warm-up", WARM_UP_EVENTS, -WARM_UP_EVENTS);
    await healthy.waitFor(WARM_UP_EVENTS, 30_000);

    await emitSteadily(source, "measured", EVENTS_PER_TRIAL, 0);
    await healthy.waitFor(WARM_UP_EVENTS + EVENTS_PER_TRIAL, 30_000);
    const latencies = latenciesOf(healthy, webhook.signing_secret);
    if (condition === "hanging") {
      // The hanging endpoint was really hanging: its cap of 8 deliveries in flight, none answered.
      await waitUntil("the hanging endpoint's 8 connections", () => hanging.requests.length >= 8, 5_000);
    }
    server.child.kill("SIGKILL");
    await server.exited;
    return { condition, p50: percentile(latencies, 50), p99: percentile(latencies, 99) };
  };

  it("the healthy webhook's p99 delivery latency rises by at most 10 % (+5 ms) when the other webhook on its emitter hangs", async () => {
    const trials: Trial[] = [];
    for (const condition of TRIALS) trials.push(await runTrial(condition));

    const p99s = (condition: Condition) =>
      trials.filter((trial) => trial.condition === condition).map((trial) => trial.p99);
    const beside = median(p99s("answering"));
    const withHanging = median(p99s("hanging"));
    const limit = beside * ALLOWED_RATIO + FLOOR_MS;
    console.log(
      `[sqlite] healthy webhook p99, median of ${TRIALS.length / 2} trials each of ${EVENTS_PER_TRIAL} events ` +
        `at ${(EVENTS_PER_REQUEST * 1000) / REQUEST_INTERVAL_MS}/s: beside an answering webhook ${beside} ms, beside a hanging one ` +
        `${withHanging} ms (limit ${limit.toFixed(1)} ms = +10 % +${FLOOR_MS} ms); trials (p50/p99 ms): ` +
        trials.map((trial) => `${trial.condition} ${trial.p50}/${trial.p99}`).join(", ") +
        `; load average ${os.loadavg()[0]?.toFixed(1)} on ${os.availableParallelism()} cores`,
    );
    expect(withHanging).toBeLessThanOrEqual(limit);
  }, 240_000);
});

/** `total` events, EVENTS_PER_REQUEST per request, one request every REQUEST_INTERVAL_MS. */
async function emitSteadily(
  source: Awaited<ReturnType<typeof deployEmitter>>,
  tag: string,
  total: number,
  first: number,
): Promise<void> {
  const started = Date.now();
  for (let sent = 0, index = 0; sent < total; sent += EVENTS_PER_REQUEST, index++) {
    const due = started + index * REQUEST_INTERVAL_MS;
    // Time is the point: the requests go at a steady pace.
    if (due > Date.now()) await letTimePass(due - Date.now());
    await emit(source, { count: EVENTS_PER_REQUEST, tag, start: first + sent });
  }
}

/** Emit-to-receipt latency of each measured event the healthy receiver got (each verified). */
function latenciesOf(receiver: Recorder, secret: string): number[] {
  return receiver.requests.flatMap((request) => {
    const payload = verifyDelivery(request, secret);
    return payload.tag === "measured" ? [request.at - payload.emitted_at] : [];
  });
}

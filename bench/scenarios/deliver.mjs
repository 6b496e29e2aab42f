/**
 * deliver: webhook delivery to a local receiver in the bench process.
 *  - latency: events emitted at a fixed rate (100 events/s, below one webhook's capacity, then
 *    500 events/s, 5 per request; quick: 250/s) by a
 *    source subscribed to one webhook; p50/p99 of receiver arrival − the component's Date.now()
 *    at $emit. Baseline: the bench POSTs the same bodies at the same rate straight to the receiver
 *    (arrival − send time).
 *  - max rate: N events emitted as fast as the source takes them (100 per request); deliveries/s
 *    from the first request to the last arrival. Baseline: N direct POSTs, 8 in flight (Sluice's
 *    per-webhook cap), to the same receiver.
 *  - fan-out: one event to 100 webhooks; time from the request to the 100th arrival. Baseline:
 *    100 concurrent direct POSTs.
 */
import { paced, postJson } from "../lib/load.mjs";
import { cpuMsOfProcessesNamed, machineCpuTicks, stealShare, treeCpuMs } from "../lib/proc.mjs";
import { formatProfile, monotonicMicros, profileArgs, summarizeProfile } from "../lib/profile.mjs";
import { startReceiver } from "../lib/receiver.mjs";
import { figure } from "../lib/report.mjs";
import { startSluice } from "../lib/sluice.mjs";
import { mapLimit, percentile, round, summarize } from "../lib/stats.mjs";

/** Emits `count` events per request: {seq, i, sent_at, emitted_at}. */
export const EMITTER = `export default {
  name: "deliver",
  props: { http: { type: "$.interface.http" } },
  async run(event) {
    const { count = 1, seq = 0, sent_at = 0 } = event.body ?? {};
    for (let i = 0; i < count; i++) this.$emit({ seq, i, sent_at, emitted_at: Date.now() });
  },
};`;

export const PER_REQUEST = 5;

export async function deliver(ctx) {
  const receiver = await startReceiver();
  // With --profile, the server runs under the profiler and the fixed-rate phase's samples are read.
  const profiling = ctx.profile ? profileArgs(ctx.profile, "deliver") : undefined;
  const server = await startSluice({ ...ctx.serverOptions, nodeArgs: profiling?.nodeArgs, label: "deliver" });
  let window;
  let stopped = false;
  try {
    // Below the delivery capacity of one webhook, then at the fixed rate.
    const low = await measureLatency(ctx, server, receiver, {
      rate: 100,
      seconds: ctx.quick ? 3 : 5,
      prefix: "deliver.low",
    });
    const from = monotonicMicros();
    const latency = await measureLatency(ctx, server, receiver, {
      rate: ctx.quick ? 250 : 500,
      seconds: ctx.quick ? 4 : 10,
      prefix: "deliver",
      target: "at most 50 ms at 500 events/s",
    });
    window = { from, to: monotonicMicros() };
    const max = await measureMaxRate(ctx, server, receiver);
    const fanout = await measureFanout(ctx, server, receiver);
    await server.stop();
    stopped = true;
    const profile = profiling ? summarizeProfile(profiling.file(), { window }) : undefined;
    if (profile) ctx.log(formatProfile(profile));
    return {
      figures: [...low.figures, ...latency.figures, ...max.figures, ...fanout.figures],
      details: {
        latency_low_rate: low.details,
        latency: latency.details,
        max_rate: max.details,
        fanout: fanout.details,
        ...(profile ? { profile_of_fixed_rate: profile } : {}),
      },
    };
  } finally {
    if (!stopped) await server.stop();
    await receiver.close();
  }
}

/** A source subscribed to a new webhook at `path` on the receiver. */
export async function subscribedSource(server, receiver, path, name) {
  const source = await server.deploy(EMITTER, { name });
  const webhook = await server.api("POST", "/v1/webhooks", { url: `${receiver.url}${path}`, name });
  await server.api("POST", "/v1/subscriptions", { emitter_id: source.id, listener_id: webhook.id });
  return source;
}

/**
 * Warm-up (the runner, the webhook's connection, the delivery worker): `count` events with
 * seq -1, so that none can be mistaken for a measured one, all received before going on.
 */
export async function warmUp(receiver, source, count) {
  receiver.reset();
  await postJson(source.endpoint_url, { count, seq: -1 });
  await receiver.waitForCount(count, 30_000);
}

/** Which event an arrival carries: the request's seq and the event's index in it. */
export const eventKey = (entry) => `${entry.body?.seq}:${entry.body?.i}`;

/** The first arrival of each event, and how many arrivals repeated one. */
export function firstArrivals(received) {
  const seen = new Set();
  const first = [];
  for (const entry of received) {
    const key = eventKey(entry);
    if (seen.has(key)) continue;
    seen.add(key);
    first.push(entry);
  }
  return { first, duplicates: received.length - first.length };
}

/** Emit-to-receiver latency at `rate` events/s; figure keys start with `prefix`. */
async function measureLatency(ctx, server, receiver, { rate, seconds, prefix, target }) {
  const expected = rate * seconds;
  const source = await subscribedSource(server, receiver, `/${prefix}`, prefix.replaceAll(".", "-"));
  await warmUp(receiver, source, 20);

  receiver.reset();
  const requestRate = rate / PER_REQUEST;
  const send = await paced({
    rate: requestRate,
    seconds,
    send: (seq) => postJson(source.endpoint_url, { count: PER_REQUEST, seq, sent_at: Date.now() }),
  });
  // A delivery backlog is reported, not waited for without end: what is missing is counted.
  await receiver.waitForCount(expected, ctx.quick ? 20_000 : 60_000, { partial: true, distinct: eventKey });
  const { first, duplicates } = firstArrivals(receiver.received);
  const missing = expected - first.length;
  const emitToReceiver = first.map((entry) => entry.at - entry.body.emitted_at);
  const requestToReceiver = first.map((entry) => entry.at - entry.body.sent_at);
  const achieved = round(send.achieved_rate * PER_REQUEST, 1);
  ctx.log(
    `  ${achieved} events/s: emit→receiver p50 ${percentile(emitToReceiver, 50)} ms, p99 ${percentile(emitToReceiver, 99)} ms`,
  );

  receiver.reset();
  const direct = await paced({
    rate,
    seconds,
    send: (seq) => postJson(`${receiver.url}/direct`, { seq, sent_at: Date.now() }),
  });
  await receiver.waitForCount(expected, 30_000);
  const directLatency = receiver.received.map((entry) => entry.at - entry.body.sent_at);
  ctx.log(
    `  direct POST at ${direct.achieved_rate}/s: p50 ${percentile(directLatency, 50)} ms, p99 ${percentile(directLatency, 99)} ms`,
  );

  const method = `a source emits ${PER_REQUEST} events per request, requests paced open-loop at ${requestRate}/s for ${seconds} s (${rate} events/s); latency = receiver arrival − Date.now() at $emit inside the component (same machine clock, ms resolution); every event counted`;
  const baselineMethod = `the bench POSTs straight to the same receiver at ${rate}/s; arrival − send time`;
  const figures = [
    figure({
      key: `${prefix}.emit_p50`,
      name: `emit-to-receiver latency p50 at ${rate} events/s`,
      value: percentile(emitToReceiver, 50),
      unit: "ms",
      better: "lower",
      baseline: {
        name: "direct HTTP POST p50",
        value: percentile(directLatency, 50),
        unit: "ms",
        method: baselineMethod,
      },
      method,
    }),
    figure({
      key: `${prefix}.emit_p99`,
      name: `emit-to-receiver latency p99 at ${rate} events/s`,
      value: percentile(emitToReceiver, 99),
      unit: "ms",
      better: "lower",
      baseline: {
        name: "direct HTTP POST p99",
        value: percentile(directLatency, 99),
        unit: "ms",
        method: baselineMethod,
      },
      method,
      ...(target ? { target } : {}),
    }),
    figure({
      key: `${prefix}.request_p99`,
      name: `request-to-receiver latency p99 at ${rate} events/s (ingest + delivery)`,
      value: percentile(requestToReceiver, 99),
      unit: "ms",
      better: "lower",
      baseline: {
        name: "direct HTTP POST p99",
        value: percentile(directLatency, 99),
        unit: "ms",
        method: baselineMethod,
      },
      method: `as above, from the bench's send time of the request to the endpoint`,
    }),
  ];
  return {
    figures,
    details: {
      rate,
      seconds,
      events_per_request: PER_REQUEST,
      achieved_events_per_s: achieved,
      send_failures: send.failures,
      not_delivered_in_time: missing,
      duplicate_deliveries: duplicates,
      emit_to_receiver_ms: summarize(emitToReceiver),
      request_to_receiver_ms: summarize(requestToReceiver),
      direct_ms: summarize(directLatency),
    },
  };
}

async function measureMaxRate(ctx, server, receiver) {
  const total = ctx.quick ? 1000 : 5000;
  const batch = 100;
  const source = await subscribedSource(server, receiver, "/max", "max");
  await warmUp(receiver, source, 10);

  receiver.reset();
  const started = Date.now();
  for (let seq = 0; seq < total / batch; seq++) {
    await postJson(source.endpoint_url, { count: batch, seq, sent_at: Date.now() });
  }
  const accepted = Date.now();
  await receiver.waitForCount(total, ctx.quick ? 30_000 : 120_000, { partial: true, distinct: eventKey });
  const { first, duplicates } = firstArrivals(receiver.received);
  const arrived = first.length;
  const last = Math.max(...first.map((entry) => entry.at));
  const sluiceRate = arrived / ((last - started) / 1000);
  ctx.log(
    `  ${arrived} of ${total} events delivered (${duplicates} duplicates): ${round(sluiceRate, 1)} deliveries/s (accepted in ${accepted - started} ms)`,
  );

  receiver.reset();
  const directStart = Date.now();
  await mapLimit(
    Array.from({ length: total }, (_, i) => i),
    8,
    (seq) => postJson(`${receiver.url}/direct`, { seq, sent_at: Date.now() }),
  );
  const directRate = total / ((Date.now() - directStart) / 1000);
  ctx.log(`  direct, 8 in flight: ${round(directRate, 1)} req/s`);

  return {
    figures: [
      figure({
        key: "deliver.max_rate",
        name: "sustained deliveries/s to one webhook",
        value: sluiceRate,
        unit: "deliveries/s",
        better: "higher",
        baseline: {
          name: "direct POSTs to the receiver, 8 in flight",
          value: directRate,
          unit: "req/s",
        },
        method: `${total} events emitted ${batch} per request as fast as the endpoint accepts them; deliveries/s = arrivals ÷ (last arrival − first request), waiting ${ctx.quick ? 30 : 120} s at most`,
      }),
    ],
    details: {
      events: total,
      arrived,
      duplicate_deliveries: duplicates,
      per_request: batch,
      accept_ms: accepted - started,
      deliveries_per_s: round(sluiceRate, 1),
      direct_per_s: round(directRate, 1),
    },
  };
}

async function measureFanout(ctx, server, receiver) {
  const webhooks = 100;
  const rounds = ctx.quick ? 2 : 5;
  const source = await server.deploy(EMITTER, { name: "fanout" });
  await mapLimit(
    Array.from({ length: webhooks }, (_, i) => i),
    4,
    async (i) => {
      const webhook = await server.api("POST", "/v1/webhooks", {
        url: `${receiver.url}/fan/${i}`,
        name: `fan-${i}`,
      });
      await server.api("POST", "/v1/subscriptions", { emitter_id: source.id, listener_id: webhook.id });
    },
  );
  const times = [];
  const directTimes = [];
  for (let round = 0; round < rounds; round++) {
    receiver.reset();
    const started = Date.now();
    await postJson(source.endpoint_url, { seq: round, sent_at: started });
    await receiver.waitForCount(webhooks, 30_000);
    times.push(Math.max(...receiver.received.map((entry) => entry.at)) - started);

    receiver.reset();
    const directStart = Date.now();
    await Promise.all(
      Array.from({ length: webhooks }, (_, i) => postJson(`${receiver.url}/direct/${i}`, { seq: round })),
    );
    directTimes.push(Math.max(...receiver.received.map((entry) => entry.at)) - directStart);
  }
  ctx.log(`  fan-out to ${webhooks}: ${times.join(", ")} ms; direct ${directTimes.join(", ")} ms`);
  return {
    figures: [
      figure({
        key: "deliver.fanout",
        name: `fan-out of one event to ${webhooks} webhooks (median of ${rounds})`,
        value: percentile(times, 50),
        unit: "ms",
        better: "lower",
        baseline: {
          name: `${webhooks} concurrent direct POSTs`,
          value: percentile(directTimes, 50),
          unit: "ms",
        },
        method: `one request to the endpoint of a source subscribed by ${webhooks} webhooks (paths of the same receiver); time from the request to the ${webhooks}th arrival, median of ${rounds} rounds`,
      }),
    ],
    details: { webhooks, rounds, sluice_ms: times, direct_ms: directTimes },
  };
}

/**
 * `rate` events a second (PER_REQUEST a request, open loop) from `source` for `seconds`, with what
 * they cost: the emit-to-receiver latencies of the first arrivals, how many never arrived or
 * arrived twice, and the CPU ms an event of the server, of its runners and of every `postgres`
 * process of the machine (meaningful only on PostgreSQL), and the share of CPU the host stole.
 * For the A/B tools (ab-deliver.mjs, backlog.mjs); the deliver scenario keeps its own figures.
 */
export async function pacedWithCpu(server, receiver, source, { rate, seconds }) {
  receiver.reset();
  const expected = rate * seconds;
  const before = cpuReading(server);
  const send = await paced({
    rate: rate / PER_REQUEST,
    seconds,
    send: (seq) => postJson(source.endpoint_url, { count: PER_REQUEST, seq, sent_at: Date.now() }),
  });
  await receiver.waitForCount(expected, 60_000, { partial: true, distinct: eventKey });
  const after = cpuReading(server);
  const { first, duplicates } = firstArrivals(receiver.received);
  return {
    achievedRate: send.achieved_rate * PER_REQUEST,
    latency: first.map((entry) => entry.at - entry.body.emitted_at),
    missing: expected - first.length,
    duplicates,
    ...costOf(before, after, expected),
  };
}

/**
 * `total` events emitted 100 a request as fast as `source` takes them, with what they cost:
 * deliveries/s from the first request to the last arrival, and the CPU ms a delivery of the
 * server, its runners and every `postgres` process of the machine (as `pacedWithCpu`). For
 * ab-deliver.mjs `--max`.
 */
export async function maxRateWithCpu(server, receiver, source, { total }) {
  const batch = 100;
  receiver.reset();
  const before = cpuReading(server);
  const started = Date.now();
  for (let seq = 0; seq < total / batch; seq++) {
    await postJson(source.endpoint_url, { count: batch, seq, sent_at: Date.now() });
  }
  await receiver.waitForCount(total, 120_000, { partial: true, distinct: eventKey });
  const after = cpuReading(server);
  const { first, duplicates } = firstArrivals(receiver.received);
  const last = Math.max(...first.map((entry) => entry.at));
  return {
    rate: first.length / ((last - started) / 1000),
    missing: total - first.length,
    duplicates,
    ...costOf(before, after, total),
  };
}

/** The CPU ms so far of the server, its runners and every `postgres` process, and the machine's ticks. */
function cpuReading(server) {
  return {
    tree: treeCpuMs(server.pid),
    postgres: cpuMsOfProcessesNamed("postgres"),
    machine: machineCpuTicks(),
  };
}

/** What `count` events cost between two readings: CPU ms an event of each side, and the share stolen. */
function costOf(before, after, count) {
  return {
    cpuPerEvent: {
      server: (after.tree.server - before.tree.server) / count,
      runner: (after.tree.children - before.tree.children) / count,
      postgres: (after.postgres - before.postgres) / count,
    },
    steal: stealShare(before.machine, after.machine) ?? 0,
  };
}

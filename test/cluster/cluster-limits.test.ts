/**
 * Limits held across nodes (store/jobs/contract.ts `ClaimOptions.groupLimit`, core/delivery/rate-slots.ts), on three
 * nodes behind nginx on one PostgreSQL schema:
 * - a webhook's `rate_limit` of 20/s, fed through every node, reaches the receiver at most 21
 *   times in any second (the nodes book its send slots in one row), and every event arrives;
 * - a workflow with `concurrency` 1, triggered through the nodes in turn, runs its runs one at a
 *   time, in the order they were queued, whichever node runs each;
 * - so does one whose HTTP trigger waits for `$.respond()` (each run runs on the node that took
 *   its request), with its requests sent to every node at once.
 * PostgreSQL only.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { type ClusterRunView, describeCluster, waitForRunsToFinish } from "../support/cluster.js";
import { tcpLocalPorts } from "../support/process-sockets.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { busiestSecond, DeliveryApi, deployEmitter, emit, waitUntil } from "../support/webhook-delivery.js";

const EVENTS = 200;
const RATE = 20;
const RUNS = 24;
const STEP_MS = 100;
/** Requests to the customResponse workflow, sent at once, three to each node. */
const RESPOND_RUNS = 9;

describeCluster("limits across three nodes", (running) => {
  let recorder: Recorder;
  beforeAll(async () => {
    recorder = await startRecorder();
  });
  afterAll(async () => {
    await recorder?.close();
  });

  it(`a webhook's rate_limit of ${RATE}/s, fed through every node, reaches its receiver at most ${RATE + 1} times in any second`, async () => {
    const cluster = running();
    const api = new DeliveryApi(cluster.client);
    const source = await deployEmitter(cluster.client, "limited");
    const webhook = await api.createWebhook({
      url: `${recorder.url}/limited`,
      name: "limited",
      rate_limit: RATE,
    });
    await api.subscribe(source.id, webhook.id);
    const path = new URL(source.endpointUrl).pathname;

    // The events are committed through the three nodes in turn; every node's worker delivers.
    const senders = new Map<number, string>();
    for (let start = 0; start < EVENTS; start += 10) {
      const node = cluster.nodes[(start / 10) % cluster.nodes.length];
      if (!node) throw new Error("no node");
      await emit({ id: source.id, endpointUrl: `${node.url}${path}` }, { count: 10, tag: "limited", start });
    }
    await waitUntil(
      `${EVENTS} deliveries`,
      async () => {
        // Which node sent what: each node's TCP ports, read while its connections are open.
        for (const node of cluster.nodes) {
          const pid = node.process?.child.pid;
          if (pid !== undefined) for (const port of await tcpLocalPorts(pid)) senders.set(port, node.name);
        }
        return recorder.requests.length >= EVENTS;
      },
      60_000,
      100,
    );
    const arrivals = recorder.requests.map((request) => request.at);
    const span = Math.max(...arrivals) - Math.min(...arrivals);
    const peak = busiestSecond(arrivals);
    const byNode = new Map<string, number>();
    for (const request of recorder.requests) {
      const name = senders.get(request.remotePort) ?? "unknown";
      byNode.set(name, (byNode.get(name) ?? 0) + 1);
    }
    console.log(
      `[cluster] rate_limit ${RATE}/s over 3 nodes: ${EVENTS} events in ${span} ms (${(((EVENTS - 1) / span) * 1000).toFixed(2)}/s); busiest second ${peak}; sent by ${JSON.stringify(Object.fromEntries(byNode))}`,
    );
    expect(new Set(recorder.requests.map((request) => request.headers["webhook-id"])).size).toBe(EVENTS);
    expect(peak).toBeLessThanOrEqual(RATE + 1);
    // More than one node delivered: the limit was shared, not held by one node alone.
    expect([...byNode.keys()].filter((name) => name !== "unknown").length).toBeGreaterThan(1);
  }, 120_000);

  it("a workflow with concurrency 1, triggered through every node, runs one run at a time in the order they were queued", async () => {
    const cluster = running();
    const workflow = await cluster.client.data<{ id: string }>("POST", "/v1/workflows", {
      body: {
        name: "fifo",
        concurrency: 1,
        steps: [
          {
            name: "work",
            code: `export default { name: "work", type: "action", props: {}, async run({ steps }) {
              await new Promise((resolve) => setTimeout(resolve, ${STEP_MS}));
              return steps.trigger.event;
            } };`,
          },
        ],
      },
    });
    const runIds: string[] = [];
    for (let n = 0; n < RUNS; n++) {
      const node = cluster.nodes[n % cluster.nodes.length];
      if (!node) throw new Error("no node");
      const run = await node.client.data<{ id: string }>("POST", `/v1/workflows/${workflow.id}/runs`, {
        body: { event: { n } },
      });
      runIds.push(run.id);
    }
    const runs = await waitForRunsToFinish(cluster.client, runIds, 60_000, 250);
    expect(runs.map((run) => run.status)).toEqual(runs.map(() => "success"));
    const started = runs.map((run) => run.started_at_ms ?? 0);
    const gaps = gapsBetween(runs);
    console.log(
      `[cluster] concurrency 1 over 3 nodes: ${RUNS} runs in ${Math.max(...runs.map((run) => run.finished_at_ms ?? 0)) - Math.min(...started)} ms; gap from one run's end to the next's start: min ${Math.min(...gaps)} ms, max ${Math.max(...gaps)} ms`,
    );
    // In queue order, each starting after the one before it finished.
    expect([...started].sort((a, b) => a - b)).toEqual(started);
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(0);
  }, 120_000);

  it("a customResponse workflow with concurrency 1, its requests sent to every node at once, runs one run at a time and answers each", async () => {
    const cluster = running();
    const workflow = await cluster.client.data<{ id: string; endpoint_url: string }>(
      "POST",
      "/v1/workflows",
      {
        body: {
          name: "respond-one-at-a-time",
          concurrency: 1,
          trigger: { http: { customResponse: true } },
          steps: [
            {
              name: "reply",
              code: `export default { type: "action", async run({ steps, $ }) {
              await new Promise((resolve) => setTimeout(resolve, ${STEP_MS}));
              await $.respond({ status: 200, body: { n: steps.trigger.event.body.n } });
            } };`,
            },
          ],
        },
      },
    );
    const path = new URL(workflow.endpoint_url).pathname;
    const requests = Array.from({ length: RESPOND_RUNS }, async (_, n) => {
      const node = cluster.nodes[n % cluster.nodes.length];
      if (!node) throw new Error("no node");
      const response = await fetch(`${node.url}${path}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ n }),
      });
      return {
        status: response.status,
        body: await response.text(),
        runId: response.headers.get("x-sluice-run-id"),
      };
    });
    const answers = await Promise.all(requests);
    expect(answers.map((answer) => `${answer.status} ${answer.body}`)).toEqual(
      answers.map((_, n) => `200 ${JSON.stringify({ n })}`),
    );
    const runs = await waitForRunsToFinish(
      cluster.client,
      answers.map((answer) => answer.runId ?? ""),
      60_000,
      250,
    );
    const byStart = [...runs].sort((a, b) => (a.started_at_ms ?? 0) - (b.started_at_ms ?? 0));
    const gaps = gapsBetween(byStart);
    console.log(
      `[cluster] customResponse, concurrency 1 over 3 nodes: ${RESPOND_RUNS} runs in ${Math.max(...runs.map((run) => run.finished_at_ms ?? 0)) - (byStart[0]?.started_at_ms ?? 0)} ms; gap from one run's end to the next's start: min ${Math.min(...gaps)} ms, max ${Math.max(...gaps)} ms`,
    );
    // Never two at once: each run starts after the one before it finished.
    for (const gap of gaps) expect(gap).toBeGreaterThanOrEqual(0);
  }, 120_000);
});

/** For runs in the order given: from each run's end to the next one's start (negative: they overlapped). */
function gapsBetween(runs: readonly ClusterRunView[]): number[] {
  return runs.slice(1).map((run, index) => (run.started_at_ms ?? 0) - (runs[index]?.finished_at_ms ?? 0));
}

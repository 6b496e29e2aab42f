/**
 * SIGKILL of one node of three under load: the deliveries and workflow runs it held are taken up
 * by the other nodes within 10 s (the claims' 6 s lease, no longer renewed by the dead node's
 * heartbeat, then a claim), and nothing is lost. A receiver that answers after 1.5 s (until the
 * kill; at once after it, so that a webhook's cap of deliveries in flight does not delay what the
 * dead node held) and steps that take 1.5 s keep work in flight on node A when the kill comes:
 * the other nodes are stopped (SIGSTOP) while A commits and claims it. PostgreSQL only.
 */
import { afterAll, beforeAll, expect, it } from "vitest";
import { describeCluster, waitForRunsToFinish } from "../support/cluster.js";
import { tcpLocalPorts } from "../support/process-sockets.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { DeliveryApi, deployEmitter, emit, waitUntil } from "../support/webhook-delivery.js";

const EVENTS = 60;
const RUNS = 30;
const WORK_MS = 1500;
/** From the kill to the moment another node took up what the dead one held, at most. */
const PICKUP_MS = 10_000;

describeCluster("SIGKILL of one node of three", (running) => {
  let recorder: Recorder;
  let slow = true;

  beforeAll(async () => {
    recorder = await startRecorder(() =>
      slow ? new Promise((resolve) => setTimeout(() => resolve({ status: 200 }), WORK_MS)) : { status: 200 },
    );
  });
  afterAll(async () => {
    await recorder?.close();
  });

  it("its deliveries and workflow runs are taken up by the others within 10 s, and every one completes", async () => {
    const cluster = running();
    const [nodeA] = cluster.nodes;
    if (!nodeA) throw new Error("no node");
    const api = new DeliveryApi(cluster.client);
    const source = await deployEmitter(cluster.client, "kill");
    const webhook = await api.createWebhook({ url: `${recorder.url}/kill`, name: "kill" });
    await api.subscribe(source.id, webhook.id);
    const workflow = await cluster.client.data<{ id: string }>("POST", "/v1/workflows", {
      body: {
        name: "slow",
        concurrency: 10,
        steps: [
          {
            name: "work",
            code: `export default { name: "work", type: "action", props: {}, async run({ steps }) {
                await new Promise((resolve) => setTimeout(resolve, ${WORK_MS}));
                return steps.trigger.event;
              } };`,
          },
        ],
      },
    });

    // The other nodes are stopped (SIGSTOP) while the work is committed through node A, so A
    // claims all a webhook's cap of deliveries and the workflow's 10 runs: the work the others
    // must take up once A dies. (With every node running, the node that finished a delivery
    // claims the next one first, and A could hold none when it is killed.)
    const others = cluster.nodes.slice(1).map((node) => node.process?.child.pid);
    const resume = () => {
      for (const pid of others) if (pid !== undefined) process.kill(pid, "SIGCONT");
    };
    for (const pid of others) if (pid !== undefined) process.kill(pid, "SIGSTOP");
    const pidA = nodeA.process?.child.pid;
    if (pidA === undefined) throw new Error("node A is not running");
    const runIds: string[] = [];
    try {
      const throughA = { id: source.id, endpointUrl: `${nodeA.url}${new URL(source.endpointUrl).pathname}` };
      for (let start = 0; start < EVENTS; start += 10)
        await emit(throughA, { count: 10, tag: "kill", start });
      for (let n = 0; n < RUNS; n++) {
        const run = await nodeA.client.data<{ id: string }>("POST", `/v1/workflows/${workflow.id}/runs`, {
          body: { event: { n } },
        });
        runIds.push(run.id);
      }
      // Deliveries in flight from node A (which node sent a request is read from its TCP port).
      await waitUntil(
        "deliveries in flight from node A",
        async () => {
          const portsA = await tcpLocalPorts(pidA);
          // Still unanswered: the receiver answers WORK_MS after a request arrived.
          const pendingA = recorder.requests.filter(
            (request) => portsA.has(request.remotePort) && Date.now() - request.at < WORK_MS - 500,
          );
          return pendingA.length > 0;
        },
        20_000,
        50,
      );
    } finally {
      resume();
    }
    const killedAt = Date.now();
    expect(await cluster.killNode(0)).toEqual({ code: null, signal: "SIGKILL" });
    slow = false;

    await waitUntil(
      "every event delivered",
      () => new Set(recorder.requests.map((request) => request.headers["webhook-id"])).size >= EVENTS,
      120_000,
      200,
    );
    const runs = await waitForRunsToFinish(cluster.client, runIds, 120_000, 500);
    // Deliveries the dead node had sent without recording them are sent again: the copies show
    // when another node took them up.
    const arrivals = new Map<string, number[]>();
    for (const request of recorder.requests) {
      const id = String(request.headers["webhook-id"]);
      arrivals.set(id, [...(arrivals.get(id) ?? []), request.at]);
    }
    const resent = [...arrivals.values()].filter((times) => times.length > 1);
    const resentAfterMs = resent.map((times) => Math.max(...times) - killedAt);
    // A run taken up again ends WORK_MS after it restarted, at the latest.
    const retried = runs.filter((run) => run.attempts > 1);
    const retriedAfterMs = retried.map((run) => (run.finished_at_ms ?? 0) - WORK_MS - killedAt);
    console.log(
      `[cluster] SIGKILL of 1 node of 3: ${arrivals.size} of ${EVENTS} events delivered in ${recorder.requests.length} requests; ${resent.length} sent again by another node, ${Math.min(...resentAfterMs)} to ${Math.max(...resentAfterMs)} ms after the kill; ${runs.filter((run) => run.status === "success").length} of ${RUNS} runs succeeded, ${retried.length} run again by another node, which took them up at most ${Math.max(...retriedAfterMs)} ms after the kill`,
    );
    expect(arrivals.size).toBe(EVENTS);
    expect(runs.map((run) => run.status)).toEqual(runs.map(() => "success"));
    // The dead node held work (8 deliveries in flight to the webhook, and runs): it was taken up.
    expect(resent.length).toBeGreaterThan(0);
    expect(retried.length).toBeGreaterThan(0);
    for (const ms of [...resentAfterMs, ...retriedAfterMs]) expect(ms).toBeLessThanOrEqual(PICKUP_MS);
  }, 240_000);
});

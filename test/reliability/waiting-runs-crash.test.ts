/**
 * Waiting runs survive a crash (issue 45): 1,000 runs wait (900 paused by `$.flow.delay` until one
 * moment, 100 suspended) and 200 more are in flight, some in the middle of a step, when the server
 * is killed (SIGKILL) on SQLite and restarted, or one node of three is killed on PostgreSQL. Then
 * every paused run goes on at its time, every suspended run's resume URL (collected before the
 * kill) still works, and every run ends as it would have without the kill: each step whose outcome
 * committed ran once (each step reports its run's id to a local receiver), only the steps that
 * were running at the kill ran again.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SluiceClient } from "../../src/client/client.js";
import type { WorkflowRun } from "../../src/client/types.js";
import { describeCluster } from "../support/cluster.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { freeLoopbackPort } from "../support/ports.js";
import { heldAnswer, type Recorder, startRecorder } from "../support/recorder.js";
import { RELIABILITY_API_KEY, serverEnvironment } from "../support/server-env.js";
import { killAllServerProcesses, startServerProcess, stopServerProcess } from "../support/server-process.js";
import { waitUntil } from "../support/webhook-delivery.js";

const DELAYED = 900;
const SUSPENDED = 100;
const BUSY = 200;
/** The busy runs in the middle of a step at once: each holds a runner of its own. */
const BUSY_CONCURRENCY = 4;
/** From the first run's start to the moment the delayed runs go on: past the kill and the restart. */
const DELAY_MS = 60_000;

/**
 * One action for every waiting step (so they share runners): it reports `path` and its run's id to
 * the receiver, and waits as `wait` says. `hold` keeps the step running until the receiver answers.
 */
const PROBE = (tag: string) => `// ${tag}
export default {
  name: "probe",
  type: "action",
  props: { path: { type: "string" }, wait: { type: "string", optional: true } },
  async run({ steps, $ }) {
    const { receiver, until } = steps.trigger.event;
    let body;
    if (this.wait === "delay") $.flow.delay(Math.max(1, until - Date.now()));
    if (this.wait === "suspend") body = $.flow.suspend().resume_url;
    await fetch(receiver + "/" + this.path + "/" + $.context.id, { method: "POST", body });
    if (this.wait === "hold") await fetch(receiver + "/hold");
    return this.path;
  },
};`;

const step = (name: string, tag: string, wait?: string) => ({
  name,
  code: PROBE(tag),
  props: { path: name, ...(wait ? { wait } : {}) },
});

interface Scenario {
  readonly label: string;
  readonly client: SluiceClient;
  /** Kills the server (or a node), and resolves with a client of what serves requests after it. */
  readonly crash: () => Promise<SluiceClient>;
}

/** The scenario, start to end; the figures it logs go to the suite's summary. */
async function waitingRunsSurvive(
  receiver: Recorder,
  release: () => void,
  scenario: Scenario,
): Promise<void> {
  const { client, label } = scenario;
  const deploy = (name: string, concurrency: number, steps: ReturnType<typeof step>[]) =>
    client.data<{ id: string }>("POST", "/v1/workflows", { body: { name, concurrency, steps } });
  const delayed = await deploy("delayed", 8, [step("a", "wait", "delay"), step("b", "wait")]);
  const approvals = await deploy("approvals", 8, [step("ask", "wait", "suspend"), step("after", "wait")]);
  const busy = await deploy("busy", BUSY_CONCURRENCY, [
    step("c", "busy"),
    step("d", "busy", "hold"),
    step("e", "busy"),
  ]);

  const until = Date.now() + DELAY_MS;
  const event = { receiver: receiver.url, until };
  const start = async (workflowId: string, count: number): Promise<string[]> => {
    const ids: string[] = [];
    for (let first = 0; first < count; first += 50) {
      const batch = Array.from({ length: Math.min(50, count - first) }, () =>
        client.data<{ id: string }>("POST", `/v1/workflows/${workflowId}/runs`, { body: { event } }),
      );
      ids.push(...(await Promise.all(batch)).map((run) => run.id));
    }
    return ids;
  };
  const started = Date.now();
  const delayedIds = await start(delayed.id, DELAYED);
  const approvalIds = await start(approvals.id, SUSPENDED);
  const busyIds = await start(busy.id, BUSY);

  const count = (path: string) =>
    receiver.requests.filter((request) => request.url.startsWith(`/${path}/`)).length;
  await waitUntil(
    "every waiting run to wait",
    () => (count("a") === DELAYED && count("ask") === SUSPENDED ? true : undefined),
    DELAY_MS / 2,
  );
  const holding = () => receiver.requests.filter((request) => request.url === "/hold").length;
  await waitUntil(
    "the busy runs to hold their step",
    () => (holding() >= BUSY_CONCURRENCY ? true : undefined),
    30_000,
  );
  const waitingAfterMs = Date.now() - started;
  const midStep = holding();
  const resumeUrls = receiver.requests
    .filter((request) => request.url.startsWith("/ask/"))
    .map((r) => r.body);
  console.log(`[${label}] every run waiting or in flight ${waitingAfterMs} ms after the first was started`);
  // The kill comes while every waiting run waits.
  expect(Date.now()).toBeLessThan(until - 2_000);

  const killedAt = Date.now();
  const after = await scenario.crash();
  release();
  const recoveredMs = Date.now() - killedAt;

  // Every resume URL made before the crash still works, through whatever serves requests now.
  const answers = await Promise.all(resumeUrls.map((url) => fetch(url, { method: "POST" })));
  expect(answers.map((answer) => answer.status)).toEqual(resumeUrls.map(() => 200));

  await waitUntil(
    "every run to end",
    () => (count("b") >= DELAYED && count("after") >= SUSPENDED && count("e") >= BUSY ? true : undefined),
    until - Date.now() + 120_000,
    500,
  );
  const runs: WorkflowRun[] = [];
  for (const id of [...delayedIds, ...approvalIds, ...busyIds]) {
    runs.push(
      await waitUntil(`run ${id} to end`, async () => {
        const run = await after.data<WorkflowRun>("GET", `/v1/workflow_runs/${id}`);
        return run.status === "success" || run.status === "error" || run.status === "cancelled"
          ? run
          : undefined;
      }),
    );
  }

  // Each step's report per run: once, but the steps running at the kill.
  const perRun = (path: string, ids: readonly string[]) =>
    ids.map((id) => receiver.requests.filter((request) => request.url === `/${path}/${id}`).length);
  const once = (ids: readonly string[]) => ids.map(() => 1);
  const lateness = receiver.requests
    .filter((request) => request.url.startsWith("/b/"))
    .map((request) => request.at - until)
    .sort((x, y) => x - y);
  const repeatedD = perRun("d", busyIds).filter((calls) => calls > 1).length;
  console.log(
    `[${label}] ${DELAYED} paused, ${SUSPENDED} suspended and ${BUSY} in flight (${midStep} in the middle of a step) at the SIGKILL; ` +
      `serving again ${recoveredMs} ms after it; the paused runs went on ${lateness[0]}–${lateness.at(-1)} ms after their time ` +
      `(p99 ${lateness[Math.floor(lateness.length * 0.99)]} ms); ${resumeUrls.length} resume URLs answered 200; ` +
      `${repeatedD} steps ran again (those running at the kill); ${runs.filter((run) => run.status === "success").length} of ${runs.length} runs succeeded`,
  );
  const twice = [...delayedIds, ...approvalIds].filter(
    (id) => receiver.requests.filter((request) => request.url.endsWith(`/${id}`)).length !== 2,
  );
  for (const id of twice.slice(0, 3)) {
    const run = runs.find((seen) => seen.id === id);
    const reports = receiver.requests.filter((request) => request.url.endsWith(`/${id}`));
    console.log(
      `[${label}] ${id}: ${JSON.stringify(reports.map((r) => [r.url, r.at - killedAt]))} ${JSON.stringify(run?.history)}`,
    );
  }
  expect(runs.map((run) => run.status)).toEqual(runs.map(() => "success"));
  expect(lateness[0]).toBeGreaterThanOrEqual(0);
  expect(perRun("a", delayedIds)).toEqual(once(delayedIds));
  expect(perRun("b", delayedIds)).toEqual(once(delayedIds));
  expect(perRun("ask", approvalIds)).toEqual(once(approvalIds));
  expect(perRun("after", approvalIds)).toEqual(once(approvalIds));
  expect(perRun("c", busyIds)).toEqual(once(busyIds));
  expect(perRun("e", busyIds)).toEqual(once(busyIds));
  expect(repeatedD).toBeLessThanOrEqual(midStep);
  // A wait's end is no attempt: a delayed or suspended run took one.
  expect(runs.slice(0, DELAYED + SUSPENDED).every((run) => run.attempts === 1)).toBe(true);
}

/** A receiver whose `/hold` answers only once `release` is called. */
function holdingReceiver(): { start: () => Promise<Recorder>; release: () => void } {
  const hold = heldAnswer();
  return {
    start: () =>
      startRecorder(async (request) => {
        if (request.url === "/hold") await hold.held;
        return { status: 200 };
      }),
    release: hold.release,
  };
}

const sqlite = dialects.find((dialect) => dialect.name === "sqlite");

describe("waiting runs through a SIGKILL on SQLite", () => {
  let database: TestDatabase;
  let receiver: Recorder;
  const holding = holdingReceiver();

  beforeAll(async () => {
    if (!sqlite) throw new Error("the sqlite test dialect is missing");
    database = await sqlite.create();
    receiver = await holding.start();
  });
  afterEach(async () => {
    await killAllServerProcesses();
  });
  afterAll(async () => {
    holding.release();
    await receiver?.close();
    await database?.cleanup();
  });

  it("resumes each paused run at its time, answers each resume URL, and runs no committed step twice", async () => {
    // A fixed port: the resume URLs name it, and must work after the restart.
    const port = await freeLoopbackPort();
    const env = serverEnvironment(database, {
      SLUICE_PORT: String(port),
      SLUICE_BASE_URL: `http://127.0.0.1:${port}`,
      SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8",
    });
    const first = await startServerProcess(env);
    let second: Awaited<ReturnType<typeof startServerProcess>> | undefined;
    await waitingRunsSurvive(receiver, holding.release, {
      label: "sqlite",
      client: new SluiceClient({ baseUrl: first.url, apiKey: RELIABILITY_API_KEY }),
      crash: async () => {
        first.server.child.kill("SIGKILL");
        expect((await first.server.exited).signal).toBe("SIGKILL");
        second = await startServerProcess(env);
        return new SluiceClient({ baseUrl: second.url, apiKey: RELIABILITY_API_KEY });
      },
    });
    if (second) expect((await stopServerProcess(second.server)).code).toBe(0);
  }, 300_000);
});

describeCluster(
  "waiting runs through a SIGKILL of one node of three",
  (running) => {
    let receiver: Recorder;
    const holding = holdingReceiver();

    beforeAll(async () => {
      receiver = await holding.start();
    });
    afterAll(async () => {
      holding.release();
      await receiver?.close();
    });

    it("the other nodes resume each paused run at its time, answer each resume URL, and run no committed step twice", async () => {
      const cluster = running();
      await waitingRunsSurvive(receiver, holding.release, {
        label: "postgres, 3 nodes",
        client: cluster.client,
        crash: async () => {
          expect((await cluster.killNode(0)).signal).toBe("SIGKILL");
          return cluster.client;
        },
      });
    }, 300_000);
  },
  { env: { SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8" } },
);

/**
 * Replays (issue 45): a replay from a step reuses the original's outcomes of the steps before it
 * (each step counted at a local receiver, so a step that ran again shows); a bulk replay replays
 * the runs a filter matches, never more than `max_in_flight` of them queued or running at once,
 * each once, across a restart of the server; a workflow's runs are listed by status.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SluiceClient } from "../../src/client/client.js";
import type { WorkflowReplay, WorkflowRun } from "../../src/client/types.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { rawRequest, startTestServer, type TestServer } from "../support/server.js";
import { waitUntil } from "../support/wait.js";

/** A step that tells the receiver it ran, under its own path, then does `then` and returns its name. */
const STEP = (path: string, then = "") => `export default {
  type: "action",
  async run({ steps, $ }) {
    await fetch(steps.trigger.event.receiver + "/${path}", { method: "POST" });
    ${then}
    return "${path}";
  },
};`;

const FAILS = `throw new Error("broken");`;
const SLEEPS = `await new Promise((resolve) => setTimeout(resolve, 300));`;

/** first, second (failing until fixed), third: third returns what it saw of the steps before it. */
function threeSteps(secondThen: string) {
  return [
    {
      name: "first",
      code: STEP(
        "first",
        `$.export("tag", "from-first"); $.export("$summary", "first ran"); console.log("first log");`,
      ),
    },
    { name: "second", code: STEP("second", secondThen) },
    {
      name: "third",
      code: `export default {
        type: "action",
        async run({ steps }) {
          await fetch(steps.trigger.event.receiver + "/third", { method: "POST" });
          return { tag: steps.first.tag, first: steps.first.$return_value, second: steps.second.$return_value };
        },
      };`,
    },
  ];
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`replays on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let client: SluiceClient;
    let receiver: Recorder;
    /** The admin's key, which stays valid across the restart below. */
    let apiKey: string;
    const env = {
      SLUICE_ALLOWED_CIDRS: "127.0.0.0/8",
      SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8",
    };

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database, { env });
      client = sluice.client;
      apiKey = sluice.apiKey;
      receiver = await startRecorder();
    });
    afterAll(async () => {
      await sluice?.close();
      await receiver?.close();
      await database?.cleanup();
    });

    const calls = (tag: string, step: string) =>
      receiver.requests.filter((request) => request.url === `/${tag}/${step}`).length;

    const ended = (runId: string) =>
      waitUntil(`run ${runId} to end`, async () => {
        const run = await client.getWorkflowRun(runId);
        return run.status === "queued" || run.status === "running" ? undefined : run;
      });

    async function deploy(name: string, secondThen: string, extra: Record<string, unknown> = {}) {
      return client.data<{ id: string }>("POST", "/v1/workflows", {
        body: { name, steps: threeSteps(secondThen), ...extra },
      });
    }

    async function redeploy(
      id: string,
      name: string,
      secondThen: string,
      extra: Record<string, unknown> = {},
    ) {
      await client.data("PUT", `/v1/workflows/${id}`, {
        body: { name, steps: threeSteps(secondThen), ...extra },
      });
    }

    async function runOnce(workflowId: string, tag: string): Promise<WorkflowRun> {
      const queued = await client.runWorkflow(workflowId, { receiver: `${receiver.url}/${tag}` });
      return ended(queued.id);
    }

    const post = (path: string, body?: unknown) =>
      rawRequest(`${sluice.url}${path}`, {
        method: "POST",
        apiKey,
        ...(body === undefined
          ? {}
          : { headers: { "content-type": "application/json" }, body: JSON.stringify(body) }),
      });

    it("replays a failed run from its failed step: the steps before it keep their outcomes and do not run again", async () => {
      const workflow = await deploy("from-failed", FAILS);
      const original = await runOnce(workflow.id, "failed");
      expect(original.status).toBe("error");
      expect(original.error?.step).toBe("second");
      await redeploy(workflow.id, "from-failed", "");

      const queued = await client.replayWorkflowRun(original.id, { from_failed_step: true });
      expect(queued.replay_of).toBe(original.id);
      const replay = await ended(queued.id);
      expect(replay.status).toBe("success");
      expect(["first", "second", "third"].map((step) => calls("failed", step))).toEqual([1, 2, 1]);
      // The first step's record is the original's, whole: it did not run again.
      expect(replay.steps[0]).toEqual(original.steps[0]);
      expect(replay.steps[0]).toMatchObject({
        return_value: "first",
        exports: { tag: "from-first" },
        summary: "first ran",
      });
      expect(replay.steps[0]?.logs.map((line) => line.message)).toContain("first log");
      // Later steps see the reused outcomes as if the step had just run.
      expect(replay.steps[2]?.return_value).toEqual({ tag: "from-first", first: "first", second: "second" });
    });

    it("replays from a named step, and from the start without a body", async () => {
      const workflow = await deploy("from-named", "");
      const original = await runOnce(workflow.id, "named");
      expect(original.status).toBe("success");

      const fromThird = await ended((await client.replayWorkflowRun(original.id, { from_step: "third" })).id);
      expect(fromThird.status).toBe("success");
      expect(fromThird.steps.slice(0, 2)).toEqual(original.steps.slice(0, 2));
      expect(["first", "second", "third"].map((step) => calls("named", step))).toEqual([1, 1, 2]);

      const fromStart = await post(`/v1/workflow_runs/${original.id}/replay`);
      expect(fromStart.status).toBe(202);
      const again = await ended((fromStart.body as { data: WorkflowRun }).data.id);
      expect(again.status).toBe("success");
      expect(["first", "second", "third"].map((step) => calls("named", step))).toEqual([2, 2, 3]);
    });

    it("refuses a replay from a step with a stable code saying why", async () => {
      const workflow = await deploy("refused-replays", FAILS);
      const failed = await runOnce(workflow.id, "refused");
      await redeploy(workflow.id, "refused-replays", "");
      const succeeded = await runOnce(workflow.id, "refused");
      const replay = (runId: string, body: unknown) => post(`/v1/workflow_runs/${runId}/replay`, body);

      const unknown = await replay(failed.id, { from_step: "fourth" });
      expect([unknown.status, unknown.body]).toMatchObject([400, { error: { code: "unknown_step" } }]);
      expect((unknown.body as { error: { message: string } }).error.message).toContain(
        "first, second, third",
      );
      const notReached = await replay(failed.id, { from_step: "third" });
      expect([notReached.status, notReached.body]).toMatchObject([
        409,
        { error: { code: "step_not_reached" } },
      ]);
      const notFailed = await replay(succeeded.id, { from_failed_step: true });
      expect([notFailed.status, notFailed.body]).toMatchObject([409, { error: { code: "run_not_failed" } }]);
      const both = await replay(failed.id, { from_step: "second", from_failed_step: true });
      expect([both.status, both.body]).toMatchObject([400, { error: { code: "invalid_request" } }]);
      const unknownField = await replay(failed.id, { from: "second" });
      expect([unknownField.status, unknownField.body]).toMatchObject([
        400,
        { error: { code: "invalid_request" } },
      ]);

      // The first step renamed: the original's outcomes no longer belong to the workflow's steps.
      const renamed = threeSteps("").map((step, index) => (index === 0 ? { ...step, name: "start" } : step));
      await client.data("PUT", `/v1/workflows/${workflow.id}`, {
        body: { name: "refused-replays", steps: renamed },
      });
      const changed = await replay(failed.id, { from_failed_step: true });
      expect([changed.status, changed.body]).toMatchObject([409, { error: { code: "workflow_changed" } }]);
      // From the start, it still replays.
      expect((await replay(failed.id, {})).status).toBe(202);

      const other = await sluice.newAccount("replays-elsewhere");
      const hidden = await rawRequest(`${sluice.url}/v1/workflow_runs/${failed.id}/replay`, {
        method: "POST",
        apiKey: other.apiKey,
      });
      expect(hidden.status).toBe(404);
    });

    it("lists a workflow's runs by status, one or a comma-separated list", async () => {
      const workflow = await deploy("by-status", FAILS);
      const failed = await runOnce(workflow.id, "status");
      await redeploy(workflow.id, "by-status", "");
      const succeeded = await runOnce(workflow.id, "status");

      const errors = await client.listWorkflowRuns(workflow.id, { status: "error" });
      expect(errors.data.map((run) => run.id)).toEqual([failed.id]);
      expect(errors.page_info.total_count).toBe(1);
      const both = await client.listWorkflowRuns(workflow.id, { status: "error,success" });
      expect(both.data.map((run) => run.id)).toEqual([succeeded.id, failed.id]);
      const bad = await rawRequest(`${sluice.url}/v1/workflows/${workflow.id}/runs?status=error,broken`, {
        apiKey: sluice.apiKey,
      });
      expect([bad.status, bad.body]).toMatchObject([400, { error: { code: "invalid_status" } }]);
      expect((bad.body as { error: { message: string } }).error.message).toContain("'broken'");
    });

    it("counts the runs a bulk replay would replay (dry_run), by status, failed step and time", async () => {
      const workflow = await deploy("dry-run", FAILS);
      const before = Date.now();
      await runOnce(workflow.id, "dry");
      await runOnce(workflow.id, "dry");
      await redeploy(workflow.id, "dry-run", "");
      await runOnce(workflow.id, "dry");
      const count = async (body: Record<string, unknown>) => {
        const answer = await post(`/v1/workflows/${workflow.id}/replays`, { dry_run: true, ...body });
        expect(answer.status).toBe(200);
        return (answer.body as { data: { total: number } }).data.total;
      };
      expect(await count({})).toBe(3);
      expect(await count({ filter: { status: "error" } })).toBe(2);
      expect(await count({ filter: { status: "error", failed_step: "second" } })).toBe(2);
      expect(await count({ filter: { failed_step: "first" } })).toBe(0);
      expect(await count({ from_failed_step: true })).toBe(2);
      expect(await count({ filter: { since: before - 60_000, until: new Date().toISOString() } })).toBe(3);
      expect(await count({ filter: { since: new Date(Date.now() + 60_000).toISOString() } })).toBe(0);
      const runs = await client.listWorkflowRuns(workflow.id);
      expect(runs.page_info.total_count).toBe(3);

      const refused = async (body: unknown, code: string) => {
        const answer = await post(`/v1/workflows/${workflow.id}/replays`, body);
        expect([answer.status, answer.body]).toMatchObject([400, { error: { code } }]);
      };
      await refused({ filter: { status: "failed" } }, "invalid_status");
      await refused({ filter: { since: "last tuesday" } }, "invalid_filter");
      await refused({ filter: { since: "2026-12-02", until: "2026-12-01" } }, "invalid_filter");
      await refused({ from_failed_step: true, filter: { status: "success" } }, "invalid_filter");
      await refused({ max_in_flight: 0 }, "invalid_request");
      await refused({ max_in_flight: 101 }, "invalid_request");
      await refused({ filter: { state: "error" } }, "invalid_request");
    });

    /** Starts a bulk replay and follows it: the most of its replays seen queued or running at once. */
    async function followBulkReplay(workflowId: string, body: Record<string, unknown>) {
      const answer = await post(`/v1/workflows/${workflowId}/replays`, body);
      expect(answer.status).toBe(202);
      const started = (answer.body as { data: WorkflowReplay }).data;
      let mostInFlight = 0;
      const finished = await waitUntil(
        `bulk replay ${started.id} to end`,
        async () => {
          const live = await client.listWorkflowRuns(workflowId, { status: "queued,running", limit: 100 });
          const replays = live.data.filter((run) => run.replay_of !== null);
          mostInFlight = Math.max(mostInFlight, replays.length);
          const progress = await client.getWorkflowReplay(workflowId, started.id);
          return progress.status === "done" ? progress : undefined;
        },
        60_000,
      );
      return { started, finished, mostInFlight };
    }

    /** The runs of the workflow that replay each original: a map of original id to replays. */
    async function replaysOf(workflowId: string): Promise<Map<string, WorkflowRun[]>> {
      const runs = await client.listWorkflowRuns(workflowId, { limit: 100 });
      const byOriginal = new Map<string, WorkflowRun[]>();
      for (const run of runs.data) {
        if (run.replay_of === null) continue;
        byOriginal.set(run.replay_of, [...(byOriginal.get(run.replay_of) ?? []), run]);
      }
      return byOriginal;
    }

    it("replays the failed runs from their failed step, never more than max_in_flight at once, each once", async () => {
      const workflow = await deploy("bulk", FAILS, { concurrency: 4 });
      const originals: WorkflowRun[] = [];
      for (let index = 0; index < 7; index++) originals.push(await runOnce(workflow.id, "bulk"));
      await redeploy(workflow.id, "bulk", SLEEPS, { concurrency: 4 });

      const { started, finished, mostInFlight } = await followBulkReplay(workflow.id, {
        filter: { status: "error", failed_step: "second" },
        from_failed_step: true,
        max_in_flight: 2,
      });
      expect(started).toMatchObject({ total: 7, max_in_flight: 2, from_failed_step: true });
      expect(finished).toMatchObject({ total: 7, queued: 7, skipped: 0, in_flight: 0, done: 7 });
      expect(mostInFlight).toBeGreaterThan(0);
      expect(mostInFlight).toBeLessThanOrEqual(2);
      const byOriginal = await replaysOf(workflow.id);
      for (const original of originals) {
        const replays = byOriginal.get(original.id) ?? [];
        expect(replays.map((run) => run.status)).toEqual(["success"]);
        expect(replays[0]?.steps[0]).toEqual(original.steps[0]);
      }
      // The first step ran once per original only; the second once more per replay.
      expect(["first", "second", "third"].map((step) => calls("bulk", step))).toEqual([7, 14, 7]);
    });

    it("skips, in a bulk replay from the failed step, the runs whose earlier steps are no longer the workflow's", async () => {
      const workflow = await deploy("bulk-skips", FAILS);
      for (let index = 0; index < 2; index++) await runOnce(workflow.id, "skips");
      const renamed = threeSteps("").map((step, index) => (index === 0 ? { ...step, name: "start" } : step));
      await client.data("PUT", `/v1/workflows/${workflow.id}`, {
        body: { name: "bulk-skips", steps: renamed },
      });
      const { finished } = await followBulkReplay(workflow.id, { from_failed_step: true });
      expect(finished).toMatchObject({ total: 2, queued: 0, skipped: 2, done: 0, status: "done" });
      expect(calls("skips", "second")).toBe(2);
    });

    it("lets a live run go before the rest of a bulk replay", async () => {
      const workflow = await deploy("bulk-and-live", "");
      for (let index = 0; index < 8; index++) await runOnce(workflow.id, "live");
      await redeploy(workflow.id, "bulk-and-live", SLEEPS);
      const answer = await post(`/v1/workflows/${workflow.id}/replays`, { max_in_flight: 2 });
      const bulk = (answer.body as { data: WorkflowReplay }).data;
      expect(bulk.total).toBe(8);
      const live = await runOnce(workflow.id, "live");
      expect(live.status).toBe("success");
      // The live run waited behind at most two replays, not all eight.
      const progress = await client.getWorkflowReplay(workflow.id, bulk.id);
      expect(progress.done).toBeLessThan(8);
      await waitUntil(
        "the bulk replay to end",
        async () => (await client.getWorkflowReplay(workflow.id, bulk.id)).status === "done",
        60_000,
      );
    });

    it("shows a bulk replay only in its own workflow and account", async () => {
      const workflow = await deploy("bulk-owner", "");
      await runOnce(workflow.id, "owner");
      const other = await deploy("bulk-other", "");
      const answer = await post(`/v1/workflows/${workflow.id}/replays`, {});
      const bulk = (answer.body as { data: WorkflowReplay }).data;
      const read = (workflowId: string, key = apiKey) =>
        rawRequest(`${sluice.url}/v1/workflows/${workflowId}/replays/${bulk.id}`, { apiKey: key });
      expect((await read(workflow.id)).status).toBe(200);
      expect((await read(other.id)).status).toBe(404);
      const stranger = await sluice.newAccount("bulk-stranger");
      expect((await read(workflow.id, stranger.apiKey)).status).toBe(404);
    });

    it("goes on with a bulk replay after a restart of the server, replaying each run once", async () => {
      const workflow = await deploy("bulk-restart", "");
      const originals: WorkflowRun[] = [];
      for (let index = 0; index < 6; index++) originals.push(await runOnce(workflow.id, "restart"));
      await redeploy(workflow.id, "bulk-restart", SLEEPS);
      const answer = await post(`/v1/workflows/${workflow.id}/replays`, { max_in_flight: 2 });
      const bulk = (answer.body as { data: WorkflowReplay }).data;
      await waitUntil("the first replays to be queued", async () => {
        const progress = await client.getWorkflowReplay(workflow.id, bulk.id);
        return progress.queued > 0 && progress.queued < 6;
      });

      await sluice.close();
      sluice = await startTestServer(database, { env });
      client = sluice.clientWith(apiKey);

      const finished = await waitUntil(
        "the bulk replay to end",
        async () => {
          const progress = await client.getWorkflowReplay(workflow.id, bulk.id);
          return progress.status === "done" ? progress : undefined;
        },
        60_000,
      );
      expect(finished).toMatchObject({ total: 6, queued: 6, done: 6 });
      const byOriginal = await replaysOf(workflow.id);
      for (const original of originals) {
        expect((byOriginal.get(original.id) ?? []).map((run) => run.status)).toEqual(["success"]);
      }
    });
  });
}

/**
 * Steps are checkpoints (issue 45): a failed run's retry goes on from the step that failed, so the
 * steps that succeeded (each counted at a local receiver) do not run again, and the run's sends go
 * out once, when it ends. A run that fails for good keeps its earlier steps' outcomes. `$.context`
 * names the run, its workflow and its trace, which a replay keeps.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SluiceClient } from "../../src/client/client.js";
import type { WorkflowRun } from "../../src/client/types.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { rawRequest, startTestServer, type TestServer } from "../support/server.js";
import { waitUntil } from "../support/webhook-delivery.js";

/** A step that tells the receiver it ran, under its own path. */
const CALLS = (path: string, then = "") => `export default {
  type: "action",
  props: { db: "$.service.db" },
  async run({ steps, $ }) {
    await fetch(steps.trigger.event.receiver + "/${path}", { method: "POST" });
    ${then}
    return "${path}";
  },
};`;

/** Fails while the step has run fewer than `failures` times (its count kept in its db). */
const FAILS = (failures: number) =>
  `const tries = (this.db.get("tries") ?? 0) + 1;
   this.db.set("tries", tries);
   if (tries <= ${failures}) throw new Error("try " + tries + " fails");`;

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`durable runs on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let client: SluiceClient;
    let receiver: Recorder;

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database, {
        env: {
          SLUICE_ALLOWED_CIDRS: "127.0.0.0/8",
          SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8",
          SLUICE_RETRY_SCHEDULE: "0,0.2,0.2",
          // The second retry waits a minute: long enough to see a run waiting for it.
          SLUICE_RUN_RETRY_SCHEDULE: "0,0.2,60",
        },
      });
      client = sluice.client;
      receiver = await startRecorder();
    });
    afterAll(async () => {
      await sluice?.close();
      await receiver?.close();
      await database?.cleanup();
    });

    /** Runs the workflow and waits for the run to end. */
    async function runOnce(workflowId: string, tag: string): Promise<WorkflowRun> {
      const queued = await client.data<{ id: string }>("POST", `/v1/workflows/${workflowId}/runs`, {
        body: { event: { receiver: `${receiver.url}/${tag}` } },
      });
      return waitUntil(`run ${queued.id} to end`, async () => {
        const run = await client.data<WorkflowRun>("GET", `/v1/workflow_runs/${queued.id}`);
        return run.status === "queued" || run.status === "running" ? undefined : run;
      });
    }

    const calls = (tag: string, step: string) =>
      receiver.requests.filter((request) => request.url === `/${tag}/${step}`).length;

    it("retries a failed run from the step that failed: the steps before it do not run again", async () => {
      const workflow = await client.data<{ id: string }>("POST", "/v1/workflows", {
        body: {
          name: "retried-from-its-step",
          retries: 1,
          steps: [
            { name: "first", code: CALLS("first") },
            { name: "second", code: CALLS("second", FAILS(1)) },
            { name: "third", code: CALLS("third", `$.send.emit({ raw_event: { done: true } });`) },
          ],
        },
      });
      const run = await runOnce(workflow.id, "retried");
      expect(run.status).toBe("success");
      expect(run.attempts).toBe(2);
      expect(run.steps.map((step) => step.return_value)).toEqual(["first", "second", "third"]);
      expect(["first", "second", "third"].map((step) => calls("retried", step))).toEqual([1, 2, 1]);
      const events = await client.data<unknown[]>("GET", `/v1/workflows/${workflow.id}/event_summaries`);
      expect(events).toHaveLength(1);
    });

    it("keeps the earlier steps' outcomes of a run that fails for good", async () => {
      const workflow = await client.data<{ id: string }>("POST", "/v1/workflows", {
        body: {
          name: "fails-for-good",
          retries: 1,
          steps: [
            { name: "first", code: CALLS("first") },
            { name: "second", code: CALLS("second", FAILS(5)) },
            { name: "third", code: CALLS("third") },
          ],
        },
      });
      const run = await runOnce(workflow.id, "for-good");
      expect(run.status).toBe("error");
      expect(run.attempts).toBe(2);
      expect(run.error?.step).toBe("second");
      expect(run.steps.map((step) => step.status)).toEqual(["success", "error"]);
      expect(run.steps[0]?.return_value).toBe("first");
      expect(["first", "second", "third"].map((step) => calls("for-good", step))).toEqual([1, 2, 0]);
    });

    it("shows a failed step waiting for its retry with $attempt: the error and when it is tried again", async () => {
      const workflow = await client.data<{ id: string }>("POST", "/v1/workflows", {
        body: {
          name: "waits-for-a-retry",
          retries: 2,
          steps: [
            { name: "first", code: CALLS("first") },
            { name: "second", code: CALLS("second", FAILS(5)) },
          ],
        },
      });
      const queued = await client.data<{ id: string }>("POST", `/v1/workflows/${workflow.id}/runs`, {
        body: { event: { receiver: `${receiver.url}/waiting` } },
      });
      const waiting = await waitUntil("the run to wait for its second retry", async () => {
        const run = await client.data<WorkflowRun>("GET", `/v1/workflow_runs/${queued.id}`);
        return run.status === "queued" && run.attempts === 2 ? run : undefined;
      });
      const seenAt = Date.now();
      expect(waiting.steps.map((step) => step.status)).toEqual(["success", "error"]);
      const failed = waiting.steps[1];
      expect(failed?.summary).toMatch(/^Try 2 of 3 failed; the step is tried again at /);
      const attempt = failed?.exports.$attempt as {
        error: { message: string };
        resume_ts: string;
        rerun_url: string;
        cancel_url: string;
      };
      expect(attempt.error.message).toContain("try 2 fails");
      // A minute, give or take a tenth.
      const wait = Date.parse(attempt.resume_ts) - seenAt;
      expect(wait).toBeGreaterThan(50_000);
      expect(wait).toBeLessThan(70_000);
      expect(["first", "second"].map((step) => calls("waiting", step))).toEqual([1, 2]);
      expect(waiting.wait).toMatchObject({ kind: "retry", step: "second" });

      // Its rerun_url tries the step again now, as one more attempt (the last: it fails for good).
      expect((await fetch(attempt.rerun_url, { method: "POST" })).status).toBe(200);
      const ended = await waitUntil("the retried run to end", async () => {
        const run = await client.data<WorkflowRun>("GET", `/v1/workflow_runs/${queued.id}`);
        return run.status === "error" ? run : undefined;
      });
      expect(ended.attempts).toBe(3);
      expect(["first", "second"].map((step) => calls("waiting", step))).toEqual([1, 3]);
      expect((await fetch(attempt.cancel_url)).status).toBe(410);
    });

    it("cancels a run waiting for a retry at its step's $attempt.cancel_url", async () => {
      const workflow = await client.data<{ id: string }>("POST", "/v1/workflows", {
        body: {
          name: "retry-cancelled",
          retries: 2,
          steps: [{ name: "only", code: CALLS("only", FAILS(5)) }],
        },
      });
      const queued = await client.data<{ id: string }>("POST", `/v1/workflows/${workflow.id}/runs`, {
        body: { event: { receiver: `${receiver.url}/retry-cancel` } },
      });
      const waiting = await waitUntil("the run to wait for its second retry", async () => {
        const run = await client.data<WorkflowRun>("GET", `/v1/workflow_runs/${queued.id}`);
        return run.status === "queued" && run.attempts === 2 ? run : undefined;
      });
      const { cancel_url } = waiting.steps[0]?.exports.$attempt as { cancel_url: string };
      expect((await fetch(cancel_url, { method: "POST" })).status).toBe(200);
      const run = await client.data<WorkflowRun>("GET", `/v1/workflow_runs/${queued.id}`);
      expect([run.status, run.attempts, run.wait]).toEqual(["cancelled", 2, null]);
      expect(calls("retry-cancel", "only")).toBe(2);
    });

    it("retries a step that timed out only when the workflow asks (retry_timeouts), as Pipedream's auto-retry", async () => {
      const slow = `export default { type: "action", async run() { await new Promise((resolve) => setTimeout(resolve, 5000)); } };`;
      const deploy = (name: string, retryTimeouts?: boolean) =>
        client.data<{ id: string; retry_timeouts: boolean }>("POST", "/v1/workflows", {
          body: {
            name,
            retries: 1,
            ...(retryTimeouts === undefined ? {} : { retry_timeouts: retryTimeouts }),
            steps: [{ name: "slow", code: slow, timeout_seconds: 1 }],
          },
        });
      const plain = await deploy("times-out");
      const asks = await deploy("times-out-retried", true);
      expect([plain.retry_timeouts, asks.retry_timeouts]).toEqual([false, true]);
      const [once, twice] = await Promise.all([runOnce(plain.id, "plain"), runOnce(asks.id, "asks")]);
      expect([once.status, once.error?.reason, once.attempts]).toEqual(["error", "timeout", 1]);
      expect([twice.status, twice.error?.reason, twice.attempts]).toEqual(["error", "timeout", 2]);

      const refused = await rawRequest(`${sluice.url}/v1/workflows`, {
        method: "POST",
        apiKey: sluice.apiKey,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "bad", retry_timeouts: "yes", steps: [{ name: "slow", code: slow }] }),
      });
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({ error: { code: "invalid_workflow" } });
    });

    it("gives each step $.context: the run, its workflow, its attempt and its trace, which a replay keeps", async () => {
      const workflow = await client.data<{ id: string }>("POST", "/v1/workflows", {
        body: {
          name: "context-reader",
          steps: [
            {
              name: "read",
              code: `export default { type: "action", async run({ steps, $ }) { return { context: $.context, trigger: steps.trigger.context }; } };`,
            },
          ],
        },
      });
      const original = await runOnce(workflow.id, "context");
      const seen = original.steps[0]?.return_value as {
        context: Record<string, unknown>;
        trigger: Record<string, unknown>;
      };
      expect(seen.context).toEqual({
        id: original.id,
        ts: seen.trigger.ts,
        workflow_id: workflow.id,
        workflow_name: "context-reader",
        owner_id: expect.any(String),
        trace_id: original.id,
        replay: false,
        attempt: 1,
        run: { runs: 1 },
      });
      expect(seen.trigger).toMatchObject({ id: original.id, trace_id: original.id, replay: false });

      const replay = await client.data<{ id: string }>("POST", `/v1/workflow_runs/${original.id}/replay`);
      const replayed = await waitUntil("the replay to end", async () => {
        const run = await client.data<WorkflowRun>("GET", `/v1/workflow_runs/${replay.id}`);
        return run.status === "queued" || run.status === "running" ? undefined : run;
      });
      const again = replayed.steps[0]?.return_value as { context: Record<string, unknown> };
      expect(again.context).toMatchObject({ id: replay.id, trace_id: original.id, replay: true });
    });
  });
}

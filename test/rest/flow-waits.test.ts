/**
 * Runs that wait (issue 45): `$.flow.delay` pauses a run after its step and goes on at its time or
 * at a request to its resume URL; `$.flow.suspend` waits for a request, whose body and headers
 * become `$resume_data`, and ends cancelled at its time-out; cancel URLs cancel. Each URL works
 * once (then 410), a forged one is not found, and a resume does not count as an attempt. Every
 * step reports to a local receiver, so a step that ran twice would show.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SluiceClient } from "../../src/client/client.js";
import type { WorkflowRun } from "../../src/client/types.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { rawRequest, startTestServer, type TestServer } from "../support/server.js";
import { waitUntil } from "../support/webhook-delivery.js";

/** A step that tells the receiver it ran, then does `then` (its return value is what `then` returns, or its name). */
const STEP = (path: string, then = "") => `export default {
  type: "action",
  async run({ steps, $ }) {
    await fetch(steps.trigger.event.receiver + "/${path}", { method: "POST" });
    ${then}
    return "${path}";
  },
};`;

const WAITING: ReadonlySet<string> = new Set(["queued", "running", "paused", "suspended"]);

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`runs that wait on ${dialect.name}`, () => {
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

    async function workflowOf(name: string, steps: { name: string; code: string }[], extra = {}) {
      return client.data<{ id: string; endpoint_url: string | null }>("POST", "/v1/workflows", {
        body: { name, steps, ...extra },
      });
    }

    async function start(workflowId: string, tag: string): Promise<string> {
      const queued = await client.data<{ id: string }>("POST", `/v1/workflows/${workflowId}/runs`, {
        body: { event: { receiver: `${receiver.url}/${tag}` } },
      });
      return queued.id;
    }

    const getRun = (id: string) => client.data<WorkflowRun>("GET", `/v1/workflow_runs/${id}`);

    async function runIn(id: string, status: string): Promise<WorkflowRun> {
      return waitUntil(`run ${id} to be ${status}`, async () => {
        const run = await getRun(id);
        if (!WAITING.has(run.status) && run.status !== status) {
          throw new Error(`run ${id} ended ${run.status}: ${JSON.stringify(run.error)}`);
        }
        return run.status === status ? run : undefined;
      });
    }

    const calls = (tag: string, step: string) =>
      receiver.requests.filter((request) => request.url === `/${tag}/${step}`).length;

    /** The queue's jobs of a run (its wake-up, its next attempt). */
    const jobsOf = (runId: string) =>
      sluice.server.store.db.selectFrom("jobs").select("id").where("payload", "like", `%${runId}%`).execute();

    /** The URLs the waiting step exported (`urls`). */
    const urlsOf = (run: WorkflowRun, step = "wait") =>
      run.steps.find((record) => record.name === step)?.exports.urls as {
        resume_url: string;
        cancel_url: string;
      };

    it("pauses a run after $.flow.delay and goes on with the next step when the delay ends", async () => {
      const workflow = await workflowOf("delayed", [
        { name: "wait", code: STEP("wait", `$.export("urls", $.flow.delay(400));`) },
        { name: "after", code: STEP("after") },
      ]);
      const id = await start(workflow.id, "delayed");
      const paused = await runIn(id, "paused");
      expect(paused.wait).toMatchObject({ kind: "delay", step: "wait" });
      expect(paused.finished_at_ms).toBeNull();
      expect(calls("delayed", "after")).toBe(0);
      const done = await runIn(id, "success");
      expect(done.steps.map((step) => step.return_value)).toEqual(["wait", "after"]);
      expect([calls("delayed", "wait"), calls("delayed", "after")]).toEqual([1, 1]);
      // A resume is not another attempt.
      expect(done.attempts).toBe(1);
      expect(done.wait).toBeNull();
      expect(done.history.map((entry) => entry.event)).toEqual(["attempt", "paused", "resumed"]);
      const pausedAt = done.history[1];
      expect((pausedAt?.until_ms ?? 0) - (pausedAt?.at_ms ?? 0)).toBe(400);
      expect(done.history[2]?.cause).toBe("the delay ended");
    });

    it("goes on at once at a request to the resume URL; the URL then answers 410", async () => {
      const workflow = await workflowOf("resumed-early", [
        { name: "wait", code: STEP("wait", `$.export("urls", $.flow.delay(3_600_000));`) },
        { name: "after", code: STEP("after") },
      ]);
      const id = await start(workflow.id, "early");
      const { resume_url, cancel_url } = urlsOf(await runIn(id, "paused"));
      expect(resume_url).toMatch(new RegExp(`/flow/${id}/resume/`));
      const resumed = await fetch(resume_url);
      expect(resumed.status).toBe(200);
      expect(await resumed.json()).toMatchObject({ data: { id, status: "queued" } });
      const done = await runIn(id, "success");
      expect(calls("early", "after")).toBe(1);
      expect(done.history.find((entry) => entry.event === "resumed")?.cause).toBe("resume_url");

      for (const url of [resume_url, cancel_url]) {
        const again = await fetch(url, { method: "POST" });
        expect(again.status).toBe(410);
        expect(await again.json()).toMatchObject({ error: { code: "flow_url_used" } });
      }
    });

    it("ends a paused run cancelled at its cancel URL: the steps after the wait never run", async () => {
      const workflow = await workflowOf("cancelled", [
        { name: "wait", code: STEP("wait", `$.export("urls", $.flow.delay(3_600_000));`) },
        { name: "after", code: STEP("after") },
      ]);
      const id = await start(workflow.id, "cancel");
      const { cancel_url } = urlsOf(await runIn(id, "paused"));
      const cancelled = await fetch(cancel_url, { method: "POST" });
      expect(cancelled.status).toBe(200);
      const run = await getRun(id);
      expect(run.status).toBe("cancelled");
      expect(run.finished_at_ms).not.toBeNull();
      expect(run.history.at(-1)).toMatchObject({ event: "cancelled", step: "wait", cause: "cancel_url" });
      // The run's job came due and ended: nothing is left to run the next step.
      await waitUntil("the cancelled run's job to end", async () => {
        return (await jobsOf(id)).length === 0 ? true : undefined;
      });
      expect(calls("cancel", "after")).toBe(0);
    });

    it("deletes a paused run with its workflow: its URLs are then not found, and its job is gone", async () => {
      const workflow = await workflowOf("deleted", [
        { name: "wait", code: STEP("wait", `$.export("urls", $.flow.delay(3_600_000));`) },
        { name: "after", code: STEP("after") },
      ]);
      const id = await start(workflow.id, "deleted");
      const { resume_url, cancel_url } = urlsOf(await runIn(id, "paused"));
      await client.request("DELETE", `/v1/workflows/${workflow.id}`);
      expect(await jobsOf(id)).toEqual([]);
      for (const url of [resume_url, cancel_url]) {
        const answer = await fetch(url, { method: "POST" });
        expect(answer.status).toBe(404);
        expect(await answer.json()).toMatchObject({ error: { code: "not_found" } });
      }
      const byKey = await rawRequest(`${sluice.url}/v1/workflow_runs/${id}/resume`, {
        method: "POST",
        apiKey: sluice.apiKey,
      });
      expect(byKey.status).toBe(404);
      expect(calls("deleted", "after")).toBe(0);
    });

    it("suspends a run until its resume URL is called: the body and headers are the step's $resume_data", async () => {
      // The step sends its resume URL out before the run waits, as an approval email would be.
      const workflow = await workflowOf("approval", [
        {
          name: "ask",
          code: STEP(
            "ask",
            `const { resume_url } = $.flow.suspend();
             await $.send.http({ method: "POST", url: steps.trigger.event.receiver + "/approve", data: { resume_url } });`,
          ),
        },
        {
          name: "after",
          code: `export default {
            type: "action",
            async run({ steps }) { return steps.ask.$resume_data; },
          };`,
        },
      ]);
      const id = await start(workflow.id, "approval");
      const suspended = await runIn(id, "suspended");
      expect(suspended.wait?.kind).toBe("suspend");
      // 24 hours by default.
      const until = suspended.wait?.until_ms ?? 0;
      expect(until - (suspended.history.at(-1)?.at_ms ?? 0)).toBe(24 * 60 * 60 * 1000);
      const asked = receiver.requests.find((request) => request.url === "/approval/approve");
      const { resume_url } = JSON.parse(asked?.body ?? "{}") as { resume_url: string };
      const resumed = await fetch(resume_url, {
        method: "POST",
        headers: { "content-type": "application/json", "x-approver": "ana", authorization: "Bearer secret" },
        body: JSON.stringify({ approved: true }),
      });
      expect(resumed.status).toBe(200);
      const done = await runIn(id, "success");
      const data = done.steps[1]?.return_value as { body: unknown; headers: Record<string, string> };
      expect(data.body).toEqual({ approved: true });
      expect(data.headers["x-approver"]).toBe("ana");
      expect(data.headers.authorization).toBeUndefined();
      expect(done.steps[0]?.exports.$resume_data).toEqual(data);
      expect(done.sends).toHaveLength(1);
      expect(done.attempts).toBe(1);
    });

    it("takes a request to the resume URL that comes before the step ended, once its wait begins", async () => {
      // The callback answers the step's request only once its own request to the resume URL was made.
      let answered: Promise<number> | undefined;
      const callback = await startRecorder((request) => {
        answered = fetch(request.body, { method: "POST", body: "early" }).then((response) => response.status);
        return { status: 200 };
      });
      try {
        const workflow = await workflowOf("early-callback", [
          {
            name: "wait",
            code: `export default { type: "action", async run({ steps, $ }) {
              const { resume_url } = $.flow.suspend();
              await fetch(steps.trigger.event.callback, { method: "POST", body: resume_url });
              await new Promise((resolve) => setTimeout(resolve, 200));
            } };`,
          },
          {
            name: "after",
            code: `export default { type: "action", async run({ steps }) { return steps.wait.$resume_data.body; } };`,
          },
        ]);
        const queued = await client.data<{ id: string }>("POST", `/v1/workflows/${workflow.id}/runs`, {
          body: { event: { callback: callback.url } },
        });
        const done = await runIn(queued.id, "success");
        expect(await answered).toBe(200);
        expect(done.steps[1]?.return_value).toBe("early");
      } finally {
        await callback.close();
      }
    });

    it("cancels a suspended run at its time-out; its resume URL then answers 410 flow_url_expired", async () => {
      const workflow = await workflowOf("times-out", [
        { name: "wait", code: STEP("wait", `$.export("urls", $.flow.suspend(300));`) },
        { name: "after", code: STEP("after") },
      ]);
      const id = await start(workflow.id, "timeout");
      const run = await runIn(id, "cancelled");
      expect(run.error).toMatchObject({ step: "wait", reason: "suspend_timeout" });
      expect(run.history.at(-1)).toMatchObject({ event: "cancelled", cause: "the suspend timed out" });
      const late = await fetch(urlsOf(run).resume_url);
      expect(late.status).toBe(410);
      expect(await late.json()).toMatchObject({ error: { code: "flow_url_expired" } });
      expect(calls("timeout", "after")).toBe(0);
    });

    it("runs a step again after $.flow.rerun, with $.context.run's count and context, then goes on", async () => {
      const workflow = await workflowOf("polls", [
        {
          name: "poll",
          code: STEP(
            "poll",
            `const { runs, context } = $.context.run;
             if (runs < 3) $.flow.rerun(100, { seen: runs });
             return { runs, context: context ?? null };`,
          ),
        },
        { name: "after", code: STEP("after") },
      ]);
      const id = await start(workflow.id, "polls");
      const done = await runIn(id, "success");
      expect(done.steps.map((step) => step.name)).toEqual(["poll", "after"]);
      expect(done.steps[0]?.return_value).toEqual({ runs: 3, context: { seen: 2 } });
      expect([calls("polls", "poll"), calls("polls", "after")]).toEqual([3, 1]);
      expect(done.attempts).toBe(1);
      expect(done.history.map((entry) => entry.event)).toEqual([
        "attempt",
        "paused",
        "rerun",
        "paused",
        "rerun",
      ]);
      expect(done.history[1]?.cause).toBe("$.flow.rerun");
    });

    it("goes on with the next step once a step asked to rerun more than its maxRetries", async () => {
      const workflow = await workflowOf("reruns-for-ever", [
        { name: "poll", code: STEP("poll", `$.flow.rerun(50, null, 2); return $.context.run.runs;`) },
        { name: "after", code: STEP("after") },
      ]);
      const id = await start(workflow.id, "forever");
      const done = await runIn(id, "success");
      expect(done.steps[0]?.return_value).toBe(3);
      expect([calls("forever", "poll"), calls("forever", "after")]).toEqual([3, 1]);
    });

    it("reruns a step at once at a request to its resume URL, with the request as $.context.run.callback_request", async () => {
      const workflow = await workflowOf("callback", [
        {
          name: "wait",
          code: STEP(
            "wait",
            `if ($.context.run.runs === 1) {
               $.export("urls", $.flow.rerun(3_600_000, { job: 7 }, 1));
               return null;
             }
             return { callback: $.context.run.callback_request, context: $.context.run.context };`,
          ),
        },
      ]);
      const id = await start(workflow.id, "callback");
      const paused = await runIn(id, "paused");
      expect(paused.wait).toMatchObject({ kind: "rerun", step: "wait" });
      const resumed = await fetch(urlsOf(paused).resume_url, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ status: "done" }),
      });
      expect(resumed.status).toBe(200);
      const done = await runIn(id, "success");
      const value = done.steps[0]?.return_value as { callback: { body: unknown }; context: unknown };
      expect(value.callback.body).toEqual({ status: "done" });
      expect(value.context).toEqual({ job: 7 });
      expect(calls("callback", "wait")).toBe(2);
    });

    it("resumes and cancels with an API key; a run that is not waiting is a conflict, another account's is not found", async () => {
      const workflow = await workflowOf("by-api", [
        { name: "wait", code: STEP("wait", `$.export("urls", $.flow.suspend());`) },
        {
          name: "after",
          code: `export default { type: "action", async run({ steps }) { return steps.wait.$resume_data; } };`,
        },
      ]);
      const first = await start(workflow.id, "api");
      await runIn(first, "suspended");
      const resumed = await client.data<WorkflowRun>("POST", `/v1/workflow_runs/${first}/resume`, {
        body: { data: { ok: 1 } },
      });
      expect(resumed.status).toBe("queued");
      const done = await runIn(first, "success");
      expect(done.steps[1]?.return_value).toEqual({ body: { ok: 1 }, headers: {} });
      const notWaiting = await rawRequest(`${sluice.url}/v1/workflow_runs/${first}/cancel`, {
        method: "POST",
        apiKey: sluice.apiKey,
      });
      expect(notWaiting.status).toBe(409);
      expect(notWaiting.body).toMatchObject({ error: { code: "run_not_waiting" } });

      const second = await start(workflow.id, "api");
      await runIn(second, "suspended");
      const other = await sluice.newAccount("someone-else");
      for (const action of ["resume", "cancel"]) {
        const hidden = await rawRequest(`${sluice.url}/v1/workflow_runs/${second}/${action}`, {
          method: "POST",
          apiKey: other.apiKey,
        });
        expect(hidden.status).toBe(404);
      }
      const cancelled = await client.data<WorkflowRun>("POST", `/v1/workflow_runs/${second}/cancel`);
      expect(cancelled.status).toBe("cancelled");
      expect(cancelled.history.at(-1)).toMatchObject({ event: "cancelled", cause: "the API" });
    });

    it("refuses bad input: a wait out of range, a forged URL, a resume over 1 MB, $.respond() after a wait", async () => {
      const outOfRange = await workflowOf("out-of-range", [
        { name: "zero", code: STEP("zero", `$.flow.delay(0);`) },
      ]);
      const zero = await runIn(await start(outOfRange.id, "range"), "error");
      expect(zero.error?.message).toMatch(
        /\$\.flow\.delay\(ms\): the wait must be a number of milliseconds from 1 to 31536000000/,
      );

      const waits = await workflowOf("forged", [
        { name: "wait", code: STEP("wait", `$.export("urls", $.flow.suspend());`) },
      ]);
      const id = await start(waits.id, "forged");
      const { resume_url } = urlsOf(await runIn(id, "suspended"));
      const forged = await fetch(resume_url.replace(/.{4}$/, "AAAA"));
      expect(forged.status).toBe(404);
      const big = await fetch(resume_url, { method: "POST", body: "x".repeat(1024 * 1024 + 1) });
      expect(big.status).toBe(413);
      expect(await big.json()).toMatchObject({ error: { code: "resume_data_too_large" } });
      expect((await getRun(id)).status).toBe("suspended");

      const responds = await workflowOf(
        "responds-late",
        [
          {
            name: "wait",
            code: `export default { type: "action", async run({ $ }) { $.flow.delay(10); } };`,
          },
          {
            name: "respond",
            code: `export default { type: "action", async run({ $ }) { await $.respond({ status: 200, body: "late" }); } };`,
          },
        ],
        { trigger: { http: { customResponse: true } } },
      );
      const answer = await fetch(responds.endpoint_url ?? "", { method: "POST", body: "{}" });
      expect(answer.status).toBe(502);
      expect(await answer.json()).toMatchObject({ error: { code: "no_response" } });
      const runId = answer.headers.get("x-sluice-run-id") ?? "";
      const late = await runIn(runId, "error");
      expect(late.error).toMatchObject({ step: "respond", reason: "respond_after_wait" });
    });

    it("fails a run whose workflow's steps changed while it waited, without retrying it", async () => {
      const steps = [
        { name: "wait", code: STEP("wait", `$.export("urls", $.flow.suspend());`) },
        { name: "after", code: STEP("after") },
      ];
      const workflow = await workflowOf("changed-while-waiting", steps, { retries: 2 });
      const id = await start(workflow.id, "changed");
      await runIn(id, "suspended");
      await client.data("PUT", `/v1/workflows/${workflow.id}`, {
        body: {
          name: "changed-while-waiting",
          retries: 2,
          steps: [{ name: "other", code: STEP("other") }, steps[1]],
        },
      });
      await client.data("POST", `/v1/workflow_runs/${id}/resume`, { body: {} });
      const run = await runIn(id, "error");
      expect(run.error?.reason).toBe("workflow_changed");
      expect(run.attempts).toBe(1);
      expect(calls("changed", "after")).toBe(0);
    });
  });
}

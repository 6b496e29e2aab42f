/**
 * Steps are checkpoints (issue 45): the server is killed (SIGKILL) while a workflow run is in its
 * second step, on each database. After a restart the run goes on from that step, on its own: the
 * first step, whose outcome committed, does not run again; the step that was running runs again
 * (at least once); the third runs once. Each step's side effect is counted at a local receiver.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SluiceClient } from "../../src/client/client.js";
import type { WorkflowRun } from "../../src/client/types.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { heldAnswer, type Recorder, startRecorder } from "../support/recorder.js";
import { RELIABILITY_API_KEY, serverEnvironment } from "../support/server-env.js";
import { killAllServerProcesses, startServerProcess, stopServerProcess } from "../support/server-process.js";
import { waitUntil } from "../support/webhook-delivery.js";

/** Tells the receiver it ran; the second step then waits for the receiver's answer to /hold. */
const STEP = (path: string, hold = false) => `export default {
  type: "action",
  async run({ steps }) {
    const { receiver } = steps.trigger.event;
    await fetch(receiver + "/${path}", { method: "POST" });
    ${hold ? `await fetch(receiver + "/hold");` : ""}
    return "${path}";
  },
};`;

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`a crash in the middle of a workflow run on ${dialect.name}`, () => {
    let database: TestDatabase;
    let receiver: Recorder;
    const hold = heldAnswer();

    beforeAll(async () => {
      database = await dialect.create();
      receiver = await startRecorder(async (request) => {
        if (request.url === "/hold") await hold.held;
        return { status: 200 };
      });
    });
    afterEach(async () => {
      await killAllServerProcesses();
    });
    afterAll(async () => {
      hold.release();
      await receiver?.close();
      await database?.cleanup();
    });

    const calls = (path: string) => receiver.requests.filter((request) => request.url === `/${path}`).length;

    it("goes on from the step that was running after a SIGKILL and a restart; a committed step never runs again", async () => {
      const env = serverEnvironment(database, { SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8" });
      const first = await startServerProcess(env);
      const client = new SluiceClient({ baseUrl: first.url, apiKey: RELIABILITY_API_KEY });
      const workflow = await client.data<{ id: string }>("POST", "/v1/workflows", {
        body: {
          name: "killed-mid-run",
          retries: 0,
          steps: [
            { name: "first", code: STEP("first") },
            { name: "second", code: STEP("second", true) },
            { name: "third", code: STEP("third") },
          ],
        },
      });
      const queued = await client.data<{ id: string }>("POST", `/v1/workflows/${workflow.id}/runs`, {
        body: { event: { receiver: receiver.url } },
      });
      await waitUntil("the second step to wait", () => (calls("hold") === 1 ? true : undefined), 30_000);
      first.server.child.kill("SIGKILL");
      expect((await first.server.exited).signal).toBe("SIGKILL");
      hold.release();

      const started = Date.now();
      const second = await startServerProcess(env);
      const again = new SluiceClient({ baseUrl: second.url, apiKey: RELIABILITY_API_KEY });
      const run = await waitUntil(
        "the run to end after the restart",
        async () => {
          const seen = await again.data<WorkflowRun>("GET", `/v1/workflow_runs/${queued.id}`);
          return seen.status === "queued" || seen.status === "running" ? undefined : seen;
        },
        60_000,
      );
      console.log(
        `[${dialect.name}] SIGKILL in step 2 of 3: the run ended ${run.status} ${Date.now() - started} ms after the restart, ` +
          `after ${run.attempts} attempts; steps ran first ${calls("first")}, second ${calls("second")}, third ${calls("third")}`,
      );
      expect(run.status).toBe("success");
      expect(run.steps.map((step) => step.return_value)).toEqual(["first", "second", "third"]);
      expect([calls("first"), calls("second"), calls("third")]).toEqual([1, 2, 1]);
      expect((await stopServerProcess(second.server)).code).toBe(0);
    }, 120_000);
  });
}

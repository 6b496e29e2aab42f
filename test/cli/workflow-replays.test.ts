/**
 * Replays from the `sluice` command, run as a subprocess against a real server on each database:
 * a run replayed from its failed step or a named one, a workflow's failed runs counted and then
 * replayed a few at a time, a bulk replay's progress, runs listed by status, and the messages for
 * flags that do not go together.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SluiceClient } from "../../src/client/client.js";
import type { WorkflowReplay, WorkflowRun } from "../../src/client/types.js";
import { type CliResult, runCli } from "../support/cli.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";
import { waitUntil } from "../support/wait.js";

const step = (body: string) => `export default { type: "action", async run({ steps, $ }) { ${body} } };`;

/** check, charge (broken until fixed), notify. */
const steps = (charge: string) => [
  { name: "check", code: step(`$.export("$summary", "checked"); return { at: Date.now() };`) },
  { name: "charge", code: step(charge) },
  { name: "notify", code: step(`return "charged " + steps.charge.$return_value;`) },
];

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`sluice workflows replay on ${dialect.name}`, () => {
    let database: TestDatabase;
    let server: TestServer;
    let client: SluiceClient;
    let env: Record<string, string>;
    let workflowId: string;
    const failed: WorkflowRun[] = [];
    const since = new Date().toISOString();

    const sluice = (...args: string[]): Promise<CliResult> => runCli(args, env);
    const ended = (runId: string) =>
      waitUntil(`run ${runId} to end`, async () => {
        const run = await client.getWorkflowRun(runId);
        return run.status === "queued" || run.status === "running" ? undefined : run;
      });

    beforeAll(async () => {
      database = await dialect.create();
      server = await startTestServer(database);
      client = server.client;
      env = {
        HOME: tempDir("sluice-cli-replays-"),
        SLUICE_API_KEY: server.apiKey,
        SLUICE_BASE_URL: server.url,
      };
      const body = { name: "payments", steps: steps(`throw new Error("card declined");`) };
      workflowId = (await client.data<{ id: string }>("POST", "/v1/workflows", { body })).id;
      for (let index = 0; index < 3; index++) {
        failed.push(await ended((await client.runWorkflow(workflowId, { order: index })).id));
      }
      await client.data("PUT", `/v1/workflows/${workflowId}`, {
        body: { name: "payments", steps: steps(`return steps.trigger.event.order * 100;`) },
      });
    }, 60_000);
    afterAll(async () => {
      await server?.close();
      await database?.cleanup();
    });

    it("runs --status lists only the runs of those statuses", async () => {
      const listed = await sluice("workflows", "runs", "payments", "--status", "error", "--json");
      expect(listed.code).toBe(0);
      const runs = JSON.parse(listed.stdout) as WorkflowRun[];
      expect(runs.map((run) => run.id).sort()).toEqual(failed.map((run) => run.id).sort());
      const none = await sluice("workflows", "runs", "payments", "--status", "success", "--json");
      expect(JSON.parse(none.stdout)).toEqual([]);
      const bad = await sluice("workflows", "runs", "payments", "--status", "failed");
      expect(bad.code).not.toBe(0);
      expect(bad.stderr).toContain("'failed' is not one");
    });

    it("replay --from-failed-step reuses the steps before the failed one and runs from it", async () => {
      const original = failed[0] as WorkflowRun;
      const replayed = await sluice("workflows", "replay", original.id, "--from-failed-step", "--json");
      expect(replayed.code).toBe(0);
      const replay = JSON.parse(replayed.stdout) as WorkflowRun;
      expect(replay).toMatchObject({ status: "success", replay_of: original.id });
      expect(replay.steps[0]).toEqual(original.steps[0]);
      expect(replay.steps.map((record) => record.return_value).slice(1)).toEqual([0, "charged 0"]);

      const fromNotify = await sluice("workflows", "replay", replay.id, "--from-step", "notify", "--json");
      const again = JSON.parse(fromNotify.stdout) as WorkflowRun;
      expect(again.steps.slice(0, 2)).toEqual(replay.steps.slice(0, 2));
    });

    it("replay says what is wrong with a step or with flags that do not go together", async () => {
      const original = failed[1] as WorkflowRun;
      const unknown = await sluice("workflows", "replay", original.id, "--from-step", "refund");
      expect(unknown.code).not.toBe(0);
      expect(unknown.stderr).toContain("has no step 'refund'");
      const both = await sluice(
        "workflows",
        "replay",
        original.id,
        "--from-step",
        "charge",
        "--from-failed-step",
      );
      expect(both.stderr).toContain("--from-step or --from-failed-step, not both");
      const bulkFlag = await sluice("workflows", "replay", original.id, "--failed");
      expect(bulkFlag.stderr).toContain("--failed is for replaying a workflow's runs");
      const noFilter = await sluice("workflows", "replay", "payments");
      expect(noFilter.code).not.toBe(0);
      expect(noFilter.stderr).toContain("Say which runs to replay");
    });

    it("replay WF --failed --dry-run counts the failed runs, then replays them a few at a time", async () => {
      const replayFailed = (...more: string[]) =>
        sluice(
          "workflows",
          "replay",
          "payments",
          "--failed",
          "--since",
          since,
          "--from-failed-step",
          ...more,
        );
      const counted = await replayFailed("--dry-run");
      expect(counted.stderr).toBe("");
      expect(counted.stdout).toBe("3 run(s) of payments would be replayed from their failed step.\n");

      const started = await replayFailed("--max-in-flight", "2");
      expect(started.code).toBe(0);
      const id = /sluice workflows replay-status payments (rp_\w+)/.exec(started.stdout)?.[1] ?? "";
      expect(started.stdout).toContain(
        "Replaying 3 run(s) of payments from their failed step, at most 2 at once.",
      );
      await waitUntil("the bulk replay to end", async () => {
        const progress: WorkflowReplay = await client.getWorkflowReplay(workflowId, id);
        return progress.status === "done";
      });
      const status = await sluice("workflows", "replay-status", "payments", id, "--json");
      expect(JSON.parse(status.stdout)).toMatchObject({ id, status: "done", total: 3, queued: 3, done: 3 });
      const table = await sluice("workflows", "replay-status", "payments", id);
      expect(table.stdout).toMatch(/status\s*│ done/);

      const runs = await client.listWorkflowRuns(workflowId, { status: "success", limit: 100 });
      const replayed = runs.data.map((run) => run.replay_of);
      for (const original of failed) expect(replayed).toContain(original.id);
    });
  });
}

/**
 * Runs that wait, from the `sluice` command as a subprocess: `workflows run` shows a suspended run
 * with how to resume or cancel it, `workflows resume-run --data` hands the data to the step as
 * `$resume_data` and prints the run with its history, `workflows cancel-run` cancels one, and a run
 * that is not waiting is a clear error.
 */
import fs from "node:fs";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { WorkflowRun } from "../../src/client/types.js";
import { type CliResult, runCli } from "../support/cli.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

let database: TestDatabase;
let server: TestServer;
let env: Record<string, string>;
let workflowId = "";

const sluice = (...args: string[]): Promise<CliResult> => runCli(args, env);

beforeAll(async () => {
  const sqlite = dialects.find((dialect) => dialect.name === "sqlite");
  if (!sqlite) throw new Error("the sqlite test dialect is missing");
  database = await sqlite.create();
  server = await startTestServer(database);
  env = { HOME: tempDir("sluice-cli-home-"), SLUICE_API_KEY: server.apiKey, SLUICE_BASE_URL: server.url };
  const workflow = await server.client.data<{ id: string }>("POST", "/v1/workflows", {
    body: {
      name: "approval",
      steps: [
        { name: "ask", code: `export default { type: "action", async run({ $ }) { $.flow.suspend(); } };` },
        {
          name: "after",
          code: `export default { type: "action", async run({ steps }) { return steps.ask.$resume_data.body; } };`,
        },
      ],
    },
  });
  workflowId = workflow.id;
});

afterAll(async () => {
  await server?.close();
  await database?.cleanup();
  if (env?.HOME) fs.rmSync(env.HOME, { recursive: true, force: true });
});

describe("sluice workflows resume-run and cancel-run", () => {
  it("shows a suspended run, resumes it with data, and prints its history", async () => {
    const ran = await sluice("workflows", "run", "approval");
    expect(ran.code).toBe(0);
    expect(ran.stdout).toMatch(/: suspended in /);
    expect(ran.stdout).toContain("suspended at step ask; cancelled at ");
    const runId = /Run (wr_\w+)/.exec(ran.stdout)?.[1] ?? "";
    expect(ran.stdout).toContain(`Resume it with: sluice workflows resume-run ${runId}`);

    const resumed = await sluice("workflows", "resume-run", runId, "--data", '{"approved": true}');
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(new RegExp(`Run ${runId} of ${workflowId}: success`));
    expect(resumed.stdout).toMatch(
      /History:\n {2}\S+ \S+ attempt \(attempt 1\)\n {2}\S+ \S+ suspended at step ask/,
    );
    expect(resumed.stdout).toMatch(/resumed at step ask \(the API\)/);
    const run = JSON.parse((await sluice("workflows", "runs", "approval", "--json")).stdout) as WorkflowRun[];
    expect(run[0]?.steps[1]?.return_value).toEqual({ approved: true });

    const again = await sluice("workflows", "cancel-run", runId);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain(
      `Run ${runId} is success: only a paused or suspended run can be cancelled`,
    );
  });

  it("cancels a suspended run", async () => {
    const queued = JSON.parse((await sluice("workflows", "run", "approval", "--json")).stdout) as WorkflowRun;
    expect(queued.status).toBe("suspended");
    const cancelled = await sluice("workflows", "cancel-run", queued.id);
    expect(cancelled.code).toBe(0);
    expect(cancelled.stdout + cancelled.stderr).toContain(`Cancelled run ${queued.id}`);
    const listed = await sluice("workflows", "runs", "approval");
    expect(listed.stdout).toMatch(new RegExp(`${queued.id}\\s+│\\s+cancelled`));
  });

  it("refuses --data that is not JSON", async () => {
    const bad = await sluice("workflows", "resume-run", "wr_x", "--data", "{nope");
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toContain("--data takes JSON");
  });
});

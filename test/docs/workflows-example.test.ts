/**
 * The complete example of docs/workflows.md is the files in docs/examples/workflows/, deployed with
 * the CLI as the page says, and its endpoint answers the page's requests with the page's responses.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Workflow, WorkflowRun } from "../../src/client/types.js";
import { projectRoot, runCli, useCliServer } from "../support/cli.js";
import type { TestServer } from "../support/server.js";
import { waitUntil } from "../support/wait.js";

const examples = path.join(projectRoot, "docs", "examples", "workflows");
const page = fs.readFileSync(path.join(projectRoot, "docs", "workflows.md"), "utf8");

/** The page's requests (`-d '…'` in a sh block) and the JSON block that follows each. */
function exchanges(): { request: unknown; response: unknown }[] {
  const found = [];
  for (const match of page.matchAll(/```sh\n[^`]*?-d '([^']*)'\n```\s*```json\n([\s\S]*?)```/g)) {
    found.push({ request: JSON.parse(match[1] as string), response: JSON.parse(match[2] as string) });
  }
  return found;
}

/** The workflow's runs (newest first) once `count` of them have ended, as `sluice workflows runs` lists them. */
async function finishedRuns(env: Record<string, string>, count: number): Promise<WorkflowRun[]> {
  return waitUntil(
    `${count} ended runs`,
    async () => {
      const listed = await runCli(["workflows", "runs", "order-flow", "--json"], env);
      const runs = JSON.parse(listed.stdout) as WorkflowRun[];
      const ended = runs.filter((run) => run.status !== "queued" && run.status !== "running");
      return ended.length >= count ? runs : undefined;
    },
    30_000,
    100,
  );
}

describe("docs/workflows.md, the complete example", () => {
  const server = useCliServer();
  let sluice: TestServer;
  let env: Record<string, string>;

  beforeAll(() => {
    ({ sluice, env } = server);
  });
  afterAll(() => {
    if (env?.HOME) fs.rmSync(env.HOME, { recursive: true, force: true });
  });

  it("the page shows every file of the example as it is", () => {
    const files = ["order-flow.yaml", "actions/price.mjs", "actions/money.mjs", "actions/reply.mjs"];
    for (const file of files) expect(page).toContain(fs.readFileSync(path.join(examples, file), "utf8"));
    expect(exchanges()).toHaveLength(2);
  });

  it("deploys with the CLI and answers the documented requests with the documented responses", async () => {
    const deployed = await runCli(
      ["workflows", "deploy", path.join(examples, "order-flow.yaml"), "--json"],
      env,
    );
    expect(deployed.stderr).toContain("Created workflow order-flow");
    expect(deployed.code).toBe(0);
    const workflow = JSON.parse(deployed.stdout) as Workflow;
    const endpoint = `${sluice.url}${new URL(workflow.endpoint_url ?? "").pathname}`;

    const [priced, refused] = exchanges();
    const answers = [];
    for (const exchange of [priced, refused]) {
      const response = await fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(exchange?.request),
      });
      answers.push({
        status: response.status,
        body: await response.json(),
        order: response.headers.get("x-order-id"),
      });
    }
    expect(answers).toEqual([
      { status: 200, body: priced?.response, order: "A-1" },
      { status: 422, body: refused?.response, order: null },
    ]);

    const [exited, success] = await finishedRuns(env, 2);
    expect(success?.steps.map((step) => step.status)).toEqual(["success", "success", "success"]);
    expect(success?.steps[1]?.summary).toBe("2 lines, 2520 cents");
    expect(exited).toMatchObject({ status: "exited", exit: { step: "check", reason: "no items" } });
    expect(exited?.steps.map((step) => [step.name, step.status])).toEqual([["check", "exited"]]);
  });
});

/**
 * Workflows from the `sluice` command, run as a subprocess against a real server: deploy a YAML
 * document whose `uses:` files are bundled with their own relative imports, redeploy by name, list,
 * run by hand, list runs, replay, delete, and the messages for a missing file or broken YAML.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Workflow, WorkflowRun } from "../../src/client/types.js";
import { type CliResult, runCli } from "../support/cli.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

const FILES: Record<string, string> = {
  "actions/lib/tax.mjs": `
    export const withTax = (cents) => Math.round(cents * 1.25);`,
  "actions/total.mjs": `
    import { withTax } from "./lib/tax.mjs";
    export default {
      name: "Total", type: "action",
      props: { lines: { type: "any" } },
      async run({ $ }) {
        if (!Array.isArray(this.lines)) throw new TypeError("lines must be a list");
        const net = this.lines.reduce((sum, line) => sum + line, 0);
        console.log("net", net);
        $.export("$summary", "total " + withTax(net));
        return { total: withTax(net) };
      },
    };`,
  "flows/calc.yaml": `
name: calc
steps:
  - name: total
    uses: ../actions/total.mjs
    props:
      lines: "{{steps.trigger.event.lines}}"
  - name: label
    code: |
      export default { name: "Label", type: "action", props: { text: { type: "string" } },
        async run() { return this.text; } };
    props:
      text: "total={{steps.total.$return_value.total}}"
`,
};

let database: TestDatabase;
let server: TestServer;
let dir: string;
let env: Record<string, string>;

const sluice = (...args: string[]): Promise<CliResult> => runCli(args, env);
const file = (name: string) => path.join(dir, name);

beforeAll(async () => {
  const sqlite = dialects.find((dialect) => dialect.name === "sqlite");
  if (!sqlite) throw new Error("the sqlite test dialect is missing");
  database = await sqlite.create();
  server = await startTestServer(database);
  dir = tempDir("sluice-cli-workflows-");
  for (const [name, code] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(file(name)), { recursive: true });
    fs.writeFileSync(file(name), code);
  }
  env = { HOME: tempDir("sluice-cli-home-"), SLUICE_API_KEY: server.apiKey, SLUICE_BASE_URL: server.url };
});

afterAll(async () => {
  await server?.close();
  await database?.cleanup();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (env?.HOME) fs.rmSync(env.HOME, { recursive: true, force: true });
});

describe("sluice workflows", () => {
  let id = "";

  it("deploy bundles a relative uses: file with its own relative import and prints the new workflow", async () => {
    const deployed = await sluice("workflows", "deploy", file("flows/calc.yaml"), "--json");
    expect(deployed.stderr).toMatch(/^Created workflow calc \(p_\w+\)/);
    expect(deployed.code).toBe(0);
    const workflow = JSON.parse(deployed.stdout) as Workflow;
    expect(workflow).toMatchObject({ name: "calc", trigger: { type: "none" }, endpoint_url: null });
    expect(workflow.steps.map((step) => step.name)).toEqual(["total", "label"]);
    id = workflow.id;
  });

  it("run waits for a manual run and prints each step's result; the bundled helper ran", async () => {
    const run = await sluice("workflows", "run", "calc", "--event", '{"lines": [100, 300]}');
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(new RegExp(`^Run wr_\\w+ of ${id}: success in \\d+ ms`));
    expect(run.stdout).toContain("- total: success");
    expect(run.stdout).toContain("Summary: total 500");
    expect(run.stdout).toContain("[log] net 400");
    expect(run.stdout).toContain("- label: success");
    expect(run.stdout).toContain("total=500");
  });

  it("a run whose step throws exits with 1 and shows the step's error; later steps do not run", async () => {
    const run = await sluice("workflows", "run", id, "--event", '{"lines": "oops"}');
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("- total: error");
    expect(run.stdout).toContain("TypeError: lines must be a list");
    expect(run.stdout).not.toContain("- label");
    expect(run.stdout).toContain("Failed at step total: TypeError: lines must be a list");
  });

  it("runs lists the runs newest first with each step's status; --limit and --json", async () => {
    const table = await sluice("workflows", "runs", "calc");
    expect(table.code).toBe(0);
    expect(table.stdout).toMatch(/total:error +│ total: TypeError: lines must be a list/);
    expect(table.stdout).toContain("total:success label:success");
    const listed = await sluice("workflows", "runs", "calc", "--json", "--limit", "1");
    const runs = JSON.parse(listed.stdout) as WorkflowRun[];
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ workflow_id: id, status: "error", error: { step: "total" } });
  });

  it("replay runs the workflow again with a run's trigger event", async () => {
    const runs = JSON.parse((await sluice("workflows", "runs", "calc", "--json")).stdout) as WorkflowRun[];
    const original = runs.find((run) => run.status === "success");
    const replayed = await sluice("workflows", "replay", original?.id ?? "", "--json");
    expect(replayed.code).toBe(0);
    const replay = JSON.parse(replayed.stdout) as WorkflowRun;
    expect(replay).toMatchObject({ status: "success", replay_of: original?.id });
    expect(replay.id).not.toBe(original?.id);
    expect(replay.trigger.event).toEqual({ lines: [100, 300] });
    expect(replay.steps[1]?.return_value).toBe("total=500");
  });

  it("run --no-wait prints the queued run and returns", async () => {
    const queued = await sluice("workflows", "run", "calc", "--no-wait", "--event", '{"lines": [1]}');
    expect(queued.code).toBe(0);
    expect(queued.stdout).toMatch(/^Queued run wr_\w+\. See it with: sluice workflows runs p_\w+/);
  });

  it("deploying the same name again updates the workflow in place and says what changed", async () => {
    const changed = fs
      .readFileSync(file("flows/calc.yaml"), "utf8")
      .replace("name: calc\n", "name: calc\nretries: 2\n")
      .replace('text: "total=', 'text: "sum=');
    fs.writeFileSync(file("flows/calc-v2.yaml"), changed);
    const redeployed = await sluice("workflows", "deploy", file("flows/calc-v2.yaml"));
    expect(redeployed.stderr).toBe("");
    expect(redeployed.code).toBe(0);
    expect(redeployed.stdout).toContain(`Updated workflow calc (${id}): retries 0 → 2; step label: props`);
    const again = await sluice("workflows", "deploy", file("flows/calc-v2.yaml"));
    expect(again.stdout).toContain(`Updated workflow calc (${id}): no changes`);
  });

  it("list shows the workflow once, with its steps", async () => {
    const listed = await sluice("workflows", "list", "--json");
    const workflows = JSON.parse(listed.stdout) as Workflow[];
    expect(workflows.map((workflow) => [workflow.id, workflow.name, workflow.retries])).toEqual([
      [id, "calc", 2],
    ]);
    const table = await sluice("workflows", "list");
    expect(table.stdout).toContain("total, label");
    expect(table.stdout).toContain("manual");
  });

  it("pause stops manual runs with the API's reason; resume allows them again", async () => {
    expect((await sluice("workflows", "pause", "calc")).stdout).toBe(`Workflow calc (${id}) is paused\n`);
    const refused = await sluice("workflows", "run", "calc");
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain("(workflow_inactive)");
    const resumed = await sluice("workflows", "resume", "calc", "--json");
    expect(JSON.parse(resumed.stdout)).toMatchObject({ id, active: true });
  });

  it("delete by name removes it; then its name is unknown", async () => {
    const deleted = await sluice("workflows", "delete", "calc");
    expect(deleted).toMatchObject({ code: 0, stdout: `Deleted workflow ${id}\n` });
    const gone = await sluice("workflows", "runs", "calc");
    expect(gone.code).toBe(1);
    expect(gone.stderr).toBe("Error: No workflow named 'calc'. List them with: sluice workflows list\n");
    expect((await sluice("workflows", "list")).stdout).toContain("No workflows yet");
  });
});

describe("sluice workflows deploy refuses a broken document, naming the file and the place", () => {
  const deployText = async (name: string, text: string): Promise<CliResult> => {
    fs.writeFileSync(file(name), text);
    return sluice("workflows", "deploy", file(name));
  };

  it("a uses: file that does not exist: the file, line and step", async () => {
    const result = await deployText(
      "flows/missing.yaml",
      "name: missing\nsteps:\n  - name: first\n    uses: ./actions/nope.mjs\n",
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toBe(
      `Error: ${file("flows/missing.yaml")}:4: step 'first': no such file ./actions/nope.mjs (looked for ${file("flows/actions/nope.mjs")})\n`,
    );
  });

  it("YAML that does not parse: the file, line and column", async () => {
    const result = await deployText(
      "flows/broken.yaml",
      "name: broken\nsteps:\n  - name: a\n    props: [1,\n",
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(
      new RegExp(`^Error: ${literal(file("flows/broken.yaml"))}:\\d+:\\d+: not valid YAML or JSON: `),
    );
  });

  it("an unquoted {{ }} expression: the line, and the fix", async () => {
    const result = await deployText(
      "flows/unquoted.yaml",
      'name: unquoted\nsteps:\n  - name: a\n    code: "export default {}"\n    props:\n      x: {{steps.trigger.event}}\n',
    );
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      `${file("flows/unquoted.yaml")}:6: a {{ }} expression must be quoted in YAML`,
    );
  });

  it("a step that names no component, or two", async () => {
    const none = await deployText("flows/none.yaml", "name: none\nsteps:\n  - name: a\n    props: {}\n");
    expect(none.stderr).toContain(`${file("flows/none.yaml")}:3: step 'a' names no component`);
    const two = await deployText(
      "flows/two.yaml",
      "name: two\nsteps:\n  - name: a\n    code: x\n    key: k\n",
    );
    expect(two.stderr).toContain("step 'a' has both code and key");
  });

  it("a document file that does not exist, and a document the server refuses", async () => {
    const absent = await sluice("workflows", "deploy", file("flows/absent.yaml"));
    expect(absent).toMatchObject({ code: 1, stderr: `Error: No such file: ${file("flows/absent.yaml")}\n` });
    const refused = await deployText(
      "flows/refused.yaml",
      "name: refused\ntrigger: { timer: { intervalSeconds: -5 } }\nsteps:\n  - name: a\n    code: |\n      export default { name: 'A', type: 'action', async run() {} }\n",
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(
      new RegExp(`^Error: ${literal(file("flows/refused.yaml"))}: .+\\(\\w+\\)\n$`),
    );
  });
});

function literal(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

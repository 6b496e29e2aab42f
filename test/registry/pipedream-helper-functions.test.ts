/**
 * Real actions from Pipedream's registry, unchanged: two of `@pipedream/helper_functions`, fetched
 * from the npm registry at test time and run with `sluice run-action <file>`. "Base64 Decode
 * String" exports with `$.export`; "Format ISO8601 Date/Time" imports `moment` (resolved and
 * installed by the server) and returns its value. Both import the package's app file, which the
 * CLI bundles, and declare the app as a prop. The same two files then run as steps of a workflow
 * deployed with `sluice workflows deploy`, fed by expressions.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionRunResult, WorkflowRun } from "../../src/client/types.js";
import { sluiceBin } from "../support/cli.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

const run = promisify(execFile);
const PACKAGE = "@pipedream/helper_functions@0.3.13";
const NETWORK_TIMEOUT = 180_000;

describe(`Pipedream's ${PACKAGE} actions, unchanged`, () => {
  let database: TestDatabase;
  let sluice: TestServer;
  let actions: string;

  beforeAll(async () => {
    const folder = tempDir();
    const { stdout } = await run("npm", ["pack", PACKAGE, "--pack-destination", folder, "--silent"], {
      cwd: folder,
    });
    await run("tar", ["xzf", path.join(folder, stdout.trim().split("\n").at(-1) ?? ""), "-C", folder]);
    actions = path.join(folder, "package", "actions");
    const sqlite = dialects.find((dialect) => dialect.name === "sqlite");
    if (!sqlite) throw new Error("the sqlite test dialect is missing");
    database = await sqlite.create();
    sluice = await startTestServer(database);
  }, NETWORK_TIMEOUT);
  afterAll(async () => {
    await sluice?.close();
    await database?.cleanup();
  });

  /** `sluice <args>` with the test server's key, allowed the time an npm install takes. */
  async function sluiceCli(args: string[]): Promise<string> {
    const { stdout } = await run(process.execPath, [sluiceBin, ...args], {
      env: {
        PATH: process.env.PATH ?? "",
        HOME: tempDir(),
        SLUICE_API_KEY: sluice.apiKey,
        SLUICE_BASE_URL: sluice.url,
      },
      timeout: NETWORK_TIMEOUT,
    });
    return stdout;
  }

  /** `sluice run-action FILE --prop … --json`. */
  async function runAction(action: string, props: string[]): Promise<ActionRunResult> {
    const stdout = await sluiceCli([
      "run-action",
      path.join(actions, action, `${action}.mjs`),
      ...props.flatMap((prop) => ["--prop", prop]),
      "--json",
    ]);
    return JSON.parse(stdout) as ActionRunResult;
  }

  it(
    '"Base64 Decode String" exports the decoded text',
    async () => {
      const result = await runAction("base64-decode-string", [
        `data=${Buffer.from("Hello from Sluice ✓").toString("base64")}`,
      ]);
      expect(result.failure).toBeNull();
      expect(result).toMatchObject({
        ok: true,
        component_key: "helper_functions-base64-decode-string",
        exports: { data: "Hello from Sluice ✓" },
      });
    },
    NETWORK_TIMEOUT,
  );

  it(
    '"Format ISO8601 Date/Time" returns the date formatted with moment',
    async () => {
      const result = await runAction("format-iso8601-datetime", ["iso8601=2024-03-05T14:07:09"]);
      expect(result.failure).toBeNull();
      expect(result).toMatchObject({
        ok: true,
        component_key: "helper_functions-format-iso8601-datetime",
        return_value: { date_time: "03/05/2024 2:07:09 pm", date: "03/05/2024", time: "2:07:09 pm" },
      });
    },
    NETWORK_TIMEOUT,
  );

  it(
    "both run unchanged as steps of a workflow deployed from YAML, fed by expressions",
    async () => {
      const folder = tempDir();
      const file = (action: string) => path.join(actions, action, `${action}.mjs`);
      fs.writeFileSync(
        path.join(folder, "helpers.yaml"),
        [
          "name: helper-functions-flow",
          "steps:",
          "  - name: decode",
          `    uses: ${file("base64-decode-string")}`,
          "    props:",
          '      data: "{{steps.trigger.event.encoded}}"',
          "  - name: when",
          `    uses: ${file("format-iso8601-datetime")}`,
          "    props:",
          '      iso8601: "{{steps.trigger.event.at}}"',
          "  - name: sentence",
          "    code: |",
          '      export default { type: "action", async run({ steps }) {',
          '        return steps.decode.data + " on " + steps.when.$return_value.date;',
          "      } }",
          "",
        ].join("\n"),
      );
      await sluiceCli(["workflows", "deploy", path.join(folder, "helpers.yaml")]);
      const event = { encoded: Buffer.from("Tea for two").toString("base64"), at: "2024-03-05T14:07:09" };
      const stdout = await sluiceCli([
        "workflows",
        "run",
        "helper-functions-flow",
        "--event",
        JSON.stringify(event),
        "--wait-timeout",
        "120",
        "--json",
      ]);
      const result = JSON.parse(stdout) as WorkflowRun;
      expect(result.error).toBeNull();
      expect(result.status).toBe("success");
      expect(result.steps.map((step) => step.status)).toEqual(["success", "success", "success"]);
      expect(result.steps[2]?.return_value).toBe("Tea for two on 03/05/2024");
    },
    NETWORK_TIMEOUT,
  );
});

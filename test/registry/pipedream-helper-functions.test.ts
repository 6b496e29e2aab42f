/**
 * Real actions from Pipedream's registry, unchanged: two of `@pipedream/helper_functions`, fetched
 * from the npm registry at test time and run with `sluice run-action <file>`. "Base64 Decode
 * String" exports with `$.export`; "Format ISO8601 Date/Time" imports `moment` (resolved and
 * installed by the server) and returns its value. Both import the package's app file, which the
 * CLI bundles, and declare the app as a prop.
 */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionRunResult } from "../../src/client/types.js";
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

  /** `sluice run-action FILE --prop … --json`, allowed the time an npm install takes. */
  async function runAction(action: string, props: string[]): Promise<ActionRunResult> {
    const { stdout } = await run(
      process.execPath,
      [
        sluiceBin,
        "run-action",
        path.join(actions, action, `${action}.mjs`),
        ...props.flatMap((prop) => ["--prop", prop]),
        "--json",
      ],
      {
        env: {
          PATH: process.env.PATH ?? "",
          HOME: tempDir(),
          SLUICE_API_KEY: sluice.apiKey,
          SLUICE_BASE_URL: sluice.url,
        },
        timeout: NETWORK_TIMEOUT,
      },
    );
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
});

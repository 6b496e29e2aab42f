/**
 * Sources from the `sluice` command: deploy (local files with relative imports bundled by the CLI,
 * TypeScript, CommonJS, URLs, keys), update, describe, list, run, events, logs and delete, run as
 * a subprocess against a real server whose components run in the real sandbox.
 */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SluiceClient } from "../../src/client/client.js";
import type { Component, EventSummary, RunResult, Source } from "../../src/client/types.js";
import { type CliResult, runCli, sluiceBin } from "../support/cli.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

const SECRET = "cli-secret-value-never-printed-7731";

/** Pipedream's layout: a base object spread into the component, and an app file used as a prop. */
const FILES: Record<string, string> = {
  "example.app.mjs": `
    export default {
      type: "app",
      app: "example",
      propDefinitions: {},
      methods: { greet(who) { return "Hello, " + who + "!"; } },
    };`,
  "common/base.mjs": `
    import example from "../example.app.mjs";
    export default {
      props: { example, db: "$.service.db" },
      methods: {
        nextCount() { const n = (this.db.get("count") ?? 0) + 1; this.db.set("count", n); return n; },
      },
    };`,
  "greeter.mjs": `
    import base from "./common/base.mjs";
    export default {
      ...base,
      key: "cli-greeter",
      name: "CLI Greeter",
      version: "0.1.0",
      props: {
        ...base.props,
        who: { type: "string", label: "Who" },
        times: { type: "integer", min: 1, max: 5 },
        tags: { type: "string[]", optional: true },
        settings: { type: "object", optional: true },
        token: { type: "string", secret: true },
      },
      async run() {
        const count = this.nextCount();
        console.log("greeting " + this.who + " #" + count);
        this.$emit(
          { greeting: this.example.greet(this.who), count, times: this.times, tags: this.tags,
            settings: this.settings, tokenLength: this.token.length },
          { summary: "greeting #" + count },
        );
      },
    };`,
  // Same component, another greeting: for update --code.
  "greeter-v2.mjs": `
    import base from "./common/base.mjs";
    export default {
      ...base,
      key: "cli-greeter",
      name: "CLI Greeter",
      version: "0.2.0",
      props: { ...base.props, who: "string", times: "integer", tags: { type: "string[]", optional: true },
        settings: { type: "object", optional: true }, token: { type: "string", secret: true } },
      async run() { this.$emit({ greeting: "v2 " + this.example.greet(this.who) }, { summary: "v2" }); },
    };`,
  "common/shape.ts": `
    export interface Shape { kind: string; sides: number }
    export const square: Shape = { kind: "square", sides: 4 };`,
  "typed.ts": `
    import { square, type Shape } from "./common/shape.ts";
    const label = (shape: Shape): string => shape.kind + ":" + shape.sides;
    export default defineComponent({
      name: "Typed Source",
      props: { http: { type: "$.interface.http", customResponse: true } },
      async run(event: { method: string }) {
        this.http.respond({ status: 201, body: { shape: label(square), method: event.method } });
        this.$emit({ shape: label(square) }, { name: "shapes", summary: "a " + square.kind });
      },
    });`,
  "standalone.ts": `
    type Count = { n: number };
    export default { name: "Standalone TS", props: {}, async run() { const c: Count = { n: 1 }; this.$emit(c); } };
`,
  "common/double.cjs": `module.exports = { double(n) { return n * 2; } };`,
  "legacy.cjs": `
    const { double } = require("./common/double.cjs");
    const { createHash } = require("node:crypto");
    module.exports = {
      name: "Legacy CJS",
      props: {},
      async run() { this.$emit({ doubled: double(21), hash: createHash("sha1").update("x").digest("hex").slice(0, 6) }); },
    };`,
  "common/requires-package.cjs": `module.exports = { ms: require("ms") };`,
  "mixed.mjs": `
    import helper from "./common/requires-package.cjs";
    export default { name: "Mixed", props: {}, async run() { this.$emit(helper.ms("1m")); } };`,
  "common/timing.mjs": `
    import ms from "ms@2.1.3";
    export const twoMinutes = () => ms("2m");`,
  "timed.mjs": `
    import { createHash } from "node:crypto";
    import { twoMinutes } from "./common/timing.mjs";
    export default { name: "Timed", props: {}, async run() { this.$emit({ ms: twoMinutes(), hash: typeof createHash }); } };`,
  "legacy-npm.cjs": `
    const ms = require("ms@2.1.3");
    const { double } = require("./common/double.cjs");
    module.exports = { name: "Legacy NPM", props: {}, async run() { this.$emit({ ms: double(ms("1s")) }); } };`,
  "common/scoped.mjs": `export { thing } from "@sluice-no-such-scope-4471/pkg@2/sub/path";`,
  "scoped.mjs": `
    import { thing } from "./common/scoped.mjs";
    export default { name: "Scoped", props: {}, async run() { this.$emit(thing); } };`,
  "counter.mjs": `
    export default {
      name: "Counter",
      props: { db: "$.service.db", http: "$.interface.http" },
      async run() {
        const n = (this.db.get("n") ?? 0) + 1;
        this.db.set("n", n);
        console.log("counted " + n);
        this.$emit({ n }, { summary: "count " + n });
      },
    };`,
  "needs-prop.mjs": `
    export default { name: "Needs Prop", props: { region: { type: "string" } }, async run() {} };`,
};

let database: TestDatabase;
let server: TestServer;
let dir: string;
const homes: string[] = [];

beforeAll(async () => {
  const sqlite = dialects.find((dialect) => dialect.name === "sqlite");
  if (!sqlite) throw new Error("the sqlite test dialect is missing");
  database = await sqlite.create();
  server = await startTestServer(database, { env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8" } });
  dir = tempDir("sluice-cli-components-");
  for (const [name, code] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), code);
  }
  fs.writeFileSync(path.join(dir, "props.json"), JSON.stringify({ who: "file", times: "2", token: SECRET }));
});

afterAll(async () => {
  await server?.close();
  await database?.cleanup();
  for (const home of [dir, ...homes]) if (home) fs.rmSync(home, { recursive: true, force: true });
});

function cliEnv(apiKey: string): Record<string, string> {
  const home = tempDir("sluice-cli-home-");
  homes.push(home);
  return { HOME: home, SLUICE_API_KEY: apiKey, SLUICE_BASE_URL: server.url };
}

/** Runs `sluice ARGS` as an account, with the component files' directory as the working directory. */
function sluice(apiKey: string, args: string[], timeoutMs = 20_000): Promise<CliResult> {
  if (timeoutMs === 20_000) return runCli(args.map(inDir), cliEnv(apiKey));
  // runCli stops a command after 20 s; one that installs npm packages may take longer.
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [sluiceBin, ...args.map(inDir)],
      { env: { PATH: process.env.PATH ?? "", ...cliEnv(apiKey) }, timeout: timeoutMs },
      (error, stdout, stderr) =>
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr }),
    );
  });
}

/** Component files are named relative to the temp directory: `@greeter.mjs`. */
function inDir(arg: string): string {
  return arg.startsWith("@") && !arg.includes("/", 1) ? path.join(dir, arg.slice(1)) : arg;
}

function parseJson<T>(result: CliResult): T {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(result.stdout) as T;
}

function expectSuccess(result: CliResult): void {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
}

function expectCleanFailure(result: CliResult): void {
  expect(result.code).toBe(1);
  expect(result.stderr).toMatch(/^Error: /);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

async function deployJson(apiKey: string, args: string[]): Promise<Source> {
  return parseJson<Source>(await sluice(apiKey, ["deploy", ...args, "--json"]));
}

/**
 * Where a source's endpoint is reached on the test server: endpoint_url is built from the server's
 * configured base URL, and the test server listens on an ephemeral port.
 */
function endpointOf(source: Source): string {
  expect(source.endpoint_url).toMatch(/\/e\/[0-9a-f]{32}$/);
  return `${server.url}${new URL(source.endpoint_url ?? "").pathname}`;
}

const greeterProps = ["--props-file", "@props.json", "--prop", "who=world"];

describe("sluice deploy", () => {
  it("bundles a file's relative imports (a base spread in, an app file as a prop); --prop wins over --props-file", async () => {
    const { apiKey, client } = await server.newAccount();
    const source = await deployJson(apiKey, [
      "@greeter.mjs",
      ...greeterProps,
      "--prop",
      'tags=["a","b"]',
      "--prop",
      'settings={"deep":{"x":1}}',
      "--timeout",
      "45",
    ]);
    expect(source.id).toMatch(/^dc_/);
    expect(source).toMatchObject({
      name: "CLI Greeter",
      name_slug: "cli-greeter",
      active: true,
      timeout_seconds: 45,
    });
    expect(source.configured_props).toEqual({
      who: "world",
      times: 2,
      tags: ["a", "b"],
      settings: { deep: { x: 1 } },
      token: "********",
    });
    expect(await client.getSource(source.id)).toEqual(source);

    // The server got one file: the relative imports are inlined, nothing relative is left.
    const component = await client.getComponent(source.component_id);
    expect(component.code).toContain("Hello, ");
    expect(component.code).toContain("nextCount");
    expect(component.code).not.toMatch(/from\s+["']\.\.?\//);
    expect(component.configurable_props.map((prop) => prop.name)).toEqual([
      "example",
      "db",
      "who",
      "times",
      "tags",
      "settings",
      "token",
    ]);
  });

  it("prints the deployed source as a table: id, name, active and its configured props", async () => {
    const { apiKey } = await server.newAccount();
    const result = await sluice(apiKey, [
      "deploy",
      "@greeter.mjs",
      ...greeterProps,
      "--name",
      "Table Greeter",
    ]);
    expectSuccess(result);
    expect(result.stdout).toMatch(/│ id\s+│ dc_[0-9a-z]{26}\s+│/);
    expect(result.stdout).toMatch(/│ name\s+│ Table Greeter \(table-greeter\)\s+│/);
    expect(result.stdout).toMatch(/│ active\s+│ true\s+│/);
    expect(result.stdout).toMatch(/│ who: world\s+│/);
    expect(result.stdout).toMatch(/│ times: 2\s+│/);
    expect(result.stdout).toMatch(/│ token: \*{8}\s+│/);
    expect(result.stdout).not.toContain("endpoint_url");
  });

  it("run, events -n 5 --json and logs show what the bundled source did, using its app's methods and db", async () => {
    const { apiKey } = await server.newAccount();
    const source = await deployJson(apiKey, ["@greeter.mjs", ...greeterProps]);

    for (const count of [1, 2]) {
      const run = await sluice(apiKey, ["run", source.id]);
      expectSuccess(run);
      expect(run.stdout).toMatch(/^Run ok in \d+ ms \(invocation inv_[0-9a-z]+\)\n/);
      expect(run.stdout).toMatch(/Emitted 1 event: \d+-\d+\n/);
      expect(run.stdout).toMatch(new RegExp(`log\\s+greeting world #${count}\\n`));
    }

    const events = parseJson<EventSummary[]>(
      await sluice(apiKey, ["events", "cli-greeter", "-n", "5", "--json"]),
    );
    expect(events.map((item) => item.event)).toEqual([
      { greeting: "Hello, world!", count: 2, times: 2, tokenLength: SECRET.length },
      { greeting: "Hello, world!", count: 1, times: 2, tokenLength: SECRET.length },
    ]);
    expect(events[0]?.metadata).toMatchObject({ emitter_id: source.id, summary: "greeting #2" });

    const lines = await sluice(apiKey, ["events", source.id, "-n", "1"]);
    expectSuccess(lines);
    expect(lines.stdout).toMatch(/^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d{3}Z {2}\d+-\d+ {2}greeting #2\n$/);

    const logs = await sluice(apiKey, ["logs", "cli-greeter"]);
    expectSuccess(logs);
    const first = logs.stdout.indexOf("greeting world #1");
    expect(first).toBeGreaterThan(0);
    expect(logs.stdout.indexOf("greeting world #2")).toBeGreaterThan(first);
    expect(logs.stdout).toMatch(/\d\d:\d\d:\d\d\.\d{3}Z {2}log {4}greeting world #1\n/);
  });

  it("a TypeScript file with a relative import is compiled by the CLI and its HTTP endpoint works", async () => {
    const { apiKey, client } = await server.newAccount();
    const source = await deployJson(apiKey, ["@typed.ts"]);
    expect(source.endpoint_url).toMatch(/\/e\/[0-9a-f]{32}$/);
    const component = await client.getComponent(source.component_id);
    expect(component.code).not.toContain("interface Shape");
    expect(component.code).not.toMatch(/from\s+["']\.\//);

    const response = await fetch(endpointOf(source), { method: "POST" });
    expect(response.status).toBe(201);
    expect(await response.json()).toEqual({ shape: "square:4", method: "POST" });

    const events = await sluice(apiKey, ["events", "typed-source"]);
    expectSuccess(events);
    expect(events.stdout).toMatch(/ \d+-\d+ \[shapes\] {2}a square\n$/);
    const table = await sluice(apiKey, ["describe", "typed-source"]);
    expect(table.stdout).toContain(source.endpoint_url ?? "no endpoint");
  });

  it("a file without relative imports is sent as written, TypeScript included", async () => {
    const { apiKey, client } = await server.newAccount();
    const source = await deployJson(apiKey, ["@standalone.ts"]);
    const component = await client.getComponent(source.component_id);
    expect(component.code).toBe(FILES["standalone.ts"]);
    const run = parseJson<RunResult>(await sluice(apiKey, ["run", source.id, "--json"]));
    expect(run.ok).toBe(true);
  });

  it("a CommonJS file that requires a relative helper keeps module.exports as the component", async () => {
    const { apiKey, client } = await server.newAccount();
    const source = await deployJson(apiKey, ["@legacy.cjs"]);
    expect(source.name).toBe("Legacy CJS");
    const component = await client.getComponent(source.component_id);
    expect(component.code).toContain("module.exports");
    expect(component.code).not.toContain("./common/double.cjs");

    const run = parseJson<RunResult>(await sluice(apiKey, ["run", "legacy-cjs", "--json"]));
    expect(run).toMatchObject({ ok: true, failure: null });
    expect(run.events).toHaveLength(1);
    const [event] = parseJson<EventSummary[]>(await sluice(apiKey, ["events", "legacy-cjs", "--json"]));
    expect(event?.event).toEqual({ doubled: 42, hash: "11f6ad" });
    expect(event?.id).toBe(run.events[0]);
  });

  it("npm imports in a relative module, versioned or not, are left for the server to install", async () => {
    const { apiKey, client } = await server.newAccount();
    const deployed = await sluice(apiKey, ["deploy", "@timed.mjs", "--json"], 120_000);
    const source = parseJson<Source>(deployed);
    const component = await client.getComponent(source.component_id);
    expect(component.code).toMatch(/from\s+"ms@2\.1\.3"/);
    expect(component.code).toMatch(/from\s+"node:crypto"/);
    expect(component.lock).toEqual({ ms: "2.1.3" });
    await sluice(apiKey, ["run", source.id]);
    const [event] = parseJson<EventSummary[]>(await sluice(apiKey, ["events", source.id, "--json"]));
    expect(event?.event).toEqual({ ms: 120_000, hash: "function" });

    // A CommonJS component's require("pkg@version") stays a require the server sees.
    const legacy = parseJson<Source>(await sluice(apiKey, ["deploy", "@legacy-npm.cjs", "--json"], 120_000));
    expect((await client.getComponent(legacy.component_id)).code).toContain('require("ms@2.1.3")');
    expect((await client.runSource(legacy.id)).ok).toBe(true);
    const [legacyEvent] = (await client.listEvents(legacy.id, { expand: "event" })).data;
    expect(legacyEvent?.event).toEqual({ ms: 2000 });

    // A scoped, versioned specifier with a subpath is not resolved locally: the server looks it up.
    const scoped = await sluice(apiKey, ["deploy", "@scoped.mjs"], 120_000);
    expectCleanFailure(scoped);
    expect(scoped.stderr).toContain("@sluice-no-such-scope-4471/pkg");
    expect(scoped.stderr).toContain("(unknown_package)");
    expect(scoped.stderr).not.toContain("Could not resolve");
  }, 240_000);

  it("an ES module component whose CommonJS helper requires a package is refused with what to change", async () => {
    const { apiKey, client } = await server.newAccount();
    const result = await sluice(apiKey, ["deploy", "@mixed.mjs"]);
    expectCleanFailure(result);
    expect(result.stderr).toContain(
      'common/requires-package.cjs calls require("ms") inside an ES module component',
    );
    expect((await client.listSources()).data).toEqual([]);
  });

  it("deploys from an http(s) URL (the server fetches it) and from the key of a saved component", async () => {
    const { apiKey, client } = await server.newAccount();
    const files = http.createServer((request, response) => {
      const file = path.join(dir, path.basename(request.url ?? ""));
      if (!fs.existsSync(file)) response.writeHead(404).end();
      else response.writeHead(200, { "content-type": "text/javascript" }).end(fs.readFileSync(file));
    });
    await new Promise<void>((resolve) => files.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(files.address() as AddressInfo).port}/counter.mjs`;
      const fromUrl = await deployJson(apiKey, [url, "--name", "from url"]);
      expect(fromUrl.name_slug).toBe("from-url");
      expect((await client.getComponent(fromUrl.component_id)).code).toBe(FILES["counter.mjs"]);
    } finally {
      await new Promise((resolve) => files.close(resolve));
    }

    const saved = await client.saveComponent({ component_code: FILES["needs-prop.mjs"] ?? "" });
    const fromId = await deployJson(apiKey, [saved.id, "--prop", "region=eu"]);
    expect(fromId).toMatchObject({ component_id: saved.id, configured_props: { region: "eu" } });

    await client.saveComponent({
      component_code: `export default { key: "saved-key", name: "Saved Key", props: {}, async run() {} };`,
    });
    const fromKey = await deployJson(apiKey, ["saved-key"]);
    expect(fromKey).toMatchObject({ component_key: "saved-key", name: "Saved Key" });
  });

  it("without a terminal, a missing required prop is the API's invalid_prop error, exit 1, and nothing is deployed", async () => {
    const { apiKey, client } = await server.newAccount();
    const result = await sluice(apiKey, ["deploy", "@needs-prop.mjs"]);
    expectCleanFailure(result);
    expect(result.stderr).toBe("Error: prop 'region': a value is required (string) (invalid_prop)\n");
    expect(result.stdout).toBe("");
    expect((await client.listSources()).data).toEqual([]);
  });

  it("refuses a missing file, a --prop without '=', a bad --props-file and a bad --timeout before calling the API", async () => {
    const { apiKey, client } = await server.newAccount();
    const cases: [string[], string][] = [
      [["deploy", "./no-such-file.mjs"], "Error: No such file: ./no-such-file.mjs\n"],
      [["deploy", "@counter.mjs", "--prop", "novalue"], "Error: --prop takes name=value, got 'novalue'\n"],
      [["deploy", "@counter.mjs", "--props-file", "@counter.mjs"], "is not valid JSON"],
      [
        ["deploy", "@counter.mjs", "--timeout", "soon"],
        "Error: --timeout takes whole seconds (1-900), got 'soon'\n",
      ],
      [["events", "whatever", "-n", "101"], "Error: -n takes a count from 1 to 100, got '101'\n"],
    ];
    for (const [args, message] of cases) {
      const result = await sluice(apiKey, args);
      expectCleanFailure(result);
      expect(result.stderr).toContain(message);
    }
    expect((await client.listSources()).data).toEqual([]);
  });
});

describe("sluice update, describe, list and delete", () => {
  it("update --code replaces the code and keeps the dc_ id and the props", async () => {
    const { apiKey, client } = await server.newAccount();
    const source = await deployJson(apiKey, ["@greeter.mjs", ...greeterProps]);
    const updated = parseJson<Source>(
      await sluice(apiKey, [
        "update",
        source.id,
        "--code",
        "@greeter-v2.mjs",
        "--prop",
        "who=again",
        "--json",
      ]),
    );
    expect(updated.id).toBe(source.id);
    expect(updated.component_id).not.toBe(source.component_id);
    expect(updated.configured_props).toMatchObject({ who: "again", times: 2, token: "********" });
    expect((await client.getComponent(updated.component_id)).version).toBe("0.2.0");

    expectSuccess(await sluice(apiKey, ["run", "cli-greeter"]));
    const [event] = parseJson<EventSummary[]>(await sluice(apiKey, ["events", source.id, "--json"]));
    expect(event?.event).toEqual({ greeting: "v2 Hello, again!" });
  });

  it("update --deactivate stops runs, --activate resumes them; --name and --timeout change the source", async () => {
    const { apiKey } = await server.newAccount();
    const source = await deployJson(apiKey, ["@counter.mjs"]);

    const off = parseJson<Source>(await sluice(apiKey, ["update", "counter", "--deactivate", "--json"]));
    expect(off).toMatchObject({ id: source.id, active: false });
    const refused = await sluice(apiKey, ["run", source.id]);
    expectCleanFailure(refused);
    expect(refused.stderr).toContain("(source_inactive)");

    const on = await sluice(apiKey, [
      "update",
      source.id,
      "--activate",
      "--name",
      "Renamed",
      "--timeout",
      "5",
    ]);
    expectSuccess(on);
    expect(on.stdout).toMatch(/│ active\s+│ true\s+│/);
    expect(on.stdout).toMatch(/│ name\s+│ Renamed \(renamed\)\s+│/);
    expect(on.stdout).toMatch(/│ timeout_seconds\s+│ 5\s+│/);
    expectSuccess(await sluice(apiKey, ["run", "renamed"]));

    const both = await sluice(apiKey, ["update", source.id, "--activate", "--deactivate"]);
    expectCleanFailure(both);
    const nothing = await sluice(apiKey, ["update", source.id]);
    expectCleanFailure(nothing);
    expect(nothing.stderr).toContain("Nothing to update");
  });

  it("describe shows the source and its component's props, with the configured values", async () => {
    const { apiKey } = await server.newAccount();
    const source = await deployJson(apiKey, ["@greeter.mjs", ...greeterProps]);

    const table = await sluice(apiKey, ["describe", "cli-greeter"]);
    expectSuccess(table);
    expect(table.stdout).toMatch(new RegExp(`│ id\\s+│ ${source.id}\\s+│`));
    expect(table.stdout).toContain(`Component CLI Greeter 0.1.0 (${source.component_id}):`);
    expect(table.stdout).toMatch(/│ prop\s+│ type\s+│ required\s+│ value\s+│ description\s+│/);
    expect(table.stdout).toMatch(/│ who\s+│ string\s+│ yes\s+│ world\s+│ Who\s+│/);
    expect(table.stdout).toMatch(/│ times\s+│ integer\s+│ yes\s+│ 2\s+│/);
    expect(table.stdout).toMatch(/│ tags\s+│ string\[\]\s+│ no\s+│/);
    expect(table.stdout).toMatch(/│ token \(secret\)\s+│ string\s+│ yes\s+│ \*{8}\s+│/);
    expect(table.stdout).toMatch(/│ db\s+│ \$\.service\.db\s+│\s+│/);

    const json = parseJson<{ source: Source; component: Component }>(
      await sluice(apiKey, ["describe", source.id, "--json"]),
    );
    expect(json.source).toEqual(source);
    expect(json.component.id).toBe(source.component_id);
    expect(json.component.configurable_props.find((prop) => prop.name === "token")).toMatchObject({
      type: "string",
      secret: true,
    });
  });

  it("list sources prints the account's sources as a table, and --json as an array, newest first", async () => {
    const { apiKey } = await server.newAccount();
    const none = await sluice(apiKey, ["list", "sources"]);
    expectSuccess(none);
    expect(none.stdout).toContain("No sources yet");
    expect(parseJson<Source[]>(await sluice(apiKey, ["list", "sources", "--json"]))).toEqual([]);

    const first = await deployJson(apiKey, ["@counter.mjs"]);
    const second = await deployJson(apiKey, ["@legacy.cjs"]);
    const list = parseJson<Source[]>(await sluice(apiKey, ["list", "sources", "--json"]));
    expect(list.map((source) => source.id)).toEqual([second.id, first.id]);

    const table = await sluice(apiKey, ["list", "sources"]);
    expectSuccess(table);
    expect(table.stdout).toMatch(/│ id\s+│ name\s+│ component\s+│ active\s+│ endpoint_url\s+│ created\s+│/);
    expect(table.stdout).toMatch(
      new RegExp(`│ ${first.id} │ counter\\s+│ sc_\\w+ │ true\\s+│ http://\\S+/e/\\w+ │`),
    );
    expect(table.stdout.indexOf(second.id)).toBeLessThan(table.stdout.indexOf(first.id));

    const limited = parseJson<Source[]>(await sluice(apiKey, ["list", "sources", "-n", "1", "--json"]));
    expect(limited.map((source) => source.id)).toEqual([second.id]);
  });

  it("list components prints the saved components as a table, and --json as an array without code", async () => {
    const { apiKey } = await server.newAccount();
    const empty = await sluice(apiKey, ["list", "components"]);
    expectSuccess(empty);
    expect(empty.stdout).toContain("No components yet");
    const source = await deployJson(apiKey, ["@counter.mjs"]);
    const listed = parseJson<{ id: string; code?: string }[]>(
      await sluice(apiKey, ["list", "components", "--json"]),
    );
    expect(listed.map((component) => component.id)).toEqual([source.component_id]);
    expect(listed[0]?.code).toBeUndefined();
    const table = await sluice(apiKey, ["list", "components"]);
    expectSuccess(table);
    expect(table.stdout).toContain(source.component_id);
  });

  it("delete removes the source, by name or id; then it is not found", async () => {
    const { apiKey, client } = await server.newAccount();
    const source = await deployJson(apiKey, ["@counter.mjs"]);
    const deleted = await sluice(apiKey, ["delete", "counter"]);
    expectSuccess(deleted);
    expect(deleted.stdout).toBe(`Deleted source ${source.id}\n`);
    await expect(client.getSource(source.id)).rejects.toMatchObject({ status: 404 });

    const again = await sluice(apiKey, ["delete", source.id, "--json"]);
    expectCleanFailure(again);
    expect(again.stderr).toBe(`Error: No source with id '${source.id}' in this account (not_found)\n`);
  });

  it("an unknown SOURCE is not found by every command that takes one", async () => {
    const { apiKey } = await server.newAccount();
    for (const command of ["describe", "run", "events", "logs", "delete"]) {
      const result = await sluice(apiKey, [command, "no-such-source"]);
      expectCleanFailure(result);
      expect(result.stderr).toBe("Error: No source with id 'no-such-source' in this account (not_found)\n");
      expect(result.stdout).toBe("");
    }
    const update = await sluice(apiKey, ["update", "dc_00000000000000000000000000", "--deactivate"]);
    expectCleanFailure(update);
    expect(update.stderr).toContain("(not_found)");
    const follow = await sluice(apiKey, ["events", "no-such-source", "-f"]);
    expectCleanFailure(follow);
    expect(follow.stderr).toContain("(not_found)");
  });

  it("another account's source is not found", async () => {
    const owner = await server.newAccount();
    const stranger = await server.newAccount();
    const source = await deployJson(owner.apiKey, ["@counter.mjs"]);
    for (const command of ["describe", "events", "run", "delete"]) {
      const result = await sluice(stranger.apiKey, [command, source.id]);
      expectCleanFailure(result);
      expect(result.stderr).toContain("(not_found)");
    }
    expect((await owner.client.getSource(source.id)).active).toBe(true);
  });

  it("a secret prop's value never appears in any output: deploy, update, describe, list, run, events, logs", async () => {
    const { apiKey } = await server.newAccount();
    const outputs: CliResult[] = [];
    const record = async (args: string[]) => {
      const result = await sluice(apiKey, args);
      expectSuccess(result);
      outputs.push(result);
      return result;
    };
    const deployed = await record(["deploy", "@greeter.mjs", ...greeterProps, "--json"]);
    const source = JSON.parse(deployed.stdout) as Source;
    await record(["deploy", "@greeter.mjs", ...greeterProps, "--prop", `token=${SECRET}`]);
    await record(["update", source.id, "--prop", "who=again"]);
    await record(["update", source.id, "--prop", "who=again", "--json"]);
    await record(["describe", source.id]);
    await record(["describe", source.id, "--json"]);
    await record(["list", "sources"]);
    await record(["list", "sources", "--json"]);
    await record(["run", source.id]);
    await record(["run", source.id, "--json"]);
    await record(["events", source.id]);
    await record(["events", source.id, "--json"]);
    await record(["logs", source.id, "--json"]);
    expect(outputs).toHaveLength(13);
    for (const result of outputs) {
      expect(result.stdout).not.toContain(SECRET);
      expect(result.stderr).not.toContain(SECRET);
    }
    expect(outputs[1]?.stdout).toMatch(/│ token: \*{8}\s+│/);
  });
});

describe("sluice events -f and logs -f", () => {
  /** The CLI as a long-running subprocess, its output collected as it comes. */
  function startCli(apiKey: string, args: string[]) {
    const child: ChildProcess = spawn(process.execPath, [sluiceBin, ...args], {
      env: { PATH: process.env.PATH ?? "", ...cliEnv(apiKey) },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
    });
    child.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const exit = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const waitFor = async (what: () => boolean, label: string, timeoutMs = 10_000): Promise<void> => {
      const deadline = Date.now() + timeoutMs;
      while (!what()) {
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`timed out waiting for ${label}; stdout: ${stdout}; stderr: ${stderr}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    };
    return { child, exit, waitFor, stdout: () => stdout, stderr: () => stderr };
  }

  async function countTo(client: SluiceClient, id: string, times: number): Promise<void> {
    for (let i = 0; i < times; i++) expect((await client.runSource(id)).ok).toBe(true);
  }

  it("events -f prints the last events, then one emitted after it started; SIGINT ends it with status 0", async () => {
    const { apiKey, client } = await server.newAccount();
    const source = await deployJson(apiKey, ["@counter.mjs"]);
    await countTo(client, source.id, 3);

    const cli = startCli(apiKey, ["events", "counter", "-n", "2", "-f"]);
    try {
      await cli.waitFor(() => cli.stderr().includes("Following events of counter"), "the stream to open");
      const before = cli.stdout().trim().split("\n");
      expect(before).toHaveLength(2);
      expect(before[0]).toMatch(/ count 2$/);
      expect(before[1]).toMatch(/ count 3$/);

      // Through the source's HTTP endpoint, as a caller would.
      const response = await fetch(endpointOf(source), { method: "POST", body: "{}" });
      expect(response.status).toBe(200);
      await cli.waitFor(() => cli.stdout().includes("count 4"), "the new event");
      expect(cli.stdout().trim().split("\n")).toHaveLength(3);
    } finally {
      cli.child.kill("SIGINT");
    }
    expect(await cli.exit).toBe(0);
  });

  it("events -f --json prints JSON lines, and an event emitted before the stream opened is not lost", async () => {
    const { apiKey, client } = await server.newAccount();
    const source = await deployJson(apiKey, ["@counter.mjs"]);
    const cli = startCli(apiKey, ["events", source.id, "-f", "--json"]);
    try {
      // No events yet: the stream starts from the beginning, so this one is printed however fast it comes.
      await countTo(client, source.id, 1);
      await cli.waitFor(() => cli.stdout().includes('"summary":"count 1"'), "the first event");
      await cli.waitFor(() => cli.stderr().includes("Following events"), "the stream to open");
      await countTo(client, source.id, 1);
      await cli.waitFor(() => cli.stdout().includes('"summary":"count 2"'), "the second event");
      const items = cli
        .stdout()
        .trim()
        .split("\n")
        .map((line) => JSON.parse(line) as EventSummary);
      expect(items.map((item) => item.event)).toEqual([{ n: 1 }, { n: 2 }]);
    } finally {
      cli.child.kill("SIGTERM");
    }
    expect(await cli.exit).toBe(0);
  });

  it("logs -f prints new log lines as the source logs them; SIGTERM ends it with status 0", async () => {
    const { apiKey, client } = await server.newAccount();
    const source = await deployJson(apiKey, ["@counter.mjs"]);
    await countTo(client, source.id, 1);
    const cli = startCli(apiKey, ["logs", source.id, "-f"]);
    try {
      await cli.waitFor(() => cli.stderr().includes(`Following logs of ${source.id}`), "the stream to open");
      expect(cli.stdout()).toMatch(/ log {4}counted 1\n/);
      await countTo(client, source.id, 1);
      await cli.waitFor(() => cli.stdout().includes("counted 2"), "the new log line");
      const lines = (await client.listLogs(source.id, { limit: 100 })).data;
      expect(cli.stdout().trim().split("\n")).toHaveLength(lines.length);
    } finally {
      cli.child.kill("SIGTERM");
    }
    expect(await cli.exit).toBe(0);
  });
});

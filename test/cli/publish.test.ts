/**
 * Actions from the `sluice` command, run as a subprocess against a real server: `publish` (relative
 * imports bundled), `list published`, `unpublish`, and `run-action` by file and by key, printing
 * the return value, exports, summary and logs.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionRunResult, PublishedComponent, Unpublished } from "../../src/client/types.js";
import { type CliResult, projectRoot, runCli } from "../support/cli.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

/** Pipedream's layout: an app file imported by the action, which is bundled by the CLI. */
const FILES: Record<string, string> = {
  "shop.app.mjs": `
    export default {
      type: "app",
      app: "shop",
      propDefinitions: {},
      methods: { priceWithTax(cents) { return Math.round(cents * 1.2); } },
    };`,
  "price.mjs": `
    import shop from "./shop.app.mjs";
    export default {
      key: "shop-price",
      name: "Price with tax",
      version: "0.1.0",
      type: "action",
      props: { shop, cents: { type: "integer" }, order: { type: "any", optional: true } },
      async run({ steps, $ }) {
        console.log("pricing", this.cents);
        const total = this.shop.priceWithTax(this.cents);
        $.export("$summary", "Priced at " + total);
        $.export("currency", "EUR");
        return { total, order: this.order ?? null, trigger: steps.trigger ?? null };
      },
    };`,
  "price-v2.mjs": `
    export default {
      key: "shop-price", name: "Price with tax", version: "0.2.0", type: "action",
      props: { cents: { type: "integer" } },
      async run() { return { total: this.cents * 2, version: 2 }; },
    };`,
  "price-v2-changed.mjs": `
    export default {
      key: "shop-price", name: "Price with tax", version: "0.2.0", type: "action",
      props: { cents: { type: "integer" } },
      async run() { return { total: this.cents * 3 }; },
    };`,
  "fails.mjs": `
    export default {
      name: "Fails", type: "action",
      async run() { console.log("trying"); throw new RangeError("stock is negative"); },
    };`,
};

let database: TestDatabase;
let server: TestServer;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  const sqlite = dialects.find((dialect) => dialect.name === "sqlite");
  if (!sqlite) throw new Error("the sqlite test dialect is missing");
  database = await sqlite.create();
  server = await startTestServer(database);
  dir = tempDir("sluice-cli-actions-");
  for (const [name, code] of Object.entries(FILES)) fs.writeFileSync(path.join(dir, name), code);
  fs.writeFileSync(path.join(dir, "steps.json"), JSON.stringify({ trigger: { event: { id: "o-1" } } }));
  env = { HOME: tempDir("sluice-cli-home-"), SLUICE_API_KEY: server.apiKey, SLUICE_BASE_URL: server.url };
});

afterAll(async () => {
  await server?.close();
  await database?.cleanup();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  if (env?.HOME) fs.rmSync(env.HOME, { recursive: true, force: true });
});

const sluice = (args: string[]): Promise<CliResult> => runCli(args, env);
const file = (name: string): string => path.join(dir, name);

function parseJson<T>(result: CliResult): T {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(result.stdout) as T;
}

describe("sluice run-action", () => {
  it("runs a local file (its app import bundled) and prints the return value, exports, summary and logs", async () => {
    const result = await sluice([
      "run-action",
      file("price.mjs"),
      "--prop",
      "cents=1000",
      "--prop",
      'order={"id":"o-1","lines":[1,2]}',
    ]);
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("shop-price@0.1.0: ok in");
    expect(result.stdout).toContain("Summary: Priced at 1200");
    expect(result.stdout).toMatch(/Return value:\n {2}\{\n {4}"total": 1200,/);
    expect(result.stdout).toContain('"id": "o-1"');
    expect(result.stdout).toMatch(/Exports:\n {2}currency: EUR/);
    expect(result.stdout).toMatch(/Logs:\n {2}\[log\] pricing 1000/);
  });

  it("--json prints the API's result; --steps-file is what run({ steps }) gets", async () => {
    const run = parseJson<ActionRunResult>(
      await sluice([
        "run-action",
        file("price.mjs"),
        "--prop",
        "cents=5",
        "--steps-file",
        file("steps.json"),
        "--json",
      ]),
    );
    expect(run).toMatchObject({
      ok: true,
      return_value: { total: 6, order: null, trigger: { event: { id: "o-1" } } },
      exports: { currency: "EUR" },
      summary: "Priced at 6",
      flow_exit: null,
      sends: [],
      failure: null,
    });
  });

  it("a failing action prints the error with its stack and exits with 1", async () => {
    const result = await sluice(["run-action", file("fails.mjs")]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain("failed in");
    expect(result.stdout).toMatch(/Logs:\n {2}\[log\] trying/);
    expect(result.stdout).toContain("RangeError: stock is negative");
    expect(result.stdout).toMatch(/\n\s+at /);
  });

  it("a missing prop is refused by the server, naming the prop", async () => {
    const result = await sluice(["run-action", file("price.mjs")]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: prop 'cents': a value is required/);
  });
});

describe("sluice publish, list published, unpublish", () => {
  it("publishes versions, refuses other code under a taken version, runs by key, and unpublishes", async () => {
    const first = parseJson<PublishedComponent>(await sluice(["publish", file("price.mjs"), "--json"]));
    expect(first).toMatchObject({ key: "shop-price", version: "0.1.0", type: "action" });

    const human = await sluice(["publish", file("price-v2.mjs")]);
    expect(human.code, human.stderr).toBe(0);
    expect(human.stdout).toContain("Published shop-price@0.2.0. Run it with: sluice run-action shop-price");

    const conflict = await sluice(["publish", file("price-v2-changed.mjs")]);
    expect(conflict.code).toBe(1);
    expect(conflict.stderr).toContain(
      "shop-price@0.2.0 is already published with different code; bump the version",
    );
    expect(conflict.stderr).toContain("(version_exists)");

    const listed = parseJson<PublishedComponent[]>(await sluice(["list", "published", "--json"]));
    expect(listed.map((item) => `${item.key}@${item.version}`)).toEqual([
      "shop-price@0.2.0",
      "shop-price@0.1.0",
    ]);
    const table = await sluice(["list", "published"]);
    expect(table.stdout).toContain("shop-price");
    expect(table.stdout).toContain("0.2.0");

    const latest = parseJson<ActionRunResult>(
      await sluice(["run-action", "shop-price", "--prop", "cents=10", "--json"]),
    );
    expect(latest.return_value).toEqual({ total: 20, version: 2 });
    const pinned = parseJson<ActionRunResult>(
      await sluice(["run-action", "shop-price@0.1.0", "--prop", "cents=10", "--json"]),
    );
    expect(pinned.return_value).toMatchObject({ total: 12 });

    expect(parseJson<Unpublished>(await sluice(["unpublish", "shop-price@0.2.0", "--json"]))).toEqual({
      key: "shop-price",
      versions: ["0.2.0"],
      deleted: true,
    });
    const rest = await sluice(["unpublish", "shop-price"]);
    expect(rest.stdout).toContain("Unpublished shop-price: version 0.1.0.");
    expect((await sluice(["list", "published"])).stdout).toContain("Nothing published yet");

    const gone = await sluice(["run-action", "shop-price"]);
    expect(gone.code).toBe(1);
    expect(gone.stderr).toContain("No published component 'shop-price'");
  });
});

describe("docs/actions.md", () => {
  it("its first action runs as the page shows", async () => {
    const page = fs.readFileSync(path.join(projectRoot, "docs", "actions.md"), "utf8");
    const code = /```js\n([\s\S]*?)```/.exec(page)?.[1];
    const shown = /```json\n(\{ "data": [\s\S]*?)```/.exec(page)?.[1];
    if (code === undefined || shown === undefined) throw new Error("docs/actions.md lost its example");
    fs.writeFileSync(file("docs-price.mjs"), code);
    const run = parseJson<ActionRunResult>(
      await sluice(["run-action", file("docs-price.mjs"), "--prop", "cents=1000", "--json"]),
    );
    const { data } = JSON.parse(shown) as { data: ActionRunResult };
    for (const field of [
      "ok",
      "return_value",
      "exports",
      "summary",
      "flow_exit",
      "respond",
      "sends",
      "failure",
    ] as const) {
      expect(run[field], field).toEqual(data[field]);
    }
    expect(run.logs.map((line) => line.message)).toEqual(data.logs.map((line) => line.message));
  });
});

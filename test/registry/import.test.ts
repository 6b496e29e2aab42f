/**
 * `sluice registry import` (issue 13) with a real Pipedream package: the admin imports
 * `@pipedream/helper_functions` from npm into the public registry (the server fetches it); each
 * component is reported as published, skipped or failed with its reason, and a second run changes
 * nothing. A second account finds its actions with `sluice search` and runs one by key. A local
 * folder with no components, an npm spec that does not exist and a public import by a non-admin
 * are refused with a clear error, and nothing is published.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import type { ActionRunResult, ImportReport, ListedComponent } from "../../src/client/types.js";
import { sluiceBin } from "../support/cli.js";
import { type TestServer, useSqliteServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

const PACKAGE = "@pipedream/helper_functions@0.3.13";
const NETWORK_TIMEOUT = 600_000;

interface Run {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

describe(`sluice registry import npm:${PACKAGE}`, () => {
  const server = useSqliteServer();
  let sluice: TestServer;
  let other: { apiKey: string };

  beforeAll(async () => {
    sluice = server.sluice;
    other = await sluice.newAccount("other");
  });

  /** `sluice <args>` with a key, allowed the time the npm installs of a whole package take. */
  function cli(args: string[], apiKey = sluice.apiKey): Promise<Run> {
    return new Promise((resolve) => {
      execFile(
        process.execPath,
        [sluiceBin, ...args],
        {
          env: {
            PATH: process.env.PATH ?? "",
            HOME: tempDir(),
            SLUICE_API_KEY: apiKey,
            SLUICE_BASE_URL: sluice.url,
          },
          timeout: NETWORK_TIMEOUT,
          maxBuffer: 16 * 1024 * 1024,
        },
        (error, stdout, stderr) => {
          resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
        },
      );
    });
  }

  it(
    "imports every action into the public registry, and a second run is a no-op",
    async () => {
      const first = await cli(["registry", "import", `npm:${PACKAGE}`, "--public", "--json"]);
      expect([0, 2], first.stderr).toContain(first.code);
      const report = JSON.parse(first.stdout) as ImportReport;
      expect(report.registry).toBe("public");
      const byFile = new Map(report.components.map((row) => [row.file, row]));
      expect(report.components.length).toBeGreaterThan(10);
      expect(byFile.get("actions/base64-decode-string/base64-decode-string.mjs")).toMatchObject({
        status: "published",
        key: "helper_functions-base64-decode-string",
      });
      expect(byFile.get("actions/format-iso8601-datetime/format-iso8601-datetime.mjs")?.status).toBe(
        "published",
      );
      for (const row of report.components) {
        if (row.status === "failed") expect(row.reason, row.file).toBeTruthy();
        else expect(row.status, `${row.file}: ${row.reason}`).toBe("published");
      }
      const published = report.components.filter((row) => row.status === "published").length;

      const second = await cli(["registry", "import", `npm:${PACKAGE}`, "--public", "--json"]);
      const again = JSON.parse(second.stdout) as ImportReport;
      expect(again.components.filter((row) => row.status === "skipped")).toHaveLength(published);
      expect(again.components.filter((row) => row.status === "published")).toEqual([]);
    },
    NETWORK_TIMEOUT,
  );

  it(
    "publishes all 24 components, the one keeping $.service.db state among them",
    async () => {
      // After the first test's import: every component is there (skipped as unchanged), none failed.
      const again = await cli(["registry", "import", `npm:${PACKAGE}`, "--public", "--json"]);
      expect(again.code, again.stderr).toBe(0);
      const report = JSON.parse(again.stdout) as ImportReport;
      expect(report.components.filter((row) => row.status === "failed")).toEqual([]);
      expect(report.components).toHaveLength(24);
      expect(report.components.map((row) => row.file)).toContain(
        "actions/retrieve-new-rss-stories/retrieve-new-rss-stories.mjs",
      );
    },
    NETWORK_TIMEOUT,
  );

  it("a second account finds the actions with sluice search and runs one by key", async () => {
    const search = await cli(["search", "base64", "--app", "helper_functions", "--json"], other.apiKey);
    expect(search.code, search.stderr).toBe(0);
    const found = JSON.parse(search.stdout) as ListedComponent[];
    expect(found.map((row) => row.key)).toContain("helper_functions-base64-decode-string");
    expect(found.every((row) => row.registry === "public" && row.type === "action")).toBe(true);

    const encoded = Buffer.from("Imported ✓").toString("base64");
    const run = await cli(
      ["run-action", "helper_functions-base64-decode-string", "--prop", `data=${encoded}`, "--json"],
      other.apiKey,
    );
    expect(run.code, run.stderr).toBe(0);
    const result = JSON.parse(run.stdout) as ActionRunResult;
    expect(result).toMatchObject({ ok: true, exports: { data: "Imported ✓" } });
  });

  it("imports a local folder in Pipedream's layout into the account's private registry", async () => {
    const folder = tempDir("sluice-folder-package-");
    const write = (name: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(folder, name)), { recursive: true });
      fs.writeFileSync(path.join(folder, name), text);
    };
    write(
      "shop.app.mjs",
      'export default { type: "app", app: "shop", methods: { tax(c) { return Math.round(c * 1.2); } } };',
    );
    write("common/constants.mjs", 'export const CURRENCY = "EUR";');
    write(
      "actions/price/price.mjs",
      'import shop from "../../shop.app.mjs";\nimport { CURRENCY } from "../../common/constants.mjs";\n' +
        'export default { key: "shop-price", name: "Price", description: "Price with tax", version: "0.1.0", type: "action",\n' +
        '  props: { shop, cents: { type: "integer" } }, run() { return this.shop.tax(this.cents) + " " + CURRENCY; } };',
    );
    write("actions/price/helpers.mjs", "export const unused = 1;");
    write(
      "actions/broken/broken.mjs",
      "export default { key: 'shop-broken', name: 'Broken', version: '0.1.0', type: 'action', run( {} };",
    );
    // A CommonJS helper's require("ms") would be hidden in an ES module bundle: refused, as the CLI does.
    write("common/legacy.cjs", 'module.exports = { ms: require("ms") };');
    write(
      "actions/requires-package/requires-package.mjs",
      'import legacy from "../../common/legacy.cjs";\n' +
        'export default { key: "shop-legacy", name: "Legacy", description: "d", version: "0.1.0", type: "action", run() { return legacy.ms("1s"); } };',
    );
    write(
      "sources/new-order/new-order.mjs",
      'export default { key: "shop-new-order", name: "New order", description: "Orders", version: "0.1.0",\n' +
        '  props: { http: { type: "$.interface.http" } }, async run(event) { this.$emit(event.body); } };',
    );
    const first = await cli(["registry", "import", folder, "--json"], other.apiKey);
    expect(first.code, first.stderr).toBe(2);
    const report = JSON.parse(first.stdout) as ImportReport;
    expect(report.components.map((row) => [row.file, row.status])).toEqual([
      ["actions/broken/broken.mjs", "failed"],
      ["actions/price/price.mjs", "published"],
      ["actions/requires-package/requires-package.mjs", "failed"],
      ["sources/new-order/new-order.mjs", "published"],
    ]);
    expect(report.components[0]?.reason).toMatch(/broken\.mjs/);
    expect(report.components[2]?.reason).toContain(
      'common/legacy.cjs calls require("ms") inside an ES module component',
    );
    const second = await cli(["registry", "import", folder], other.apiKey);
    expect(second.stdout).toContain(
      "0 published, 2 skipped (already there), 2 failed, in the private registry.",
    );
    const run = await cli(["run-action", "shop-price", "--prop", "cents=100", "--json"], other.apiKey);
    expect((JSON.parse(run.stdout) as ActionRunResult).return_value).toBe("120 EUR");
  });

  it("refuses a folder with no components, an npm spec that does not exist, and a public import by a non-admin", async () => {
    const empty = tempDir("sluice-empty-package-");
    fs.mkdirSync(path.join(empty, "lib"));
    fs.writeFileSync(path.join(empty, "lib", "util.mjs"), "export const x = 1;");
    fs.writeFileSync(path.join(empty, "package.json"), '{"name":"empty"}');
    const before = (await sluice.client.searchComponents({ registry: "all", limit: 100 })).page_info
      .total_count;

    const noComponents = await cli(["registry", "import", empty]);
    expect(noComponents.code).toBe(1);
    expect(noComponents.stderr).toContain("The package has no components");

    const missing = await cli(["registry", "import", "npm:@pipedream/sluice-no-such-package-xyz@1.0.0"]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toContain("has no package '@pipedream/sluice-no-such-package-xyz@1.0.0'");

    for (const spec of ["npm:file:/etc", "npm:git+https://example.com/x.git", "npm:lodash@4/lib"]) {
      const refused = await cli(["registry", "import", spec]);
      expect(refused.code, spec).toBe(1);
      expect(refused.stderr, spec).toMatch(/not a valid npm import|is not a package/);
    }

    const notAdmin = await cli(["registry", "import", `npm:${PACKAGE}`, "--public"], other.apiKey);
    expect(notAdmin.code).toBe(1);
    expect(notAdmin.stderr).toContain("Only an admin can import into the public registry");

    expect(
      (await sluice.client.searchComponents({ registry: "all", limit: 100 })).page_info.total_count,
    ).toBe(before);
  }, 120_000); // six CLI processes, two of them asking the npm registry
});

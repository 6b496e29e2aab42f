/**
 * Dynamic props from the `sluice` command, as a subprocess against a real server: a
 * ConfigurationError is one plain line (no stack trace), and `--dynamic-props-id` takes the
 * `dyp_` id of `POST /v1/components/props` to deploy a source and run an action with the props
 * their additionalProps added.
 */
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { appsApi } from "../../src/client/apps-client.js";
import { runCli, useCliServer } from "../support/cli.js";
import type { TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

const LOCKED = `import { ConfigurationError } from "@pipedream/platform";
export default {
  name: "locked sheet",
  hooks: { async deploy() { throw new ConfigurationError("The spreadsheet is locked: unlock it first"); } },
  async run() {},
};`;

/** A prop per column of the header row. */
const columns = (type: string, key: string, run: string) => `export default {
  name: "${key}", key: "${key}", version: "0.0.1",${type}
  props: { headerRow: { type: "string", reloadProps: true } },
  async additionalProps() {
    return Object.fromEntries(this.headerRow.split(",").map((c) => [c, { type: "string" }]));
  },
  ${run}
};`;

const SHEET_SOURCE = columns(
  "",
  "cli-sheet-source",
  `async run() { this.$emit({ name: this.name, email: this.email }); },`,
);
const SHEET_ACTION = columns(
  ` type: "action",`,
  "cli-sheet-action",
  `async run() { return { name: this.name, email: this.email }; },`,
);

describe("sluice and dynamic props", () => {
  const server = useCliServer();
  let sluice: TestServer;
  let env: Record<string, string>;

  beforeAll(() => {
    ({ sluice, env } = server);
  });

  it("prints a ConfigurationError from a deploy hook as one plain line, without a stack trace", async () => {
    const file = path.join(tempDir(), "locked.mjs");
    fs.writeFileSync(file, LOCKED);
    const deployed = await runCli(["deploy", file], env);
    expect(deployed.code).toBe(1);
    expect(deployed.stdout).toBe("");
    expect(deployed.stderr).toBe(
      "Error: the deploy hook: The spreadsheet is locked: unlock it first; the source was not deployed (configuration_error)\n",
    );
    const listed = await runCli(["list", "sources", "--json"], env);
    expect(listed.code, listed.stderr).toBe(0);
    expect(listed.stdout).not.toContain("locked sheet");
  }, 90_000);

  it("deploys a source and runs an action with --dynamic-props-id", async () => {
    const api = appsApi(sluice.client);
    const source = await sluice.client.saveComponent({ component_code: SHEET_SOURCE });
    const sourceProps = await api.reloadProps({
      id: source.id,
      configured_props: { headerRow: "name,email" },
    });
    const deployed = await runCli(
      [
        "deploy",
        source.id,
        "--dynamic-props-id",
        sourceProps.dynamicProps?.id ?? "(additionalProps gave no props)",
        "--prop",
        "headerRow=name,email",
        "--prop",
        "name=Ada",
        "--prop",
        "email=ada@example.com",
        "--json",
      ],
      env,
    );
    expect(deployed.code, deployed.stderr).toBe(0);
    const created = JSON.parse(deployed.stdout) as { id: string; configured_props: Record<string, unknown> };
    expect(created.configured_props).toMatchObject({ name: "Ada", email: "ada@example.com" });
    await sluice.client.runSource(created.id);
    const events = await sluice.client.listEvents(created.id, { expand: "event" });
    expect(events.data[0]?.event).toEqual({ name: "Ada", email: "ada@example.com" });

    await sluice.client.publishComponent({ component_code: SHEET_ACTION });
    const actionProps = await api.reloadProps({
      id: "cli-sheet-action",
      configured_props: { headerRow: "name,email" },
    });
    const props = ["--prop", "headerRow=name,email", "--prop", "name=Grace", "--prop", "email=g@example.com"];
    const ran = await runCli(
      [
        "run-action",
        "cli-sheet-action",
        "--dynamic-props-id",
        actionProps.dynamicProps?.id ?? "(additionalProps gave no props)",
        ...props,
        "--json",
      ],
      env,
    );
    expect(ran.code, ran.stderr).toBe(0);
    expect(JSON.parse(ran.stdout)).toMatchObject({
      ok: true,
      return_value: { name: "Grace", email: "g@example.com" },
    });
    // Without the id, the added props are unknown to the server.
    const without = await runCli(["run-action", "cli-sheet-action", ...props], env);
    expect(without.code).toBe(1);
    expect(without.stderr).toContain("prop 'name'");
  }, 120_000);
});

/** `sluice apps` and `sluice connections` as a subprocess against a real server. */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

const SECRET = "cli-secret-token-never-printed-5521";

describe("sluice apps and sluice connections", () => {
  let database: TestDatabase;
  let sluice: TestServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    database = await (dialects[0] as NonNullable<(typeof dialects)[0]>).create();
    sluice = await startTestServer(database);
    env = { HOME: tempDir(), SLUICE_API_KEY: sluice.apiKey, SLUICE_BASE_URL: sluice.url };
  });
  afterAll(async () => {
    await sluice?.close();
    await database?.cleanup();
  });

  it("registers apps from a YAML file, connects an account with --field, and deletes it", async () => {
    const file = path.join(tempDir(), "apps.yaml");
    fs.writeFileSync(
      file,
      [
        "apps:",
        "  - slug: weather",
        "    name: Weather API",
        "    auth_type: keys",
        "    fields:",
        "      - { name: token, secret: true }",
        "      - { name: units, optional: true }",
        "",
      ].join("\n"),
    );
    const applied = await runCli(["apps", "apply", file, "--server"], env);
    expect(applied.code, applied.stderr).toBe(0);
    expect(applied.stdout).toContain("weather");
    const listed = await runCli(["apps", "list", "--json"], env);
    expect(JSON.parse(listed.stdout)).toEqual([
      expect.objectContaining({ name_slug: "weather", scope: "server", auth_type: "keys" }),
    ]);

    const missing = await runCli(
      ["connections", "create", "--app", "weather", "--field", "units=metric"],
      env,
    );
    expect(missing.code).not.toBe(0);
    expect(missing.stderr).toContain("'token'");

    const created = await runCli(
      ["connections", "create", "--app", "weather", "--name", "home", "--field", `token=${SECRET}`, "--json"],
      env,
    );
    expect(created.code, created.stderr).toBe(0);
    expect(created.stdout + created.stderr).not.toContain(SECRET);
    const account = JSON.parse(created.stdout) as { id: string; name: string };
    expect(account.id).toMatch(/^apn_/);

    const list = await runCli(["connections", "list", "--app", "weather"], env);
    expect(list.stdout).toContain(account.id);
    expect(list.stdout).toContain("home");
    const renamed = await runCli(["connections", "rename", account.id, "office", "--json"], env);
    expect(JSON.parse(renamed.stdout).name).toBe("office");
    const deleted = await runCli(["connections", "delete", account.id, "--json"], env);
    expect(deleted.code, deleted.stderr).toBe(0);
    const gone = await runCli(["connections", "get", account.id], env);
    expect(gone.code).not.toBe(0);
    expect(gone.stderr).toContain("No connected account");
  });
  it("sluice data-stores: create, set with a TTL, read, list and unset records", async () => {
    const created = await runCli(["data-stores", "create", "cli-store", "--json"], env);
    expect(created.code, created.stderr).toBe(0);
    const set = await runCli(
      ["data-stores", "set", "cli-store", "colour", '{"name":"teal"}', "--ttl", "600"],
      env,
    );
    expect(set.code, set.stderr).toBe(0);
    const got = await runCli(["data-stores", "get", "cli-store", "colour", "--json"], env);
    expect(JSON.parse(got.stdout)).toEqual({ key: "colour", value: { name: "teal" } });
    const records = await runCli(["data-stores", "records", "cli-store"], env);
    expect(records.stdout).toContain("colour");
    const list = await runCli(["data-stores", "list", "--json"], env);
    expect(JSON.parse(list.stdout)).toEqual([
      expect.objectContaining({ name: "cli-store", record_count: 1 }),
    ]);
    const unset = await runCli(["data-stores", "unset", "cli-store", "colour"], env);
    expect(unset.code, unset.stderr).toBe(0);
    const gone = await runCli(["data-stores", "get", "cli-store", "colour"], env);
    expect(gone.code).not.toBe(0);
  });
});

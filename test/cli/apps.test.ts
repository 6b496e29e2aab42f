/** `sluice apps` and `sluice connections` as a subprocess against a real server. */
import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, spawnCli, useCliServer } from "../support/cli.js";
import { followAuthorize, startOAuthProvider } from "../support/oauth-provider.js";
import { tempDir } from "../support/temp.js";

const SECRET = "cli-secret-token-never-printed-5521";

describe("sluice apps and sluice connections", () => {
  const server = useCliServer({ env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8" } });
  let env: Record<string, string>;

  beforeAll(() => {
    env = server.env;
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
  }, 90_000);
  it("registers an OAuth app from a file with its secret from the environment, and connects an account through the browser flow", async () => {
    const provider = await startOAuthProvider();
    try {
      const file = path.join(tempDir(), "oauth-apps.yaml");
      const { client_secret: _, ...settings } = provider.appSettings();
      fs.writeFileSync(
        file,
        JSON.stringify({
          apps: [
            {
              slug: "mockprovider",
              auth_type: "oauth",
              oauth: { ...settings, client_secret_env: "MOCK_CLIENT_SECRET" },
            },
          ],
        }),
      );
      const unset = await runCli(["apps", "apply", file], env);
      expect(unset.code).not.toBe(0);
      expect(unset.stderr).toContain("MOCK_CLIENT_SECRET");
      const applied = await runCli(["apps", "apply", file, "--json"], {
        ...env,
        MOCK_CLIENT_SECRET: provider.clientSecret,
      });
      expect(applied.code, applied.stderr).toBe(0);
      expect(JSON.parse(applied.stdout)[0]).toMatchObject({
        auth_type: "oauth",
        oauth: { has_client_secret: true },
      });
      expect(applied.stdout).not.toContain(provider.clientSecret);

      const connecting = spawnCli(
        ["connections", "connect", "--app", "mockprovider", "--name", "cli", "--json"],
        env,
      );
      const [, url] = await connecting.waitForStderr(/\n {2}(http\S+)\n/);
      const followed = await followAuthorize(url ?? "");
      expect(followed.status).toBe(200);
      const result = await connecting.result;
      expect(result.code, result.stderr).toBe(0);
      const account = JSON.parse(result.stdout) as { id: string; name: string; auth_type: string };
      expect(account).toMatchObject({ id: followed.authProvisionId, name: "cli", auth_type: "oauth" });
      for (const token of provider.issued) expect(result.stdout + result.stderr).not.toContain(token);

      const keys = await runCli(["connections", "create", "--app", "mockprovider", "--field", "a=b"], env);
      expect(keys.code).not.toBe(0);
      expect(keys.stderr).toContain("sluice connections connect");
    } finally {
      await provider.close();
    }
  }, 90_000);

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
  }, 90_000);
});

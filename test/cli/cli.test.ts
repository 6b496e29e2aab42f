/**
 * The `sluice` command as a user runs it: a subprocess (bin/sluice.js over dist/) talking to a real
 * server on a real socket. Every run gets a HOME of its own, so ~/.config/sluice/config is isolated.
 */
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import ini from "ini";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type CliResult, runCli } from "../support/cli.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

interface WebhookJson {
  id: string;
  url: string;
  name: string;
  description: string;
  active: boolean;
  created_at: number;
  updated_at: number;
  signing_secret?: string;
}

interface ApiKeyJson {
  id: string;
  name: string | null;
  prefix: string;
  api_key?: string;
}

let database: TestDatabase;
let server: TestServer;
const homes: string[] = [];

beforeAll(async () => {
  const sqlite = dialects.find((dialect) => dialect.name === "sqlite");
  if (!sqlite) throw new Error("the sqlite test dialect is missing");
  database = await sqlite.create();
  server = await startTestServer(database);
});

afterAll(async () => {
  await server?.close();
  await database?.cleanup();
  for (const home of homes) fs.rmSync(home, { recursive: true, force: true });
});

/** A new, empty HOME directory. */
function newHome(): string {
  const home = tempDir("sluice-cli-home-");
  homes.push(home);
  return home;
}

function configFile(home: string): string {
  return path.join(home, ".config", "sluice", "config");
}

/** Runs the CLI in a HOME of its own, authenticated through the environment. */
function sluiceAs(apiKey: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  return runCli(args, { HOME: newHome(), SLUICE_API_KEY: apiKey, SLUICE_BASE_URL: server.url, ...env });
}

function parseJson<T>(result: CliResult): T {
  expect(result.stderr).toBe("");
  expect(result.code).toBe(0);
  return JSON.parse(result.stdout) as T;
}

/** Fails with the CLI's output if the run did not succeed. */
function expectSuccess(result: CliResult): void {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
}

/** A failure the CLI reports as a message, not a crash: stderr starts with "Error:" and shows no stack. */
function expectCleanFailure(result: CliResult): void {
  expect(result.code).not.toBe(0);
  expect(result.stderr).toMatch(/^Error: /);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

/** A port on 127.0.0.1 that nothing listens on. */
async function closedPort(): Promise<number> {
  const listener = net.createServer();
  await new Promise<void>((resolve) => listener.listen(0, "127.0.0.1", resolve));
  const address = listener.address();
  if (address === null || typeof address === "string") throw new Error("no port");
  await new Promise<void>((resolve, reject) =>
    listener.close((error) => (error ? reject(error) : resolve())),
  );
  return address.port;
}

describe("sluice login and profiles", () => {
  it("login checks the key, saves it in the default profile of a 0600 INI file, and later commands use it", async () => {
    const home = newHome();
    const admin = await server.client.me();

    const login = await runCli(["login", "--api-key", server.apiKey, "--base-url", server.url], {
      HOME: home,
    });
    expectSuccess(login);
    expect(login.stdout).toContain(`Logged in to ${server.url} as admin (${admin.id})`);

    const file = configFile(home);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const saved = ini.parse(fs.readFileSync(file, "utf8"));
    expect(saved).toEqual({ default: { api_key: server.apiKey, base_url: server.url } });

    // No key or URL on the command line or in the environment: the profile supplies both.
    const whoami = parseJson<{ id: string; name: string; base_url: string; profile: string }>(
      await runCli(["whoami", "--json"], { HOME: home }),
    );
    expect(whoami).toMatchObject({ id: admin.id, name: "admin", base_url: server.url, profile: "default" });
  });

  it("login --profile writes a section of its own, and --profile or SLUICE_PROFILE selects it", async () => {
    const home = newHome();
    const other = await server.newAccount("profile-owner");
    expectSuccess(
      await runCli(["login", "--api-key", server.apiKey, "--base-url", server.url], { HOME: home }),
    );
    expectSuccess(
      await runCli(["login", "--api-key", other.apiKey, "--base-url", server.url, "--profile", "work"], {
        HOME: home,
      }),
    );

    const saved = ini.parse(fs.readFileSync(configFile(home), "utf8"));
    expect(saved).toEqual({
      default: { api_key: server.apiKey, base_url: server.url },
      work: { api_key: other.apiKey, base_url: server.url },
    });

    const asDefault = parseJson<{ id: string; profile: string }>(
      await runCli(["whoami", "--json"], { HOME: home }),
    );
    expect(asDefault.profile).toBe("default");
    expect(asDefault.id).not.toBe(other.id);

    const asWork = parseJson<{ id: string; name: string; profile: string }>(
      await runCli(["whoami", "--json", "--profile", "work"], { HOME: home }),
    );
    expect(asWork).toMatchObject({ id: other.id, name: "profile-owner", profile: "work" });

    const fromEnv = parseJson<{ id: string; profile: string }>(
      await runCli(["whoami", "--json"], { HOME: home, SLUICE_PROFILE: "work" }),
    );
    expect(fromEnv).toMatchObject({ id: other.id, profile: "work" });
  });

  it("with XDG_CONFIG_HOME set, the profile file is XDG_CONFIG_HOME/sluice/config", async () => {
    const home = newHome();
    const xdg = path.join(home, "xdg");
    expectSuccess(
      await runCli(["login", "--api-key", server.apiKey, "--base-url", server.url], {
        HOME: home,
        XDG_CONFIG_HOME: xdg,
      }),
    );
    expect(fs.existsSync(configFile(home))).toBe(false);
    const file = path.join(xdg, "sluice", "config");
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(ini.parse(fs.readFileSync(file, "utf8"))).toEqual({
      default: { api_key: server.apiKey, base_url: server.url },
    });
    const whoami = await runCli(["whoami", "--json"], { HOME: home, XDG_CONFIG_HOME: xdg });
    expect(parseJson<{ name: string }>(whoami).name).toBe("admin");
  });

  it("login with a wrong key fails with an authentication error and writes no config", async () => {
    const home = newHome();
    const result = await runCli(["login", "--api-key", "sk_not_a_real_key", "--base-url", server.url], {
      HOME: home,
    });
    expectCleanFailure(result);
    expect(result.stderr).toContain("Authentication failed");
    expect(result.stdout).toBe("");
    expect(fs.existsSync(configFile(home))).toBe(false);
  });

  it("login to a server that cannot be reached saves the key with a warning", async () => {
    const home = newHome();
    const deadUrl = `http://127.0.0.1:${await closedPort()}`;
    const result = await runCli(["login", "--api-key", "sk_unchecked_key", "--base-url", deadUrl], {
      HOME: home,
    });
    expect(result.code).toBe(0);
    expect(result.stderr).toContain(`Warning: Cannot reach the Sluice server at ${deadUrl}`);
    expect(ini.parse(fs.readFileSync(configFile(home), "utf8"))).toEqual({
      default: { api_key: "sk_unchecked_key", base_url: deadUrl },
    });
  });

  it("SLUICE_API_KEY and SLUICE_BASE_URL override the profile, and flags override both", async () => {
    const home = newHome();
    const other = await server.newAccount("env-owner");
    const deadUrl = `http://127.0.0.1:${await closedPort()}`;
    const file = configFile(home);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(
      file,
      ini.stringify({ default: { api_key: "sk_profile_key_revoked", base_url: deadUrl } }),
    );

    const both = parseJson<{ id: string; base_url: string }>(
      await runCli(["whoami", "--json"], {
        HOME: home,
        SLUICE_API_KEY: other.apiKey,
        SLUICE_BASE_URL: server.url,
      }),
    );
    expect(both).toMatchObject({ id: other.id, base_url: server.url });

    // Each variable overrides only its own setting: the profile's URL is still used here.
    const keyOnly = await runCli(["whoami", "--json"], { HOME: home, SLUICE_API_KEY: other.apiKey });
    expectCleanFailure(keyOnly);
    expect(keyOnly.stderr).toContain(`Cannot reach the Sluice server at ${deadUrl}`);

    // And the profile's key is used when only the URL is overridden.
    const urlOnly = await runCli(["whoami", "--json"], { HOME: home, SLUICE_BASE_URL: server.url });
    expectCleanFailure(urlOnly);
    expect(urlOnly.stderr).toContain("Authentication failed");

    const flags = parseJson<{ id: string }>(
      await runCli(["whoami", "--json", "--api-key", server.apiKey, "--base-url", server.url], {
        HOME: home,
        SLUICE_API_KEY: other.apiKey,
        SLUICE_BASE_URL: deadUrl,
      }),
    );
    expect(flags.id).toBe((await server.client.me()).id);
  });
});

describe("sluice webhooks", () => {
  it("webhooks create prints a table with the signing secret, and --json prints the API's data", async () => {
    const { apiKey } = await server.newAccount();
    const table = await sluiceAs(apiKey, [
      "webhooks",
      "create",
      "--url",
      "https://example.com/table-hook",
      "--name",
      "table hook",
      "--description",
      "made by the table test",
    ]);
    expectSuccess(table);
    expect(table.stdout).toMatch(/│ signing_secret\s+│ whsec_[A-Za-z0-9+/=]+\s+│/);
    expect(table.stdout).toMatch(/│ id\s+│ wh_[0-9a-z]{26}\s+│/);
    expect(table.stdout).toContain("https://example.com/table-hook");
    expect(table.stdout).toContain("made by the table test");
    expect(table.stdout).toContain("Keep the signing_secret: it is shown only now.");

    const created = parseJson<WebhookJson>(
      await sluiceAs(apiKey, [
        "webhooks",
        "create",
        "--url",
        "https://example.com/json-hook",
        "--name",
        "json hook",
        "--description",
        "made by the json test",
        "--json",
      ]),
    );
    expect(created.id).toMatch(/^wh_/);
    expect(created.signing_secret).toMatch(/^whsec_/);
    expect(created).toMatchObject({
      url: "https://example.com/json-hook",
      name: "json hook",
      description: "made by the json test",
      active: true,
    });
    // The CLI printed exactly what the API stored.
    const stored = await server.clientWith(apiKey).getWebhook(created.id);
    expect({ ...created, signing_secret: undefined }).toEqual({ ...stored, signing_secret: undefined });
  });

  it("webhooks list prints the account's webhooks as a table, and --json prints them as an array, newest first", async () => {
    const { apiKey } = await server.newAccount();

    const none = await sluiceAs(apiKey, ["webhooks", "list"]);
    expectSuccess(none);
    expect(none.stdout).toContain("No webhooks yet");
    expect(parseJson<unknown[]>(await sluiceAs(apiKey, ["webhooks", "list", "--json"]))).toEqual([]);

    const first = parseJson<WebhookJson>(
      await sluiceAs(apiKey, [
        "webhooks",
        "create",
        "--url",
        "https://a.example/1",
        "--name",
        "one",
        "--json",
      ]),
    );
    const second = parseJson<WebhookJson>(
      await sluiceAs(apiKey, [
        "webhooks",
        "create",
        "--url",
        "https://b.example/2",
        "--name",
        "two",
        "--json",
      ]),
    );

    const list = parseJson<WebhookJson[]>(await sluiceAs(apiKey, ["webhooks", "list", "--json"]));
    expect(Array.isArray(list)).toBe(true);
    expect(list.map((webhook) => webhook.id)).toEqual([second.id, first.id]);
    expect(list[0]).toMatchObject({ name: "two", url: "https://b.example/2", active: true });
    expect(list[0]).not.toHaveProperty("signing_secret");

    const table = await sluiceAs(apiKey, ["webhooks", "list"]);
    expectSuccess(table);
    expect(table.stdout).toMatch(/│ id\s+│ name\s+│ url\s+│ active\s+│ created\s+│/);
    expect(table.stdout).toMatch(new RegExp(`│ ${second.id} │ two\\s+│ https://b\\.example/2 │ true\\s+│`));
    expect(table.stdout).toMatch(new RegExp(`│ ${first.id} │ one\\s+│ https://a\\.example/1 │ true\\s+│`));
    expect(table.stdout.indexOf(second.id)).toBeLessThan(table.stdout.indexOf(first.id));
    expect(table.stdout).not.toContain("whsec_");

    const limited = parseJson<WebhookJson[]>(
      await sluiceAs(apiKey, ["webhooks", "list", "-n", "1", "--json"]),
    );
    expect(limited.map((webhook) => webhook.id)).toEqual([second.id]);
  });

  it("webhooks get shows one webhook; after webhooks delete, get fails with not_found", async () => {
    const { apiKey } = await server.newAccount();
    const created = parseJson<WebhookJson>(
      await sluiceAs(apiKey, [
        "webhooks",
        "create",
        "--url",
        "https://example.com/doomed",
        "--name",
        "doomed",
        "--json",
      ]),
    );

    const got = parseJson<WebhookJson>(await sluiceAs(apiKey, ["webhooks", "get", created.id, "--json"]));
    expect(got).toEqual({ ...created, signing_secret: undefined, updated_at: got.updated_at });
    expect(got).not.toHaveProperty("signing_secret");
    const table = await sluiceAs(apiKey, ["webhooks", "get", created.id]);
    expectSuccess(table);
    expect(table.stdout).toMatch(new RegExp(`│ id\\s+│ ${created.id}\\s+│`));
    expect(table.stdout).toMatch(/│ name\s+│ doomed\s+│/);

    const deleted = await sluiceAs(apiKey, ["webhooks", "delete", created.id]);
    expectSuccess(deleted);
    expect(deleted.stdout).toBe(`Deleted webhook ${created.id}\n`);

    const gone = await sluiceAs(apiKey, ["webhooks", "get", created.id]);
    expectCleanFailure(gone);
    expect(gone.stderr).toContain(`No webhook with id '${created.id}'`);
    expect(gone.stderr).toContain("(not_found)");
    expect(gone.stdout).toBe("");

    const again = await sluiceAs(apiKey, ["webhooks", "delete", created.id]);
    expectCleanFailure(again);
    expect(again.stderr).toContain("(not_found)");
  });

  it("another account's webhook is not found", async () => {
    const owner = await server.newAccount();
    const stranger = await server.newAccount();
    const created = parseJson<WebhookJson>(
      await sluiceAs(owner.apiKey, [
        "webhooks",
        "create",
        "--url",
        "https://x.example/",
        "--name",
        "x",
        "--json",
      ]),
    );
    for (const command of ["get", "delete"]) {
      const result = await sluiceAs(stranger.apiKey, ["webhooks", command, created.id]);
      expectCleanFailure(result);
      expect(result.stderr).toContain("(not_found)");
    }
    expect((await owner.client.getWebhook(created.id)).id).toBe(created.id);
  });

  it("webhooks create with an ftp:// url prints the API's message and exits non-zero", async () => {
    const { apiKey, client } = await server.newAccount();
    const result = await sluiceAs(apiKey, ["webhooks", "create", "--url", "ftp://x", "--name", "bad"]);
    expectCleanFailure(result);
    expect(result.stderr).toBe("Error: url must use http or https, not ftp (invalid_url)\n");
    expect(result.stdout).toBe("");
    expect((await client.listWebhooks()).data).toEqual([]);
  });
});

describe("sluice authentication errors", () => {
  it("a bad API key gets an authentication error, never an empty list", async () => {
    for (const args of [
      ["webhooks", "list"],
      ["webhooks", "list", "--json"],
      ["api-keys", "list", "--json"],
    ]) {
      const result = await sluiceAs("sk_wrong_key_0000000000000000", args);
      expectCleanFailure(result);
      expect(result.stderr).toContain("Authentication failed");
      expect(result.stderr).toContain("sluice login");
      expect(result.stdout).toBe("");
    }
  });

  it("a revoked API key gets an authentication error, never an empty list", async () => {
    const account = await server.newAccount();
    const spare = await account.client.createApiKey("to revoke");
    expectSuccess(await sluiceAs(spare.api_key, ["webhooks", "list", "--json"]));
    await account.client.revokeApiKey(spare.id);

    const result = await sluiceAs(spare.api_key, ["webhooks", "list", "--json"]);
    expectCleanFailure(result);
    expect(result.stderr).toContain("Authentication failed");
    expect(result.stdout).toBe("");
  });

  it("with no API key configured at all, commands say to run sluice login", async () => {
    for (const args of [["whoami"], ["webhooks", "list", "--json"]]) {
      const result = await runCli(args, { HOME: newHome(), SLUICE_BASE_URL: server.url });
      expectCleanFailure(result);
      expect(result.stderr).toContain("No API key for profile 'default'");
      expect(result.stderr).toContain("sluice login");
      expect(result.stdout).toBe("");
    }
  });

  it("an unreachable server gives a clear Cannot reach error", async () => {
    const deadUrl = `http://127.0.0.1:${await closedPort()}`;
    const result = await runCli(["webhooks", "list"], {
      HOME: newHome(),
      SLUICE_API_KEY: server.apiKey,
      SLUICE_BASE_URL: deadUrl,
    });
    expectCleanFailure(result);
    expect(result.stderr).toContain(`Cannot reach the Sluice server at ${deadUrl}`);
    expect(result.stderr).toContain("ECONNREFUSED");
    expect(result.stdout).toBe("");
  });
});

describe("sluice accounts and api-keys", () => {
  it("accounts create with the admin key returns id, name and an API key that works", async () => {
    const created = parseJson<{ id: string; name: string; api_key: string }>(
      await sluiceAs(server.apiKey, ["accounts", "create", "carol", "--json"]),
    );
    expect(created.id).toMatch(/^u_/);
    expect(created.name).toBe("carol");
    expect(created.api_key).toMatch(/^sk_/);

    const whoami = parseJson<{ id: string; name: string; is_admin: boolean }>(
      await sluiceAs(created.api_key, ["whoami", "--json"]),
    );
    expect(whoami).toMatchObject({ id: created.id, name: "carol", is_admin: false });
  });

  it("accounts create with a non-admin key is refused with admin_required", async () => {
    const { apiKey } = await server.newAccount();
    const result = await sluiceAs(apiKey, ["accounts", "create", "mallory", "--json"]);
    expectCleanFailure(result);
    expect(result.stderr).toContain("(admin_required)");
    expect(result.stdout).toBe("");
  });

  it("api-keys create, list and revoke: list never shows a full key, and a revoked key is refused", async () => {
    const account = await server.newAccount();

    const created = parseJson<ApiKeyJson>(
      await sluiceAs(account.apiKey, ["api-keys", "create", "--name", "ci", "--json"]),
    );
    expect(created.id).toMatch(/^key_/);
    expect(created.name).toBe("ci");
    expect(created.api_key).toMatch(/^sk_/);
    const newKey = created.api_key ?? "";
    expect(newKey.startsWith(created.prefix)).toBe(true);

    // The new key works.
    expect(parseJson<{ id: string }>(await sluiceAs(newKey, ["whoami", "--json"])).id).toBe(account.id);

    const listed = await sluiceAs(account.apiKey, ["api-keys", "list", "--json"]);
    const keys = parseJson<ApiKeyJson[]>(listed);
    expect(keys.map((key) => key.id)).toContain(created.id);
    expect(keys).toHaveLength(2);
    expect(listed.stdout).not.toContain(newKey);
    expect(listed.stdout).not.toContain(account.apiKey);
    for (const key of keys) expect(key).not.toHaveProperty("api_key");

    const table = await sluiceAs(account.apiKey, ["api-keys", "list"]);
    expectSuccess(table);
    expect(table.stdout).toContain(created.id);
    expect(table.stdout).not.toContain(newKey);

    const revoked = await sluiceAs(account.apiKey, ["api-keys", "revoke", created.id]);
    expectSuccess(revoked);
    expect(revoked.stdout).toBe(`Revoked API key ${created.id}\n`);

    const after = parseJson<ApiKeyJson[]>(await sluiceAs(account.apiKey, ["api-keys", "list", "--json"]));
    expect(after.map((key) => key.id)).not.toContain(created.id);
    expect(after).toHaveLength(1);

    const refused = await sluiceAs(newKey, ["whoami"]);
    expectCleanFailure(refused);
    expect(refused.stderr).toContain("Authentication failed");

    // The account's remaining key still works, and cannot be revoked: it is the last one.
    const last = after[0];
    if (!last) throw new Error("no key left");
    const lastRevoke = await sluiceAs(account.apiKey, ["api-keys", "revoke", last.id]);
    expectCleanFailure(lastRevoke);
    expect(lastRevoke.stderr).toContain("(last_api_key)");
    expect(parseJson<{ id: string }>(await sluiceAs(account.apiKey, ["whoami", "--json"])).id).toBe(
      account.id,
    );
  });
});

/**
 * `sluice run-action` and `sluice deploy` at a terminal ask for what is missing, live from the
 * server: an app prop by connecting a new account (the app's fields, the secret one hidden) or by
 * picking an existing one, a prop whose options come from the component (three pages, "More…" for
 * the next), and a searchable one (`useQuery`). The terminal is real: the CLI runs under `script`,
 * on a pseudo-terminal, and the test types keys.
 */
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appsApi } from "../../src/client/apps-client.js";
import { sluiceBin } from "../support/cli.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";
import { letTimePass } from "../support/wait.js";

const ACTION = `export default {
  name: "asks", key: "asks", version: "0.0.1", type: "action",
  props: {
    shop: { type: "app", app: "promptshop" },
    paged: {
      type: "string",
      async options({ prevContext }) {
        const pages = { start: ["a1", "a2"], p2: ["b1", "b2"], p3: ["c1"] };
        const token = prevContext?.nextPageToken ?? "start";
        return { options: pages[token], context: { nextPageToken: { start: "p2", p2: "p3", p3: null }[token] } };
      },
    },
    fruit: {
      type: "string",
      useQuery: true,
      async options({ query }) {
        return ["apple", "apricot", "banana"].filter((f) => f.startsWith(query ?? "")).map((f) => ({ label: f.toUpperCase(), value: f }));
      },
    },
  },
  async run() { return { paged: this.paged, fruit: this.fruit, tokenLength: this.shop.$auth.token.length }; },
};`;

const SOURCE = `export default {
  name: "picks",
  props: { shop: { type: "app", app: "pickshop" } },
  async run() { this.$emit({ tokenLength: this.shop.$auth.token.length }); },
};`;

const DOWN = "\u001b[B";
const ENTER = "\r";

/** `sluice ARGS` on a pseudo-terminal, and a way to answer what it shows. */
function onTerminal(sluice: TestServer, args: string) {
  // A pseudo-terminal of a known size: without one, prompts wrap at every character.
  const command = `stty cols 200 rows 50; ${process.execPath} ${sluiceBin} ${args}`;
  const child = spawn("script", ["-qfec", command, "/dev/null"], {
    env: {
      PATH: process.env.PATH ?? "",
      HOME: tempDir(),
      TERM: "xterm",
      SLUICE_API_KEY: sluice.apiKey,
      SLUICE_BASE_URL: sluice.url,
    },
    stdio: ["pipe", "pipe", "pipe"],
  });
  let output = "";
  let seen = 0;
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
  return {
    exited,
    output: () => output,
    kill: () => child.kill(),
    /** Waits for the text to appear after what earlier steps consumed, then types the keys. */
    async answer(text: string, keys: string[]): Promise<void> {
      const deadline = Date.now() + 60_000;
      while (!output.slice(seen).includes(text)) {
        if (Date.now() > deadline || child.exitCode !== null) {
          throw new Error(`no '${text}' on the terminal; it shows:\n${output.slice(seen)}`);
        }
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      seen = output.indexOf(text, seen) + text.length;
      // No signal says the prompt listens yet once its text is drawn, nor that a key was read
      // before the next: these pauses stand in for those (a person types no faster).
      await letTimePass(150);
      for (const key of keys) {
        child.stdin.write(key);
        await letTimePass(80);
      }
    },
  };
}

describe("sluice run-action prompts at a terminal", () => {
  let database: TestDatabase;
  let sluice: TestServer;

  beforeAll(async () => {
    database = await (dialects[0] as NonNullable<(typeof dialects)[0]>).create();
    sluice = await startTestServer(database);
    await appsApi(sluice.client).registerApp({
      slug: "promptshop",
      auth_type: "keys",
      fields: [{ name: "token", label: "Shop token", secret: true }],
    });
  });
  afterAll(async () => {
    await sluice?.close();
    await database?.cleanup();
  });

  it("connects a new account for the app prop and picks options page by page and by search", async () => {
    const file = path.join(tempDir(), "asks.mjs");
    fs.writeFileSync(file, ACTION);
    const terminal = onTerminal(sluice, `run-action ${file} --json`);
    const { answer } = terminal;
    try {
      await answer("Connect a new promptshop account", [ENTER]);
      await answer("Shop token", [..."tok-123456", ENTER]);
      await answer("More…", [DOWN, DOWN, ENTER]);
      await answer("b2", [DOWN, DOWN, ENTER]);
      await answer("search (empty for all)", [..."ap", ENTER]);
      await answer("APRICOT", [DOWN, ENTER]);
      expect(await terminal.exited, terminal.output()).toBe(0);
    } finally {
      terminal.kill();
    }
    const output = terminal.output();
    expect(output).toMatch(/"paged": "b1"/);
    expect(output).toMatch(/"fruit": "apricot"/);
    expect(output).toMatch(/"tokenLength": 10/);
    expect(output).not.toContain("tok-123456");
    const accounts = await appsApi(sluice.client).listConnectedAccounts({ app: "promptshop" });
    expect(accounts.data).toHaveLength(1);
  }, 120_000);

  it("sluice deploy picks an existing connected account for the app prop", async () => {
    const api = appsApi(sluice.client);
    await api.registerApp({
      slug: "pickshop",
      auth_type: "keys",
      fields: [{ name: "token", label: "Pick token", secret: true }],
    });
    const existing = await api.createConnectedAccount({
      app: "pickshop",
      name: "warehouse",
      fields: { token: "pick-token-4242" },
    });
    const file = path.join(tempDir(), "picks.mjs");
    fs.writeFileSync(file, SOURCE);
    const terminal = onTerminal(sluice, `deploy ${file} --json`);
    try {
      // The existing account is listed first, where the cursor starts; "Connect a new" comes last.
      await terminal.answer(`warehouse (${existing.id})`, []);
      await terminal.answer("Connect a new pickshop account", [ENTER]);
      expect(await terminal.exited, terminal.output()).toBe(0);
    } finally {
      terminal.kill();
    }
    const output = terminal.output();
    expect(output).not.toContain("Pick token");
    expect(output).not.toContain("pick-token-4242");
    const id = /"id": "(dc_[^"]+)"/.exec(output)?.[1];
    expect(id, output).toBeDefined();
    const source = await sluice.client.getSource(id as string);
    expect(source.configured_props.shop).toEqual({ authProvisionId: existing.id });
    await sluice.client.runSource(source.id);
    const events = await sluice.client.listEvents(source.id, { expand: "event" });
    expect(events.data[0]?.event).toEqual({ tokenLength: 15 });
    const accounts = await api.listConnectedAccounts({ app: "pickshop" });
    expect(accounts.data.map((account) => account.id)).toEqual([existing.id]);
  }, 120_000);
});

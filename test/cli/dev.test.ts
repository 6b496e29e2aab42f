/** `sluice dev` (redeploy on save, stream events and logs) and `sluice init` (scaffolds), as subprocesses. */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { runCli, sluiceBin, useCliServer } from "../support/cli.js";
import type { TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";
import { waitUntil } from "../support/wait.js";

/** A running `sluice dev` and everything it has printed. */
interface DevProcess {
  child: ChildProcess;
  output(): string;
  /** Resolves with the first line matching, printed after `after` characters of output. */
  waitForLine(pattern: RegExp, timeoutMs?: number, after?: number): Promise<string>;
}

function spawnDev(args: string[], env: Record<string, string>, cwd: string): DevProcess {
  const child = spawn(process.execPath, [sluiceBin, "dev", ...args], {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    output += chunk;
  });
  return {
    child,
    output: () => output,
    async waitForLine(pattern, timeoutMs = 10_000, after = 0) {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const line = output
          .slice(after)
          .split("\n")
          .find((candidate) => pattern.test(candidate));
        if (line !== undefined) return line;
        if (Date.now() > deadline)
          throw new Error(`no line matching ${pattern} within ${timeoutMs} ms; output:\n${output}`);
        if (child.exitCode !== null)
          throw new Error(`sluice dev exited (${child.exitCode}); output:\n${output}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
  };
}

const component = (version: number, extra = "") => `
  import { label } from "./label.mjs";
  export default {
    name: "dev loop",
    props: { db: "$.service.db" },
    hooks: { async activate() { console.log("activate v${version}"); } },
    async run() { ${extra} this.$emit({ version: ${version}, label }, { summary: "v${version} " + label }); },
  };`;

describe("sluice dev and sluice init", () => {
  const server = useCliServer();
  let sluice: TestServer;
  let env: Record<string, string>;
  const running: ChildProcess[] = [];

  beforeAll(() => {
    ({ sluice, env } = server);
  });
  afterEach(() => {
    for (const child of running.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
  });

  it("redeploys to the same dc_ id within 2 s of a save, streams events and logs, keeps the last good version on a broken save, and leaves the source deployed on Ctrl-C", async () => {
    const folder = tempDir();
    const file = path.join(folder, "loop.mjs");
    fs.writeFileSync(path.join(folder, "label.mjs"), `export const label = "first";`);
    fs.writeFileSync(file, component(1));
    const dev = spawnDev([file], env, folder);
    running.push(dev.child);
    const deployed = await dev.waitForLine(/^Deployed dc_/, 60_000);
    const id = /dc_[0-9a-z]+/.exec(deployed)?.[0] ?? "";
    await dev.waitForLine(/^Watching 2 file\(s\)/);

    // A run's event and log lines reach the terminal.
    await sluice.client.runSource(id);
    await dev.waitForLine(/^event .*v1 first/);
    await dev.waitForLine(/^log .*activate v1/);

    // Saving the file redeploys within 2 s, keeping the id; the update hooks run.
    let mark = dev.output().length;
    const saved = Date.now();
    fs.writeFileSync(file, component(2));
    await dev.waitForLine(/^Redeployed dc_/, 2000, mark);
    expect(Date.now() - saved).toBeLessThan(2000);
    await sluice.client.runSource(id);
    await dev.waitForLine(/^event .*v2 first/, 5000, mark);
    await dev.waitForLine(/^log .*activate v2/, 5000, mark);
    expect((await sluice.client.getSource(id)).id).toBe(id);

    // Saving a file it imports redeploys too.
    mark = dev.output().length;
    fs.writeFileSync(path.join(folder, "label.mjs"), `export const label = "second";`);
    await dev.waitForLine(/^Redeployed dc_/, 2000, mark);
    await sluice.client.runSource(id);
    await dev.waitForLine(/^event .*v2 second/, 5000, mark);

    // A save that does not compile is reported, and the last good version keeps running.
    mark = dev.output().length;
    fs.writeFileSync(file, `export default { name: "broken", run() { return ) } };`);
    const refused = await dev.waitForLine(/^Not redeployed/, 5000, mark);
    expect(refused).toMatch(/loop\.mjs:1:\d+/);
    const run = await sluice.client.runSource(id);
    expect(run.ok).toBe(true);
    const [latest] = (await sluice.client.listEvents(id, { limit: 1, expand: "event" })).data;
    expect(latest?.event).toEqual({ version: 2, label: "second" });

    // Ctrl-C: the source stays deployed and the command says how to delete it.
    dev.child.kill("SIGINT");
    const code = await new Promise<number | null>((resolve) => dev.child.once("exit", resolve));
    expect(code).toBe(0);
    expect(dev.output()).toContain(`${id} is still deployed; delete it with: sluice delete ${id}`);
    expect((await sluice.client.getSource(id)).active).toBe(true);
  });

  it("runs an action on every save and prints its return value, exports and logs", async () => {
    const folder = tempDir();
    const file = path.join(folder, "greet.mjs");
    const action = (greeting: string) => `export default {
      name: "greet", type: "action", props: { who: { type: "string" } },
      async run({ $ }) { console.log("greeting " + this.who); $.export("$summary", "${greeting} sent"); return "${greeting}, " + this.who; },
    };`;
    fs.writeFileSync(file, action("Hello"));
    const dev = spawnDev([file, "--prop", "who=Ada"], env, folder);
    running.push(dev.child);
    await dev.waitForLine(/^Watching 1 file\(s\): the action runs on every save/, 60_000);
    await dev.waitForLine(/Hello, Ada/, 30_000);
    expect(dev.output()).toMatch(/Summary: Hello sent/);
    expect(dev.output()).toMatch(/\[log\] greeting Ada/);

    const mark = dev.output().length;
    const saved = Date.now();
    fs.writeFileSync(file, action("Bonjour"));
    await dev.waitForLine(/Bonjour, Ada/, 2000, mark);
    expect(Date.now() - saved).toBeLessThan(2000);

    dev.child.kill("SIGINT");
    expect(await new Promise((resolve) => dev.child.once("exit", resolve))).toBe(0);
    expect(dev.output()).toContain("Stopped watching.");
  });

  it("attaches to an existing source with --dc and redeploys to it", async () => {
    const folder = tempDir();
    fs.writeFileSync(path.join(folder, "label.mjs"), `export const label = "attached";`);
    const existing = await sluice.client.deploySource({
      component_code: `export default { name: "existing", async run() { this.$emit({ version: 0 }); } };`,
    });
    const file = path.join(folder, "loop.mjs");
    fs.writeFileSync(file, component(3));
    const dev = spawnDev([file, "--dc", existing.id], env, folder);
    running.push(dev.child);
    await dev.waitForLine(new RegExp(`^Updated ${existing.id}`), 60_000);
    await sluice.client.runSource(existing.id);
    const [latest] = (await sluice.client.listEvents(existing.id, { limit: 1, expand: "event" })).data;
    expect(latest?.event).toEqual({ version: 3, label: "attached" });
    dev.child.kill("SIGINT");
    expect(await new Promise((resolve) => dev.child.once("exit", resolve))).toBe(0);
  });

  it("init scaffolds sources, actions and apps whose tests pass, and a scaffolded source deploys and runs", async () => {
    const folder = tempDir();
    for (const args of [
      ["source", "Plain"],
      ["source", "Hook Me", "--http", "--db"],
      ["source", "ticker", "--timer"],
      ["action", "greet"],
      ["app", "my-service"],
    ]) {
      const result = await runCli(["init", ...args, "--dir", folder], env);
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/Created /);
    }
    expect(fs.readdirSync(folder).sort()).toEqual(["greet", "hook-me", "my-service", "plain", "ticker"]);

    const tests = await new Promise<{ code: number; output: string }>((resolve) => {
      // As init prints it: the test files, not the folder (Node 22 and 24 take only file patterns).
      // TAP on every Node (the default reporter off a terminal is TAP on 20, spec on 24).
      const files = fs.readdirSync(folder).map((name) => path.join(folder, name, `${name}.test.mjs`));
      execFile(
        process.execPath,
        ["--test", "--test-reporter=tap", ...files],
        { cwd: folder },
        (error, stdout, stderr) => resolve({ code: error ? 1 : 0, output: stdout + stderr }),
      );
    });
    expect(tests.code, tests.output).toBe(0);
    expect(tests.output).toMatch(/# pass 5/);

    const deployed = await runCli(["deploy", path.join(folder, "hook-me", "hook-me.mjs"), "--json"], env);
    expect(deployed.code, deployed.stderr).toBe(0);
    const source = JSON.parse(deployed.stdout) as { endpoint_url: string; id: string };
    const endpoint = new URL(source.endpoint_url);
    const response = await fetch(`${sluice.url}${endpoint.pathname}`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ n: 1 }),
    });
    expect(await response.json()).toEqual({ received: true, count: 1 });
    // respond() answers at once; the invocation's events are committed when run has finished.
    const [event] = await waitUntil("the invocation's event", async () => {
      const page = await sluice.client.listEvents(source.id, { expand: "event" });
      return page.data.length > 0 ? page.data : undefined;
    });
    expect(event?.event).toEqual({ data: { n: 1 }, count: 1 });
    expect(event?.metadata.summary).toBe("hello: event 1");
  });

  it("init refuses an unknown kind, an existing folder, and --http on an action", async () => {
    const folder = tempDir();
    expect((await runCli(["init", "widget", "x", "--dir", folder], env)).stderr).toMatch(
      /source, action or app/,
    );
    expect((await runCli(["init", "action", "x", "--http", "--dir", folder], env)).stderr).toMatch(
      /for sources/,
    );
    await runCli(["init", "source", "twice", "--dir", folder], env);
    const again = await runCli(["init", "source", "twice", "--dir", folder], env);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/already exists/);
  });
});

/**
 * The server's console: on a terminal (here a pseudo-terminal from util-linux `script`) the log is
 * for people, one coloured line per request; through a pipe it stays JSON.
 */
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import { createServer } from "node:net";
import { afterAll, describe, expect, it } from "vitest";
import { sluiceBin } from "../support/cli.js";
import { spawnServer } from "../support/server-process.js";
import { tempDir } from "../support/temp.js";

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return typeof address === "object" && address ? address.port : 0;
}

async function until(check: () => boolean, timeoutMs: number, what: () => string): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe("the server's console log", () => {
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it("on a terminal: pretty, coloured, one line per request", async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const port = await freePort();
    const env = {
      PATH: process.env.PATH ?? "",
      SLUICE_PORT: String(port),
      SLUICE_DATA_DIR: dataDir,
      SLUICE_BOOTSTRAP_API_KEY: `sk_test_${randomBytes(16).toString("hex")}`,
    };
    const child = spawn("script", ["-qfec", `${process.execPath} ${sluiceBin} server`, "/dev/null"], {
      env,
      stdio: ["pipe", "pipe", "pipe"],
    });
    let output = "";
    child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
      output += chunk;
    });
    try {
      await until(
        () => output.includes("Sluice is listening"),
        30_000,
        () => output,
      );
      expect((await fetch(`http://127.0.0.1:${port}/health`)).status).toBe(200);
      expect((await fetch(`http://127.0.0.1:${port}/v1/users/me`)).status).toBe(401);
      await until(
        () => output.includes("GET /v1/users/me 401"),
        10_000,
        () => output,
      );
      const lines = output.split(/\r?\n/);
      expect(lines.filter((line) => line.includes("GET /health 200"))).toHaveLength(1);
      expect(output).toContain("\u001b["); // ANSI colours
      expect(output).not.toContain("incoming request");
      expect(lines.some((line) => line.trimStart().startsWith('{"level"'))).toBe(false);
    } finally {
      child.kill("SIGTERM");
      await new Promise((resolve) => child.once("exit", resolve));
    }
  });

  it("through a pipe: JSON records, as before", async () => {
    const dataDir = tempDir();
    dirs.push(dataDir);
    const server = spawnServer({ SLUICE_PORT: "0", SLUICE_DATA_DIR: dataDir });
    try {
      const listening = await server.waitForLog((line) => line.msg === "Sluice is listening");
      await fetch(`${String(listening.url)}/health`);
      // One record per request, naming it; Fastify's "incoming request" record is debug only.
      const completed = await server.waitForLog((line) => line.msg === "request completed");
      expect(completed).toMatchObject({ req: { method: "GET", url: "/health" }, res: { statusCode: 200 } });
      expect(typeof completed.responseTime).toBe("number");
      expect(server.logLines().some((line) => line.msg === "incoming request")).toBe(false);
    } finally {
      server.child.kill("SIGTERM");
      await server.exited;
    }
  });

  it("a source endpoint's answered hits are logged at level debug, its refusals as any request", async () => {
    const run = async (level: string) => {
      const dataDir = tempDir();
      dirs.push(dataDir);
      const apiKey = `sk_test_${randomBytes(16).toString("hex")}`;
      const server = spawnServer({
        SLUICE_PORT: "0",
        SLUICE_DATA_DIR: dataDir,
        SLUICE_BOOTSTRAP_API_KEY: apiKey,
        SLUICE_LOG_LEVEL: level,
      });
      try {
        const listening = await server.waitForLog((line) => line.msg === "Sluice is listening");
        const url = String(listening.url);
        const deployed = await fetch(`${url}/v1/sources`, {
          method: "POST",
          headers: { authorization: `Bearer ${apiKey}`, "content-type": "application/json" },
          body: JSON.stringify({
            component_code: `export default { name: "echo", props: { http: { type: "$.interface.http" } }, async run(event) { this.$emit(event.body); } };`,
          }),
        });
        expect(deployed.status).toBe(200);
        const { data } = (await deployed.json()) as { data: { endpoint_url: string } };
        const endpointPath = new URL(data.endpoint_url).pathname;
        expect((await fetch(`${url}${endpointPath}`, { method: "POST", body: "{}" })).status).toBe(200);
        expect((await fetch(`${url}/e/no-such-endpoint`, { method: "POST", body: "{}" })).status).toBe(404);
        await server.waitForLog(
          (line) => line.msg === "request completed" && matchesUrl(line, "/e/no-such-endpoint"),
        );
        // The REST call that deployed the source is logged at info, as every REST request.
        expect(server.logLines().some((line) => matchesUrl(line, "/v1/sources") && line.level === 30)).toBe(
          true,
        );
        // Logged before the 404 it preceded, if at all.
        return server.logLines().filter((line) => matchesUrl(line, endpointPath));
      } finally {
        server.child.kill("SIGTERM");
        await server.exited;
      }
    };
    expect(await run("info")).toEqual([]);
    const atDebug = await run("debug");
    expect(atDebug.filter((line) => line.msg === "request completed")).toEqual([
      expect.objectContaining({ level: 20, res: { statusCode: 200 } }),
    ]);
  });
});

function matchesUrl(line: Record<string, unknown>, url: string): boolean {
  return (line.req as { url?: unknown } | undefined)?.url === url;
}

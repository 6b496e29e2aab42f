/**
 * `sluice server` as an operator runs it: a real process configured only through SLUICE_*
 * variables, logging JSON lines to stdout, stopping cleanly on SIGTERM.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { rawRequest } from "../support/server.js";
import {
  killAllServerProcesses,
  spawnServer,
  startServerProcess,
  stopServerProcess,
} from "../support/server-process.js";
import { tempDir } from "../support/temp.js";

const cleanups: (() => Promise<void> | void)[] = [];

afterEach(async () => {
  await killAllServerProcesses();
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function newDataDir(): string {
  const dir = tempDir("sluice-process-");
  cleanups.push(() => fs.rmSync(dir, { recursive: true, force: true }));
  return dir;
}

function serverEnvironment(database: TestDatabase): Record<string, string> {
  return {
    SLUICE_PORT: "0",
    SLUICE_HOST: "127.0.0.1",
    SLUICE_DATA_DIR: database.dataDir,
    SLUICE_LOG_LEVEL: "info",
    ...(database.databaseUrl ? { SLUICE_DATABASE_URL: database.databaseUrl } : {}),
  };
}

const GENERATED_KEY = /sk_[A-Za-z0-9_-]{20,}/g;

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`sluice server on ${dialect.name}`, () => {
    it("the first start prints a generated admin key once; a restart prints none and keeps the data", async () => {
      const database = await dialect.create();
      cleanups.push(() => database.cleanup());
      const env = serverEnvironment(database);

      const first = await startServerProcess(env);
      const keys = new Set(first.server.stdout().match(GENERATED_KEY));
      expect(keys.size).toBe(1);
      const [apiKey] = [...keys];
      if (!apiKey) throw new Error("no key printed");
      const keyLines = first.server
        .stdout()
        .split("\n")
        .filter((line) => line.includes("sk_"));
      expect(keyLines.length).toBeGreaterThan(0);
      expect(keyLines.every((line) => !line.startsWith("{"))).toBe(true);

      const me = await rawRequest(`${first.url}/v1/users/me`, { apiKey });
      expect(me.status).toBe(200);
      expect(me.body).toMatchObject({ data: { name: "admin", is_admin: true } });

      const created = await rawRequest(`${first.url}/v1/webhooks`, {
        method: "POST",
        apiKey,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ url: "https://example.com/survives", name: "survivor" }),
      });
      expect(created.status).toBe(200);
      const webhookId = (created.body as { data: { id: string } }).data.id;
      expect(webhookId).toMatch(/^wh_/);

      expect(await stopServerProcess(first.server)).toEqual({ code: 0, signal: null });

      const second = await startServerProcess(env);
      expect(second.server.stdout()).not.toContain("sk_");
      const meAgain = await rawRequest(`${second.url}/v1/users/me`, { apiKey });
      expect(meAgain.status).toBe(200);
      const kept = await rawRequest(`${second.url}/v1/webhooks/${webhookId}`, { apiKey });
      expect(kept.status).toBe(200);
      expect(kept.body).toMatchObject({
        data: { id: webhookId, name: "survivor", url: "https://example.com/survives" },
      });
      expect(await stopServerProcess(second.server)).toEqual({ code: 0, signal: null });
      expect(second.server.stdout()).not.toContain("sk_");
    });
  });
}

describe("sluice server shutdown", () => {
  it("SIGTERM lets a request in flight finish with 200, refuses new connections, then exits 0", async () => {
    const apiKey = `sk_test_${randomBytes(16).toString("hex")}`;
    const { server, url } = await startServerProcess({
      SLUICE_PORT: "0",
      SLUICE_HOST: "127.0.0.1",
      SLUICE_DATA_DIR: newDataDir(),
      // At debug the server logs each request as it arrives, which tells this test when the
      // headers have been read.
      SLUICE_LOG_LEVEL: "debug",
      SLUICE_BOOTSTRAP_API_KEY: apiKey,
    });
    const port = Number(new URL(url).port);

    const body = JSON.stringify({ url: "https://example.com/in-flight", name: "in flight" });
    const cut = Math.floor(body.length / 2);
    const socket = net.connect(port, "127.0.0.1");
    cleanups.push(() => {
      socket.destroy();
    });
    const response = readWholeResponse(socket);
    await new Promise<void>((resolve, reject) => {
      socket.once("connect", resolve);
      socket.once("error", reject);
    });
    socket.write(
      [
        "POST /v1/webhooks HTTP/1.1",
        "Host: 127.0.0.1",
        `Authorization: Bearer ${apiKey}`,
        "Content-Type: application/json",
        `Content-Length: ${Buffer.byteLength(body)}`,
        "Connection: close",
        "",
        "",
      ].join("\r\n") + body.slice(0, cut),
    );
    // The server has parsed the headers and is waiting for the rest of the body.
    await server.waitForLog(
      (line) =>
        line.msg === "incoming request" &&
        (line.req as { method?: string; url?: string } | undefined)?.url === "/v1/webhooks",
    );

    server.child.kill("SIGTERM");
    await server.waitForStderr("SIGTERM: draining");
    expect(await connectOutcome(port)).toBe("ECONNREFUSED");
    expect(server.child.exitCode).toBeNull();

    socket.write(body.slice(cut));
    const answer = await response;
    expect(answer.status).toBe(200);
    const created = JSON.parse(answer.body) as { data: { id: string; name: string; signing_secret: string } };
    expect(created.data.id).toMatch(/^wh_/);
    expect(created.data.name).toBe("in flight");
    expect(created.data.signing_secret).toMatch(/^whsec_/);

    expect(await server.exited).toEqual({ code: 0, signal: null });
  });
});

describe("sluice server configuration", () => {
  it.each([
    ["SLUICE_PORT", "abc"],
    ["SLUICE_DATABASE_URL", "mysql://x"],
  ])("an invalid %s (%s) stops the start with a message naming it", async (name, value) => {
    const server = spawnServer({
      SLUICE_PORT: "0",
      SLUICE_DATA_DIR: newDataDir(),
      SLUICE_LOG_LEVEL: "info",
      [name]: value,
    });
    const exit = await server.exited;
    expect(exit.signal).toBeNull();
    expect(exit.code).not.toBe(0);
    expect(server.stderr()).toMatch(new RegExp(`^Error: ${name} must `));
    expect(server.stderr()).not.toMatch(/\n\s+at /);
    expect(server.stdout()).not.toContain("Sluice is listening");
  });
});

/** Reads a Connection: close HTTP/1.1 answer until the server ends the connection. */
function readWholeResponse(socket: net.Socket): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    let raw = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      raw += chunk;
    });
    socket.once("error", reject);
    socket.once("end", () => {
      const match = /^HTTP\/1\.1 (\d{3}) /.exec(raw);
      const split = raw.indexOf("\r\n\r\n");
      if (!match?.[1] || split < 0) return reject(new Error(`not an HTTP response: ${JSON.stringify(raw)}`));
      resolve({ status: Number(match[1]), body: raw.slice(split + 4) });
    });
  });
}

/**
 * What a new TCP connection to the port meets once the listener has had a moment to close: the
 * error code, or "connected". Retries for a while, since closing the listener follows the signal.
 */
async function connectOutcome(port: number): Promise<string> {
  let outcome = "connected";
  for (let attempt = 0; attempt < 50; attempt++) {
    outcome = await new Promise<string>((resolve) => {
      const probe = net.connect(port, "127.0.0.1");
      probe.once("connect", () => {
        probe.destroy();
        resolve("connected");
      });
      probe.once("error", (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    });
    // A reset means the listener took the connection just before it closed (the close runs the
    // server's pre-close hooks first): still open at that instant, so try again.
    if (outcome !== "connected" && outcome !== "ECONNRESET") return outcome;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return outcome;
}

/** A real Sluice server on a real socket (an ephemeral port on 127.0.0.1), for REST and CLI tests. */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll } from "vitest";
import { SluiceClient } from "../../src/client/client.js";
import { loadServerConfig, type ServerConfig } from "../../src/config/server-config.js";
import { MASTER_KEY_FILE } from "../../src/core/secret-box.js";
import { type RunningServer, startServer } from "../../src/server/server.js";
import { dialects, type TestDatabase } from "./dialects.js";
import { tempDir } from "./temp.js";

export interface TestServer {
  readonly url: string;
  /** The admin account's key (the bootstrap key). */
  readonly apiKey: string;
  readonly client: SluiceClient;
  readonly server: RunningServer;
  /** A client with another key on the same server. */
  clientWith(apiKey: string): SluiceClient;
  /** Creates a fresh, non-admin account and returns a client for it. */
  newAccount(name?: string): Promise<{ id: string; apiKey: string; client: SluiceClient }>;
  close(): Promise<void>;
}

export function testEnvironment(
  database: TestDatabase,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    SLUICE_PORT: "0",
    SLUICE_DATA_DIR: database.dataDir,
    SLUICE_LOG_LEVEL: "silent",
    ...(database.databaseUrl ? { SLUICE_DATABASE_URL: database.databaseUrl } : {}),
    ...extra,
  };
}

export async function startTestServer(
  database: TestDatabase,
  options: { env?: Record<string, string>; config?: Partial<ServerConfig> } = {},
): Promise<TestServer> {
  const apiKey = `sk_test_${randomBytes(16).toString("hex")}`;
  // Errors only are logged (to the test run's output): a request that failed with a 500, or a
  // worker's failure, then leaves its cause there, where CI's log shows it.
  const env = { SLUICE_LOG_LEVEL: "error", SLUICE_BOOTSTRAP_API_KEY: apiKey, ...options.env };
  const config = {
    ...loadServerConfig({}, testEnvironment(database, env)),
    ...options.config,
  };
  const server = await startServer(config);
  const clientWith = (key: string) => new SluiceClient({ baseUrl: server.url, apiKey: key });
  const client = clientWith(apiKey);
  return {
    url: server.url,
    apiKey,
    client,
    server,
    clientWith,
    async newAccount(name = "someone") {
      const created = await client.createAccount(name);
      return { id: created.id, apiKey: created.api_key, client: clientWith(created.api_key) };
    },
    close: () => server.close(),
  };
}

/**
 * A second node of the server `startTestServer` started on `database` (PostgreSQL): its own data
 * directory, the same database and master key.
 */
export function startOtherNode(database: TestDatabase): Promise<TestServer> {
  const dataDir = tempDir();
  fs.copyFileSync(path.join(database.dataDir, MASTER_KEY_FILE), path.join(dataDir, MASTER_KEY_FILE));
  return startTestServer(database, { config: { dataDir } });
}

/**
 * For a suite that runs once, on SQLite (the database is not its point): registers the hooks that
 * start a server on a fresh SQLite database before the suite's tests and stop it after. Read
 * `sluice` and `database` inside tests and hooks (registered after this call), once it started.
 */
export function useSqliteServer(options: Parameters<typeof startTestServer>[1] = {}): {
  readonly sluice: TestServer;
  readonly database: TestDatabase;
} {
  let database: TestDatabase | undefined;
  let sluice: TestServer | undefined;
  beforeAll(async () => {
    const sqlite = dialects.find((dialect) => dialect.name === "sqlite");
    if (!sqlite) throw new Error("the sqlite test dialect is missing");
    database = await sqlite.create();
    sluice = await startTestServer(database, options);
  }, 60_000);
  afterAll(async () => {
    await sluice?.close();
    await database?.cleanup();
  });
  const started = <T>(value: T | undefined): T => {
    if (value === undefined)
      throw new Error("the test server starts in beforeAll: read it in a test or a later hook");
    return value;
  };
  return {
    get sluice() {
      return started(sluice);
    },
    get database() {
      return started(database);
    },
  };
}

export interface RawResponse {
  status: number;
  headers: Headers;
  body: unknown;
  text: string;
}

/**
 * Resolves once `server` has received a request (its head read) whose URL `matches`: the sign
 * that a request sent without awaiting its answer is in the server's hands. Call it before
 * sending the request.
 */
export function requestReceived(server: TestServer, matches: (url: string) => boolean): Promise<void> {
  return new Promise((resolve) => {
    const listener = (request: { url?: string }) => {
      if (!matches(request.url ?? "")) return;
      server.server.app.server.off("request", listener);
      resolve();
    };
    server.server.app.server.on("request", listener);
  });
}

/** One HTTP request with full control of headers and body, for error-path tests. */
export async function rawRequest(
  url: string,
  init: {
    method?: string;
    apiKey?: string;
    headers?: Record<string, string>;
    body?: string | Uint8Array;
  } = {},
): Promise<RawResponse> {
  const headers: Record<string, string> = { ...init.headers };
  if (init.apiKey) headers.authorization = `Bearer ${init.apiKey}`;
  const response = await fetch(url, { method: init.method ?? "GET", headers, body: init.body });
  const text = await response.text();
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    body = undefined;
  }
  return { status: response.status, headers: response.headers, body, text };
}

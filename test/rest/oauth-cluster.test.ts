/**
 * OAuth token refresh across a cluster: two `sluice server` processes on one PostgreSQL database,
 * 20 runs at once split between them, all needing a refresh of the same expired token. The row
 * lock makes exactly one refresh call, so the provider's rotating refresh token is used once; no
 * token reaches either node's log.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { appsApi } from "../../src/client/apps-client.js";
import { SluiceClient } from "../../src/client/client.js";
import { databaseText } from "../support/database-text.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import {
  followAuthorize,
  type OAuthProvider,
  startOAuthProvider,
  tokenExpired,
} from "../support/oauth-provider.js";
import { RELIABILITY_API_KEY, serverEnvironment } from "../support/server-env.js";
import { killAllServerProcesses, type ServerProcess, startServerProcess } from "../support/server-process.js";

const postgres = dialects.find((dialect) => dialect.name === "postgres");

const ACTION = (userInfoUrl: string) => `export default {
  name: "whoami", key: "oauth-cluster-whoami", version: "0.0.1", type: "action",
  props: { provider: { type: "app", app: "mockprovider" } },
  async run() {
    const token = this.provider.$auth.oauth_access_token;
    console.log("token " + token);
    const response = await fetch(${JSON.stringify(userInfoUrl)}, { headers: { Authorization: "Bearer " + token } });
    if (response.status !== 200) throw new Error("user-info answered " + response.status);
    return (await response.json()).sub;
  },
};`;

describe.skipIf(!postgres || !isAvailable(postgres))("OAuth refresh on two nodes (PostgreSQL)", () => {
  let database: TestDatabase;
  let provider: OAuthProvider;
  const nodes: ServerProcess[] = [];

  beforeAll(async () => {
    database = await (postgres as NonNullable<typeof postgres>).create();
    provider = await startOAuthProvider();
  });
  afterEach(async () => {
    await killAllServerProcesses();
  });
  afterAll(async () => {
    await provider?.close();
    await database?.cleanup();
  });

  it("20 runs at once on 2 nodes make exactly one refresh call, and every run gets the new token", async () => {
    const env = (dataDir: string) =>
      serverEnvironment(
        { dataDir, databaseUrl: database.databaseUrl as string },
        { SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8", SLUICE_LOG_LEVEL: "debug" },
      );
    const [a, b] = await Promise.all([
      startServerProcess(env(database.dataDir)),
      startServerProcess(env(`${database.dataDir}-b`)),
    ]);
    nodes.push(a.server, b.server);
    const clients = [a.url, b.url].map(
      (baseUrl) => new SluiceClient({ baseUrl, apiKey: RELIABILITY_API_KEY }),
    );
    const [first, second] = clients as [SluiceClient, SluiceClient];
    const api = appsApi(first);
    await api.registerApp({
      slug: "mockprovider",
      auth_type: "oauth",
      oauth: provider.appSettings() as never,
    });
    provider.expiresIn = 2;
    const started = await api.startOAuthConnection({ app: "mockprovider" });
    const { authProvisionId, status } = await followAuthorize(started.authorize_url);
    expect(status).toBe(200);
    provider.expiresIn = 3600;
    const component = await first.saveComponent({ component_code: ACTION(`${provider.url}/userinfo`) });
    await tokenExpired(api, authProvisionId ?? "");

    const refreshes = provider.requests.refresh_token;
    const runs = await Promise.all(
      Array.from({ length: 20 }, (_, index) =>
        (index % 2 === 0 ? first : second).runAction({
          component_id: component.id,
          configured_props: { provider: { authProvisionId } },
        }),
      ),
    );
    for (const run of runs) expect(run.ok, JSON.stringify(run.failure)).toBe(true);
    expect(runs.map((run) => run.return_value)).toEqual(Array(20).fill("johndoe"));
    expect(provider.requests.refresh_token - refreshes).toBe(1);
    expect((await appsApi(second).getConnectedAccount(authProvisionId ?? "")).healthy).toBe(true);

    const logs = nodes.map((node) => node.stdout() + node.stderr()).join("\n");
    const stored = await databaseText(database);
    for (const token of provider.issued) {
      expect(logs.includes(token), "a token is in a node's log").toBe(false);
      expect(stored.includes(token), "a token is stored in plain text").toBe(false);
    }
    expect(logs).not.toContain(provider.clientSecret);
    expect(stored).not.toContain(provider.clientSecret);
  });
});

/**
 * OAuth apps over REST against a real OAuth provider on loopback (oauth2-mock-server, made strict
 * in test/support/oauth-provider.ts): registering the app with a sealed client secret, connecting
 * through the provider's redirects with state and PKCE, an action calling the provider with
 * `this.<app>.$auth.oauth_access_token`, refresh before expiry (once for concurrent runs), a
 * revoked refresh token turning the account unhealthy, a token endpoint down during a refresh
 * (the run fails naming the account, which stays healthy), and every bad callback refused with
 * nothing stored. No token is ever in a response or in the database in plain text.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appsApi } from "../../src/client/apps-client.js";
import { ApiError } from "../../src/client/client.js";
import { databaseText } from "../support/database-text.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import {
  BROWSER_ACCEPT,
  followAuthorize,
  type OAuthProvider,
  startOAuthProvider,
  tokenExpired,
} from "../support/oauth-provider.js";
import { rawRequest, startTestServer, type TestServer } from "../support/server.js";
import { waitUntil } from "../support/wait.js";

const LOOPBACK = { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8", SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8" };

/** An action that calls the provider's user-info endpoint with the connected account's token, and prints the token. */
const whoamiAction = (userInfoUrl: string) => `export default {
  name: "whoami", key: "oauth-whoami", version: "0.0.1", type: "action",
  props: { provider: { type: "app", app: "mockprovider" } },
  async run() {
    const token = this.provider.$auth.oauth_access_token;
    console.log("calling with " + token);
    const response = await fetch(${JSON.stringify(userInfoUrl)}, { headers: { Authorization: "Bearer " + token } });
    const body = await response.json();
    if (response.status !== 200) throw new Error("user-info answered " + response.status + ": " + JSON.stringify(body));
    return { sub: body.sub, uid: this.provider.$auth.oauth_uid, clientId: this.provider.$auth.oauth_client_id,
      hasRefreshToken: typeof this.provider.$auth.oauth_refresh_token === "string", region: this.provider.$auth.region ?? null };
  },
};`;

/** An action with an OAuth app prop and a prop whose options need the app's token. */
const FLAKY_ACTION = `export default {
  name: "flaky", type: "action",
  props: {
    provider: { type: "app", app: "flakyprovider" },
    project: { type: "string", async options() { return [this.provider.$auth.oauth_access_token.length > 0 ? "ok" : "no"]; } },
  },
  async run() { return { hasToken: typeof this.provider.$auth.oauth_access_token === "string" }; },
};`;

async function failure(promise: Promise<unknown>): Promise<ApiError> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error("expected the request to fail");
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`OAuth apps on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let provider: OAuthProvider;
    let api: ReturnType<typeof appsApi>;
    let componentId: string;

    beforeAll(async () => {
      database = await dialect.create();
      provider = await startOAuthProvider();
      sluice = await startTestServer(database, { env: LOOPBACK });
      api = appsApi(sluice.client);
      await api.registerApp({
        slug: "mockprovider",
        name: "Mock Provider",
        auth_type: "oauth",
        fields: [{ name: "region", optional: true }],
        oauth: provider.appSettings({ authorize_params: { access_type: "offline" } }) as never,
      });
      componentId = (
        await sluice.client.saveComponent({ component_code: whoamiAction(`${provider.url}/userinfo`) })
      ).id;
    });
    afterAll(async () => {
      await sluice?.close();
      await provider?.close();
      await database?.cleanup();
    });

    /** Starts a connection and follows it through the provider as a browser would. */
    async function connect(
      params: { name?: string; fields?: Record<string, string>; connected_account_id?: string } = {},
    ) {
      const started = await api.startOAuthConnection({ app: "mockprovider", ...params });
      const followed = await followAuthorize(started.authorize_url);
      return { started, ...followed };
    }

    it("registers an OAuth app whose client secret is sealed: shown as has_client_secret, kept when re-registered without it", async () => {
      const app = await api.getApp("mockprovider");
      expect(app).toMatchObject({
        auth_type: "oauth",
        oauth: {
          client_id: provider.clientId,
          has_client_secret: true,
          pkce: true,
          scopes: ["openid", "profile", "offline_access"],
          token_auth_method: "client_secret_basic",
          redirect_uri: `${sluice.url}/v1/connected_accounts/oauth/callback`,
        },
      });
      const { client_secret: _, ...withoutSecret } = provider.appSettings({
        authorize_params: { access_type: "offline" },
      });
      const again = await api.registerApp({
        slug: "mockprovider",
        name: "Mock Provider",
        auth_type: "oauth",
        fields: [{ name: "region", optional: true }],
        oauth: withoutSecret as never,
      });
      expect(again.oauth?.has_client_secret).toBe(true);
      expect(JSON.stringify(await api.listApps())).not.toContain(provider.clientSecret);
      expect(await databaseText(database)).not.toContain(provider.clientSecret);

      const bad = await failure(
        api.registerApp({
          slug: "broken",
          auth_type: "oauth",
          oauth: { authorize_url: "not a url" } as never,
        }),
      );
      expect(bad).toMatchObject({ status: 400, code: "invalid_app" });
      expect(bad.message).toContain("oauth.authorize_url");
      const keysRoute = await failure(api.createConnectedAccount({ app: "mockprovider", fields: {} }));
      expect(keysRoute).toMatchObject({ status: 400, code: "oauth_app" });
    });

    it("connects through the provider's redirects with state and PKCE; an action calls the provider with $auth.oauth_access_token", async () => {
      const exchanges = provider.requests.authorization_code;
      const { started, status, html, authProvisionId } = await connect({
        name: "work",
        fields: { region: "eu" },
      });
      const authorize = new URL(started.authorize_url);
      expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
      expect(authorize.searchParams.get("code_challenge")).toMatch(/^[\w-]{43}$/);
      expect(authorize.searchParams.get("state")).toMatch(/^[\w-]{43}$/);
      expect(authorize.searchParams.get("scope")).toBe("openid profile offline_access");
      expect(authorize.searchParams.get("access_type")).toBe("offline");
      expect(authorize.searchParams.get("redirect_uri")).toBe(started.redirect_uri);

      expect(status, html).toBe(200);
      expect(html).toContain('"type":"success"');
      expect(html).toContain("window.opener.postMessage");
      expect(html).toContain(JSON.stringify(new URL(sluice.url).origin));
      expect(authProvisionId).toMatch(/^apn_/);
      expect(provider.requests.authorization_code).toBe(exchanges + 1);
      expect(provider.lastExchange?.codeVerifier).toMatch(/^[\w-]{43}$/);
      expect(provider.lastExchange?.basicAuth).toBe(true);

      expect(await api.getOAuthConnection(started.id)).toMatchObject({
        status: "connected",
        connected_account_id: authProvisionId,
      });
      const account = await api.getConnectedAccount(authProvisionId ?? "");
      expect(account).toMatchObject({ app: "mockprovider", name: "work", auth_type: "oauth", healthy: true });
      expect(Date.parse(account.expires_at ?? "")).toBeGreaterThan(Date.now() + 3000 * 1000);

      const run = await sluice.client.runAction({
        component_id: componentId,
        configured_props: { provider: { authProvisionId } },
      });
      expect(run.ok, JSON.stringify(run.failure)).toBe(true);
      expect(run.return_value).toEqual({
        sub: "johndoe",
        uid: "johndoe",
        clientId: provider.clientId,
        hasRefreshToken: true,
        region: "eu",
      });
      expect(JSON.stringify(run.logs)).toContain("calling with ********");
      const everything = JSON.stringify([run, account, await api.listConnectedAccounts()]) + html;
      const stored = await databaseText(database);
      for (const token of provider.issued) {
        expect(everything.includes(token), "a token is in a response").toBe(false);
        expect(stored.includes(token), "a token is stored in plain text").toBe(false);
      }
    });

    it("refuses a replayed, an unknown and a denied callback, and another account's connection, storing nothing", async () => {
      const before = (await api.listConnectedAccounts({ limit: 100 })).data.length;
      const { callbackUrl, status, authProvisionId } = await connect();
      expect(status).toBe(200);
      const replay = await rawRequest(callbackUrl, { headers: { accept: BROWSER_ACCEPT } });
      expect(replay.status).toBe(400);
      expect(replay.text).toContain('data-code="state_used"');
      expect(replay.text).toContain('"type":"error"');

      const forged = new URL(callbackUrl);
      forged.searchParams.set("state", "x".repeat(43));
      const unknown = await rawRequest(forged.toString(), { headers: { accept: BROWSER_ACCEPT } });
      expect(unknown.status).toBe(400);
      expect(unknown.headers.get("content-type")).toMatch(/^text\/html/);
      expect(unknown.headers.get("content-security-policy")).toMatch(/script-src 'nonce-/);
      expect(unknown.text).toContain('data-code="invalid_state"');
      expect(unknown.text).not.toContain("postMessage");
      // An API client (no text/html in its Accept) gets the JSON error shape instead of the page.
      const asJson = await rawRequest(`${sluice.url}/v1/connected_accounts/oauth/callback?code=abc`);
      expect(asJson.status).toBe(400);
      expect(asJson.body).toMatchObject({ error: { code: "invalid_state" } });

      provider.denyNextAuthorization();
      const denied = await connect();
      expect(denied.status).toBe(400);
      expect(denied.html).toContain('data-code="oauth_provider_error"');
      expect(denied.html).toContain("access_denied");
      expect(await api.getOAuthConnection(denied.started.id)).toMatchObject({ status: "failed" });

      const stranger = await sluice.newAccount("stranger");
      const strangers = await failure(appsApi(stranger.client).getOAuthConnection(denied.started.id));
      expect(strangers.status).toBe(404);
      const reconnectOthers = await failure(
        appsApi(stranger.client).startOAuthConnection({
          app: "mockprovider",
          connected_account_id: authProvisionId ?? "",
        }),
      );
      expect(reconnectOthers.status).toBe(404);
      // One connection was made above (the replayed one); nothing else was stored.
      expect((await api.listConnectedAccounts({ limit: 100 })).data.length).toBe(before + 1);
    });

    it("an API client following the redirect gets the callback's outcome as JSON", async () => {
      const started = await api.startOAuthConnection({ app: "mockprovider", name: "api-client" });
      const authorize = await fetch(started.authorize_url, { redirect: "manual" });
      const callback = await rawRequest(authorize.headers.get("location") ?? "");
      expect(callback.status, callback.text).toBe(200);
      expect(callback.body).toEqual({
        data: { id: started.id, app: "mockprovider", connected_account_id: expect.stringMatching(/^apn_/) },
      });
    });

    it("a token endpoint that is down ends in a clear page, and nothing is stored", async () => {
      await api.registerApp({
        slug: "downprovider",
        auth_type: "oauth",
        oauth: provider.appSettings({ token_url: "http://127.0.0.1:9/token" }) as never,
      });
      const started = await api.startOAuthConnection({ app: "downprovider" });
      const followed = await followAuthorize(started.authorize_url);
      expect(followed.status).toBe(502);
      expect(followed.html).toContain('data-code="oauth_token_failed"');
      expect(await api.getOAuthConnection(started.id)).toMatchObject({ status: "failed" });
      expect((await api.listConnectedAccounts({ app: "downprovider" })).data).toHaveLength(0);
    });

    it("an expired token is refreshed once for concurrent runs, which all call the provider with the new token", async () => {
      provider.expiresIn = 2;
      const { authProvisionId } = await connect({ name: "short-lived" });
      provider.expiresIn = 3600;
      await tokenExpired(api, authProvisionId ?? "");
      const refreshes = provider.requests.refresh_token;
      const runs = await Promise.all(
        Array.from({ length: 10 }, () =>
          sluice.client.runAction({
            component_id: componentId,
            configured_props: { provider: { authProvisionId } },
          }),
        ),
      );
      for (const run of runs) expect(run.ok, JSON.stringify(run.failure)).toBe(true);
      expect(provider.requests.refresh_token).toBe(refreshes + 1);
      const account = await api.getConnectedAccount(authProvisionId ?? "");
      expect(account.healthy).toBe(true);
      expect(account.last_refreshed_at).not.toBeNull();
      expect(Date.parse(account.expires_at ?? "")).toBeGreaterThan(Date.now() + 3000 * 1000);
      const stored = await databaseText(database);
      for (const token of provider.issued) expect(stored.includes(token)).toBe(false);
    });

    it("a token endpoint down during a refresh fails the run naming the account, which stays healthy", async () => {
      await api.registerApp({
        slug: "flakyprovider",
        auth_type: "oauth",
        oauth: provider.appSettings() as never,
      });
      provider.expiresIn = 2;
      const started = await api.startOAuthConnection({ app: "flakyprovider", name: "flaky" });
      const { authProvisionId } = await followAuthorize(started.authorize_url);
      provider.expiresIn = 3600;
      expect(authProvisionId).toMatch(/^apn_/);
      const connected = await api.getConnectedAccount(authProvisionId ?? "");
      // The provider's token endpoint goes away: a closed port on loopback.
      await api.registerApp({
        slug: "flakyprovider",
        auth_type: "oauth",
        oauth: provider.appSettings({ token_url: "http://127.0.0.1:9/token" }) as never,
      });
      await tokenExpired(api, authProvisionId ?? "");
      const flaky = await sluice.client.saveComponent({ component_code: FLAKY_ACTION });
      const configured_props = { provider: { authProvisionId } };
      const run = await sluice.client.runAction({
        component_id: flaky.id,
        configured_props: { ...configured_props, project: "ok" },
      });
      expect(run.ok).toBe(false);
      expect(run.failure?.message).toContain(
        `prop 'provider': connected account ${authProvisionId} (app 'flakyprovider'): its access token has expired and refreshing it failed`,
      );
      expect(run.failure?.message).toContain("try again later");
      const options = await failure(api.configure({ id: flaky.id, prop_name: "project", configured_props }));
      expect(options).toMatchObject({ status: 400, code: "connected_account_refresh_failed" });
      expect(options.message).toContain(authProvisionId);
      const account = await api.getConnectedAccount(authProvisionId ?? "");
      expect(account).toMatchObject({ healthy: true, error: null });
      expect(account.last_refreshed_at).toBe(connected.last_refreshed_at);
      expect(Date.parse(account.expires_at ?? "")).toBeLessThan(Date.now());

      // Once the endpoint is back, the next invocation refreshes and runs.
      await api.registerApp({
        slug: "flakyprovider",
        auth_type: "oauth",
        oauth: provider.appSettings() as never,
      });
      const refreshes = provider.requests.refresh_token;
      const again = await sluice.client.runAction({
        component_id: flaky.id,
        configured_props: { ...configured_props, project: "ok" },
      });
      expect(again.ok, JSON.stringify(again.failure)).toBe(true);
      expect(provider.requests.refresh_token).toBe(refreshes + 1);
      expect(await api.getConnectedAccount(authProvisionId ?? "")).toMatchObject({ healthy: true });
    });

    it("a revoked refresh token turns the account unhealthy; runs fail naming it, until it is reconnected", async () => {
      provider.expiresIn = 2;
      const { authProvisionId } = await connect({ name: "to-revoke" });
      provider.expiresIn = 3600;
      provider.revokeRefreshTokens();
      await tokenExpired(api, authProvisionId ?? "");
      const run = await sluice.client.runAction({
        component_id: componentId,
        configured_props: { provider: { authProvisionId } },
      });
      expect(run.ok).toBe(false);
      expect(run.failure?.message).toContain(authProvisionId);
      expect(run.failure?.message).toContain("mockprovider");
      expect(run.failure?.message).toContain("invalid_grant");
      const account = await api.getConnectedAccount(authProvisionId ?? "");
      expect(account).toMatchObject({ healthy: false, dead: true });
      expect(account.error).toContain("invalid_grant");
      const refreshes = provider.requests.refresh_token;
      const again = await sluice.client.runAction({
        component_id: componentId,
        configured_props: { provider: { authProvisionId } },
      });
      expect(again.failure?.message).toMatch(/unhealthy.*reconnect it/);
      expect(provider.requests.refresh_token).toBe(refreshes);

      // Fields are a keys account's way back: an OAuth account goes through its provider again.
      const withFields = await failure(api.updateConnectedAccount(authProvisionId ?? "", { fields: {} }));
      expect(withFields).toMatchObject({ status: 400, code: "oauth_app" });
      const reconnected = await connect({ connected_account_id: authProvisionId });
      expect(reconnected.authProvisionId).toBe(authProvisionId);
      expect(await api.getConnectedAccount(authProvisionId ?? "")).toMatchObject({
        healthy: true,
        error: null,
      });
      const healed = await sluice.client.runAction({
        component_id: componentId,
        configured_props: { provider: { authProvisionId } },
      });
      expect(healed.ok, JSON.stringify(healed.failure)).toBe(true);
    });
  });
}

describe("OAuth connection links expire", () => {
  let database: TestDatabase;
  let sluice: TestServer;
  let provider: OAuthProvider;

  beforeAll(async () => {
    database = await (dialects[0] as NonNullable<(typeof dialects)[0]>).create();
    provider = await startOAuthProvider();
    sluice = await startTestServer(database, { env: { ...LOOPBACK, SLUICE_OAUTH_STATE_TTL: "1" } });
  });
  afterAll(async () => {
    await sluice?.close();
    await provider?.close();
    await database?.cleanup();
  });

  it("a state used after its expiry is refused, and nothing is stored", async () => {
    const api = appsApi(sluice.client);
    await api.registerApp({
      slug: "mockprovider",
      auth_type: "oauth",
      oauth: provider.appSettings() as never,
    });
    const started = await api.startOAuthConnection({ app: "mockprovider" });
    await waitUntil(
      "the connection link to expire",
      async () => (await api.getOAuthConnection(started.id)).status === "expired",
      5000,
    );
    expect((await api.getOAuthConnection(started.id)).status).toBe("expired");
    const followed = await followAuthorize(started.authorize_url);
    expect(followed.status).toBe(400);
    expect(followed.html).toContain('data-code="state_expired"');
    expect((await api.listConnectedAccounts()).data).toHaveLength(0);
  });
});

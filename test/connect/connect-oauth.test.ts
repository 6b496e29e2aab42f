/**
 * Connecting an OAuth app from the connect link page, over raw HTTP as the page and a browser do,
 * against a real OAuth provider on loopback (oauth2-mock-server, strict as in
 * test/support/oauth-provider.ts). The page starts the flow with its connect token
 * (`POST /v1/connect/accounts/oauth`), the browser follows the provider's redirect to Sluice's
 * callback, and the callback page posts `{type: "success", authProvisionId}` to the link page's
 * origin. The account lands in the end user's account with the project owner's client; the token
 * is spent by it, bounds the attempt's life, and is kept to its end user and allowed origins.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appsApi } from "../../src/client/apps-client.js";
import { type ConnectSetUp, connectRequest, setUpConnectProject } from "../support/connect-project.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { followAuthorize, type OAuthProvider, startOAuthProvider } from "../support/oauth-provider.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { letTimePassUntil } from "../support/wait.js";

type Json = Record<string, unknown>;

/** An action of the owner's that calls the provider with the end user's access token. */
const whoamiAction = (userInfoUrl: string) => `export default {
  name: "Who am I", key: "mockprovider-whoami", version: "0.1.0", type: "action",
  props: { provider: { type: "app", app: "mockprovider" } },
  async run() {
    const response = await fetch(${JSON.stringify(userInfoUrl)}, {
      headers: { Authorization: "Bearer " + this.provider.$auth.oauth_access_token },
    });
    return { status: response.status, sub: (await response.json()).sub, region: this.provider.$auth.region };
  },
};`;

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(
    `OAuth apps on the connect link page on ${dialect.name}`,
    { timeout: 60_000 },
    () => {
      let database: TestDatabase;
      let sluice: TestServer;
      let provider: OAuthProvider;
      let connect: ConnectSetUp;
      const url = (path: string) => `${sluice.url}${path}`;
      const inProject = (path: string) => url(`/v1/connect/${connect.project.id}${path}`);
      /** A server-side call (the owner's API key) in the development environment. */
      const server = (path: string, init: Parameters<typeof connectRequest>[1] = {}) =>
        connectRequest(inProject(path), { token: connect.owner.apiKey, environment: "development", ...init });

      const issue = async (body: Json) => {
        const answer = await server("/tokens", { method: "POST", body });
        expect(answer.status).toBe(200);
        return answer.body as { token: string; expires_at: string; connect_link_url: string };
      };
      /** What the link page sends: its token as bearer and in the body, from the server's origin. */
      const start = (token: string, body: Json = {}, origin = new URL(sluice.url).origin) =>
        connectRequest(url("/v1/connect/accounts/oauth"), {
          method: "POST",
          token,
          origin,
          body: { app_slug: "mockprovider", connect_token: token, ...body },
        });
      const authorizeUrlOf = (answer: { status: number; body: unknown }) => {
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        return (answer.body as { authorize_url: string }).authorize_url;
      };
      const accountsOf = async (externalUserId: string) =>
        (
          (await server(`/accounts?external_user_id=${externalUserId}&include_credentials=true`)).body as {
            data: Json[];
          }
        ).data;

      beforeAll(async () => {
        database = await dialect.create();
        provider = await startOAuthProvider();
        sluice = await startTestServer(database, {
          env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8", SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8" },
        });
        connect = await setUpConnectProject(sluice);
        await appsApi(connect.owner.client).registerApp({
          slug: "mockprovider",
          name: "Mock Provider",
          auth_type: "oauth",
          fields: [{ name: "region", optional: true }],
          oauth: provider.appSettings() as never,
        });
        await connect.owner.client.publishComponent({
          component_code: whoamiAction(`${provider.url}/userinfo`),
        });
      });
      afterAll(async () => {
        await sluice?.close();
        await provider?.close();
        await database?.cleanup();
      });

      it("an end user connects an OAuth app through the provider's redirects; the callback page posts {type: 'success', authProvisionId} to the link page's origin and the token is spent", async () => {
        const olga = await issue({ external_user_id: "olga", allowed_origins: ["https://app.example.com"] });
        const validated = await connectRequest(
          url(`/v1/connect/tokens/${olga.token}/validate?app_id=mockprovider`),
        );
        expect(validated.body).toMatchObject({
          success: true,
          app: { name_slug: "mockprovider", auth_type: "oauth" },
        });
        const page = await (await fetch(olga.connect_link_url)).text();
        expect(page).toContain("/v1/connect/accounts/oauth");
        expect(page).not.toContain("does not offer");

        const started = await start(olga.token, {
          cfmap_json: JSON.stringify({ region: "eu" }),
          name: "Olga's",
        });
        const authorize = new URL(authorizeUrlOf(started));
        expect(authorize.origin).toBe(new URL(provider.url).origin);
        expect(authorize.searchParams.get("code_challenge_method")).toBe("S256");
        expect(authorize.searchParams.get("redirect_uri")).toBe(url("/v1/connected_accounts/oauth/callback"));
        const expiresAt = Date.parse((started.body as { expires_at: string }).expires_at);
        expect(expiresAt).toBeLessThanOrEqual(Date.parse(olga.expires_at));

        const followed = await followAuthorize(authorize.toString());
        expect(followed.status).toBe(200);
        expect(followed.html).toContain(
          `window.opener.postMessage(message, ${JSON.stringify(new URL(sluice.url).origin)})`,
        );
        expect(followed.html).toContain('"type":"success"');
        const id = followed.authProvisionId;
        expect(id).toMatch(/^apn_/);

        const [account, ...others] = await accountsOf("olga");
        expect(others).toEqual([]);
        expect(account).toMatchObject({
          id,
          name: "Olga's",
          external_id: "olga",
          healthy: true,
          app: { name_slug: "mockprovider", auth_type: "oauth" },
          credentials: { region: "eu", oauth_client_id: provider.clientId },
        });
        expect(provider.issued).toContain((account?.credentials as Json).oauth_access_token);
        // It is the end user's: the project owner's own connected accounts do not hold it.
        const own = await connectRequest(url("/v1/connected_accounts"), { token: connect.owner.apiKey });
        expect(JSON.stringify(own.body)).not.toContain(String(id));
        // An action of the project runs for olga with the provider's token.
        const ran = await server("/actions/run", {
          method: "POST",
          body: {
            id: "mockprovider-whoami",
            external_user_id: "olga",
            configured_props: { provider: { authProvisionId: id } },
          },
        });
        expect(ran.body).toMatchObject({ ret: { status: 200, region: "eu" } });

        const again = await start(olga.token);
        expect(again.status).toBe(401);
        expect(again.body).toMatchObject({ error: { code: "connect_token_used" } });
        expect((await connectRequest(url(`/v1/connect/tokens/${olga.token}/validate`))).body).toMatchObject({
          success: false,
        });
      });

      it("the connect token bounds the flow: its end user, its origins, its life, one account; a refusal leaves it usable", async () => {
        const pete = await issue({ external_user_id: "pete", allowed_origins: ["https://app.example.com"] });
        const evil = await start(pete.token, {}, "https://evil.example.com");
        expect(evil.status).toBe(403);
        expect(evil.body).toMatchObject({ error: { code: "origin_not_allowed" } });
        const other = await start(pete.token, { external_user_id: "olga" });
        expect(other.status).toBe(400);
        expect(other.body).toMatchObject({ error: { code: "end_user_mismatch" } });
        const keysApp = await start(pete.token, { app_slug: "connect_vault" });
        expect(keysApp.status).toBe(400);
        expect(keysApp.body).toMatchObject({ error: { code: "not_an_oauth_app" } });
        const badFields = await start(pete.token, { cfmap_json: JSON.stringify({ nope: 1 }) });
        expect(badFields.status).toBe(400);
        const noToken = await server("/accounts/oauth", {
          method: "POST",
          body: { app_slug: "mockprovider" },
        });
        expect(noToken.status).toBe(400);
        expect(noToken.body).toMatchObject({ error: { code: "missing_connect_token" } });

        // The provider says no: the page is told, nothing is stored, and the token still works.
        provider.denyNextAuthorization();
        const denied = await followAuthorize(authorizeUrlOf(await start(pete.token)));
        expect(denied.status).toBe(400);
        expect(denied.html).toContain('"type":"error"');
        expect(await accountsOf("pete")).toEqual([]);

        // Two attempts with one token: the first to come back connects, the second is refused. The
        // first started from an allowed origin (a page of the product's): its result is posted there.
        const first = authorizeUrlOf(await start(pete.token, {}, "https://app.example.com"));
        const second = authorizeUrlOf(await start(pete.token));
        const won = await followAuthorize(first);
        expect(won.authProvisionId).toMatch(/^apn_/);
        expect(won.html).toContain('window.opener.postMessage(message, "https://app.example.com")');
        const lost = await followAuthorize(second);
        expect(lost.status).toBe(400);
        expect(lost.html).toContain("connect_token_used");
        expect((await accountsOf("pete")).map((account) => account.id)).toEqual([won.authProvisionId]);

        // A short-lived token: the attempt ends with it, and an expired token cannot start one.
        const quick = await issue({ external_user_id: "quinn", expires_in: 1 });
        const late = authorizeUrlOf(await start(quick.token));
        // Time is the point: the token must have expired, at the time the server gave.
        await letTimePassUntil(quick.expires_at);
        const expired = await followAuthorize(late);
        expect(expired.status).toBe(400);
        expect(expired.html).toContain("state_expired");
        const refused = await start(quick.token);
        expect(refused.status).toBe(401);
        expect(refused.body).toMatchObject({ error: { code: "connect_token_expired" } });
        expect(await accountsOf("quinn")).toEqual([]);
      });
    },
  );
}

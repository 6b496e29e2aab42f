/**
 * The Connect API's data model over raw HTTP, on every dialect: projects of an account, OAuth
 * clients and their tokens (API keys work too), environments with separate end users, connect
 * tokens (short-lived, one end user, spent by connecting an account), the isolation of end users,
 * projects and accounts (404), the error statuses Pipedream's clients expect (never a 5xx for a
 * client's mistake), CORS for the browser client, and a project's deletion taking everything with it.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConnectSetUp, connectRequest, setUpConnectProject } from "../support/connect-project.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { letTimePassUntil } from "../support/wait.js";

type Json = Record<string, unknown>;

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`the Connect API on ${dialect.name}`, { timeout: 60_000 }, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let connect: ConnectSetUp;
    let accessToken: string;
    const url = (path: string) => `${sluice.url}${path}`;
    const inProject = (path: string) => url(`/v1/connect/${connect.project.id}${path}`);

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database, { env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8" } });
      connect = await setUpConnectProject(sluice);
      const issued = await connectRequest(url("/v1/oauth/token"), {
        method: "POST",
        body: {
          grant_type: "client_credentials",
          client_id: connect.clientId,
          client_secret: connect.clientSecret,
        },
      });
      expect(issued.status).toBe(200);
      expect(issued.body).toMatchObject({ token_type: "Bearer", expires_in: 3600 });
      accessToken = (issued.body as { access_token: string }).access_token;
    });
    afterAll(async () => {
      await sluice?.close();
      await database?.cleanup();
    });

    it("the token endpoint: client credentials only, a wrong secret or revoked client is 401 invalid_client", async () => {
      const attempt = (body: unknown) => connectRequest(url("/v1/oauth/token"), { method: "POST", body });
      const wrong = await attempt({
        grant_type: "client_credentials",
        client_id: connect.clientId,
        client_secret: "nope",
      });
      expect(wrong.status).toBe(401);
      expect(wrong.body).toMatchObject({ error: { code: "invalid_client" } });
      expect((await attempt({ client_id: "ocl_unknown", client_secret: "x" })).status).toBe(401);
      expect(
        (await attempt({ grant_type: "password", client_id: connect.clientId, client_secret: "x" })).status,
      ).toBe(400);
      expect((await attempt({ client_id: connect.clientId })).status).toBe(400);

      const created = await connectRequest(url("/v1/oauth_clients"), {
        method: "POST",
        token: connect.owner.apiKey,
        body: { name: "short-lived" },
      });
      const { client_id, client_secret } = (
        created.body as { data: { client_id: string; client_secret: string } }
      ).data;
      const listed = await connectRequest(url("/v1/oauth_clients"), { token: connect.owner.apiKey });
      expect(JSON.stringify(listed.body)).toContain(client_id);
      expect(JSON.stringify(listed.body)).not.toContain(client_secret);
      const token = ((await attempt({ client_id, client_secret })).body as { access_token: string })
        .access_token;
      expect((await connectRequest(inProject("/components"), { token })).status).toBe(200);
      const revoked = await connectRequest(url(`/v1/oauth_clients/${client_id}`), {
        method: "DELETE",
        token: connect.owner.apiKey,
      });
      expect(revoked.status).toBe(200);
      expect((await attempt({ client_id, client_secret })).status).toBe(401);
      expect((await connectRequest(inProject("/components"), { token })).status).toBe(401);
      // Another account cannot revoke (or see) this account's clients.
      const stranger = await sluice.newAccount("stranger");
      expect(
        (
          await connectRequest(url(`/v1/oauth_clients/${connect.clientId}`), {
            method: "DELETE",
            token: stranger.apiKey,
          })
        ).status,
      ).toBe(404);
    });

    it("projects: created, listed and read with the access token or an API key; another account's is 404", async () => {
      const created = await connectRequest(url("/v1/connect/projects"), {
        method: "POST",
        token: accessToken,
        body: { name: "Second", support_email: "help@example.com" },
      });
      expect(created.status).toBe(200);
      const project = created.body as Json;
      expect(project).toMatchObject({ name: "Second", support_email: "help@example.com" });
      expect(project.id).toMatch(/^proj_/);
      const listed = await connectRequest(url("/v1/connect/projects"), { token: connect.owner.apiKey });
      expect((listed.body as { data: Json[] }).data.map((item) => item.id)).toEqual([
        project.id,
        connect.project.id,
      ]);
      expect(
        (await connectRequest(url(`/v1/connect/projects/${project.id}`), { token: accessToken })).status,
      ).toBe(200);

      const stranger = await sluice.newAccount("stranger");
      for (const path of [`/v1/connect/projects/${project.id}`, `/v1/connect/${project.id}/components`]) {
        expect((await connectRequest(url(path), { token: stranger.apiKey })).status).toBe(404);
      }
      expect(
        (await connectRequest(url("/v1/connect/projects/proj_nope"), { token: accessToken })).status,
      ).toBe(404);
      expect(
        (await connectRequest(url("/v1/connect/projects"), { method: "POST", token: accessToken, body: {} }))
          .status,
      ).toBe(400);
      const deleted = await connectRequest(url(`/v1/connect/projects/${project.id}`), {
        method: "DELETE",
        token: accessToken,
      });
      expect(deleted.status).toBe(204);
      expect(
        (await connectRequest(url(`/v1/connect/projects/${project.id}`), { token: accessToken })).status,
      ).toBe(404);
    });

    it("asks for credentials and says which; never a 5xx for a client's mistake", async () => {
      const none = await connectRequest(inProject("/components"));
      expect(none.status).toBe(401);
      expect(JSON.stringify(none.body)).toContain("Authorization: Bearer");
      expect((await connectRequest(inProject("/components"), { token: "sat_forged" })).status).toBe(401);
      expect((await connectRequest(inProject("/components"), { token: "ctok_forged" })).status).toBe(401);
      expect((await connectRequest(inProject("/components"), { token: connect.owner.apiKey })).status).toBe(
        200,
      );
      const environment = await connectRequest(inProject("/components"), {
        token: accessToken,
        environment: "staging",
      });
      expect(environment.status).toBe(400);
      expect(environment.body).toMatchObject({ error: { code: "invalid_environment" } });
      const mistakes = [
        connectRequest(inProject("/actions/run"), {
          method: "POST",
          token: accessToken,
          body: { id: "connect_vault-greet" },
        }),
        connectRequest(inProject("/triggers/deploy"), {
          method: "POST",
          token: accessToken,
          body: { id: "connect_vault-new-row" },
        }),
        connectRequest(inProject("/components/configure"), {
          method: "POST",
          token: accessToken,
          body: { id: "connect_vault-greet", prop_name: "style" },
        }),
        connectRequest(inProject("/tokens"), { method: "POST", token: accessToken, body: {} }),
        connectRequest(inProject("/deployed-triggers"), { token: accessToken }),
      ];
      for (const answer of await Promise.all(mistakes)) {
        expect(answer.status).toBe(400);
        expect(answer.body).toMatchObject({ error: { code: "missing_external_user_id" } });
      }
      const unknownComponent = await connectRequest(inProject("/actions/run"), {
        method: "POST",
        token: accessToken,
        body: { id: "nobody-nothing", external_user_id: "someone" },
      });
      expect(unknownComponent.status).toBe(404);
      const wrongKind = await connectRequest(inProject("/actions/run"), {
        method: "POST",
        token: accessToken,
        body: { id: "connect_vault-new-row", external_user_id: "someone" },
      });
      expect(wrongKind.status).toBe(400);
      const badWebhook = await connectRequest(inProject("/triggers/deploy"), {
        method: "POST",
        token: accessToken,
        body: { id: "connect_vault-new-row", external_user_id: "someone", webhook_url: "ftp://example.com" },
      });
      expect(badWebhook.status).toBe(400);
      const workflow = await connectRequest(inProject("/triggers/deploy"), {
        method: "POST",
        token: accessToken,
        body: { id: "connect_vault-new-row", external_user_id: "someone", workflow_id: "p_123" },
      });
      expect(workflow.body).toMatchObject({ error: { code: "unsupported" } });
      expect(
        (
          await connectRequest(inProject("/deployed-triggers/dc_nope?external_user_id=someone"), {
            token: accessToken,
          })
        ).status,
      ).toBe(404);
      expect((await connectRequest(inProject("/accounts/apn_nope"), { token: accessToken })).status).toBe(
        404,
      );
    });

    it("connect tokens: one end user, its environment, spent by connecting; an expired one cannot connect", async () => {
      const issue = async (body: Json, environment = "development") => {
        const answer = await connectRequest(inProject("/tokens"), {
          method: "POST",
          token: accessToken,
          environment,
          body,
        });
        expect(answer.status).toBe(200);
        return answer.body as { token: string; expires_at: string; connect_link_url: string };
      };
      const carol = await issue({ external_user_id: "carol", allowed_origins: ["https://app.example.com"] });
      expect(Date.parse(carol.expires_at) - Date.now()).toBeGreaterThan(3.9 * 3600 * 1000);
      expect(carol.connect_link_url).toBe(
        `${sluice.url}/_static/connect.html?token=${carol.token}&connectLink=true`,
      );
      const validated = await connectRequest(
        url(`/v1/connect/tokens/${carol.token}/validate?app_id=connect_vault`),
      );
      expect(validated.body).toMatchObject({
        success: true,
        project_id: connect.project.id,
        project_environment: "development",
        external_user_id: "carol",
        app: { name_slug: "connect_vault", auth_type: "keys" },
      });
      // The token lists nothing but its own end user's, and no credentials.
      const asCarol = (path: string, init: Parameters<typeof connectRequest>[1] = {}) =>
        connectRequest(url(`/v1/connect${path}`), { token: carol.token, ...init });
      expect((await asCarol("/accounts")).body).toMatchObject({ data: [] });
      expect((await asCarol("/accounts?include_credentials=true")).status).toBe(403);
      expect((await asCarol("/accounts?external_user_id=dave")).status).toBe(403);
      expect((await asCarol("/projects")).status).toBe(403);
      expect((await asCarol(`/${connect.project.id}/components`)).status).toBe(200);
      expect((await asCarol("/proj_01jabcdefghjkmnpqrstvwxyz0/components")).status).toBe(404);
      expect((await asCarol("/components", { origin: "https://evil.example.com" })).status).toBe(403);
      const fromApp = await asCarol("/components", { origin: "https://app.example.com" });
      expect(fromApp.status).toBe(200);
      expect(fromApp.headers.get("access-control-allow-origin")).toBe("https://app.example.com");
      const preflight = await fetch(url("/v1/connect/accounts"), {
        method: "OPTIONS",
        headers: {
          origin: "https://app.example.com",
          "access-control-request-method": "POST",
          "access-control-request-headers": "authorization, content-type, x-pd-environment",
        },
      });
      expect(preflight.status).toBe(204);
      expect(preflight.headers.get("access-control-allow-headers")).toContain("x-pd-environment");

      const connected = await asCarol("/accounts", {
        method: "POST",
        body: {
          app_slug: "connect_vault",
          cfmap_json: JSON.stringify({ user: "carol" }),
          connect_token: carol.token,
        },
      });
      expect(connected.status).toBe(400);
      expect(connected.body).toMatchObject({ error: { code: "invalid_fields" } });
      const account = await asCarol("/accounts", {
        method: "POST",
        body: {
          app_slug: "connect_vault",
          cfmap_json: JSON.stringify({ user: "carol", rooms: "a,b" }),
          connect_token: carol.token,
        },
      });
      expect(account.status).toBe(200);
      expect(account.body).toMatchObject({ external_id: "carol", app: { name_slug: "connect_vault" } });
      expect(JSON.stringify(account.body)).not.toContain("a,b");
      const spent = await asCarol("/accounts", {
        method: "POST",
        body: { app_slug: "connect_vault", cfmap_json: JSON.stringify({ user: "carol", rooms: "c" }) },
      });
      expect(spent.status).toBe(401);
      expect(spent.body).toMatchObject({ error: { code: "connect_token_used" } });

      // Environments keep separate end users: production's carol has nothing.
      const server = (path: string, environment: string) =>
        connectRequest(inProject(path), { token: accessToken, environment });
      const development = (await server("/accounts?external_user_id=carol", "development")).body as {
        data: Json[];
      };
      expect(development.data).toHaveLength(1);
      expect(
        ((await server("/accounts?external_user_id=carol", "production")).body as { data: Json[] }).data,
      ).toEqual([]);
      const id = development.data[0]?.id as string;
      expect((await server(`/accounts/${id}`, "production")).status).toBe(404);
      // Every end user's accounts, when no external_user_id is given.
      const everyone = await server("/accounts", "development");
      expect((everyone.body as { data: Json[] }).data.map((item) => item.external_id)).toContain("carol");

      const expiring = await issue({ external_user_id: "erin", expires_in: 1 });
      // Time is the point: the token must have expired, at the time the server gave.
      await letTimePassUntil(expiring.expires_at);
      const late = await connectRequest(url("/v1/connect/accounts"), {
        method: "POST",
        token: expiring.token,
        body: { app_slug: "connect_vault", cfmap_json: JSON.stringify({ user: "erin", rooms: "x" }) },
      });
      expect(late.status).toBe(401);
      expect(late.body).toMatchObject({ error: { code: "connect_token_expired" } });
      const lateServer = await connectRequest(inProject("/accounts"), {
        method: "POST",
        token: accessToken,
        environment: "development",
        body: { app_slug: "connect_vault", cfmap_json: "{}", connect_token: expiring.token },
      });
      expect(lateServer.status).toBe(401);
      expect((await connectRequest(url(`/v1/connect/tokens/${expiring.token}/validate`))).body).toMatchObject(
        {
          success: false,
        },
      );
      expect(
        ((await server("/accounts?external_user_id=erin", "development")).body as { data: Json[] }).data,
      ).toEqual([]);
      const tooLong = await connectRequest(inProject("/tokens"), {
        method: "POST",
        token: accessToken,
        body: { external_user_id: "x", expires_in: 99_999 },
      });
      expect(tooLong.status).toBe(400);
    });

    it("deleting a project deletes its end users, their accounts and triggers", async () => {
      const created = await connectRequest(url("/v1/connect/projects"), {
        method: "POST",
        token: accessToken,
        body: { name: "Doomed" },
      });
      const project = (created.body as { id: string }).id;
      const token = (
        (
          await connectRequest(url(`/v1/connect/${project}/tokens`), {
            method: "POST",
            token: accessToken,
            body: { external_user_id: "frank" },
          })
        ).body as { token: string }
      ).token;
      const account = (
        (
          await connectRequest(url("/v1/connect/accounts"), {
            method: "POST",
            token,
            body: { app_slug: "connect_vault", cfmap_json: JSON.stringify({ user: "frank", rooms: "r" }) },
          })
        ).body as { id: string }
      ).id;
      const deployed = await connectRequest(url(`/v1/connect/${project}/triggers/deploy`), {
        method: "POST",
        token: accessToken,
        body: {
          id: "connect_vault-new-row",
          external_user_id: "frank",
          webhook_url: "http://127.0.0.1:9/hook",
        },
      });
      expect(deployed.status).toBe(200);
      const trigger = (
        deployed.body as { data: { id: string; webhook_signing_key: string; endpoint_url: string } }
      ).data;
      expect(trigger.webhook_signing_key).toMatch(/^whsec_/);
      expect(
        (
          await connectRequest(url(`/v1/connect/${project}/deployed-triggers?external_user_id=frank`), {
            token: accessToken,
          })
        ).body,
      ).toMatchObject({ data: [{ id: trigger.id }] });

      expect(
        (
          await connectRequest(url(`/v1/connect/projects/${project}`), {
            method: "DELETE",
            token: accessToken,
          })
        ).status,
      ).toBe(204);
      expect(
        (await connectRequest(url(`/v1/connect/${project}/accounts/${account}`), { token: accessToken }))
          .status,
      ).toBe(404);
      // The trigger went with it: its endpoint no longer answers.
      expect((await fetch(trigger.endpoint_url, { method: "POST" })).status).toBe(404);
      expect((await connectRequest(url("/v1/connect/accounts"), { token })).status).toBe(401);
    });

    it("the OpenAPI document names every Connect operation", async () => {
      const document = (await connectRequest(url("/v1/openapi.json"))).body as {
        paths: Record<string, Record<string, { operationId?: string; summary?: string; responses?: Json }>>;
      };
      const connectPaths = Object.entries(document.paths).filter(
        ([path]) => path.startsWith("/v1/connect/") || path.startsWith("/v1/oauth"),
      );
      expect(connectPaths.length).toBeGreaterThan(20);
      // The project-less twins (for connect tokens) are the same operations, documented once.
      expect(connectPaths.some(([path]) => path === "/v1/connect/accounts")).toBe(false);
      const ids = new Set<string>();
      for (const [path, operations] of connectPaths) {
        for (const [method, operation] of Object.entries(operations)) {
          expect(operation.operationId, `${method} ${path}`).toBeTruthy();
          expect(operation.summary, `${method} ${path}`).toBeTruthy();
          expect(
            Object.keys(operation.responses ?? {}).some((status) => status.startsWith("4")),
            `${method} ${path}`,
          ).toBe(true);
          expect(ids.has(operation.operationId ?? "")).toBe(false);
          ids.add(operation.operationId ?? "");
        }
      }
    });
  });
}

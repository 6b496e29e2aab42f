/**
 * Apps and connected accounts over REST: registering keys apps (per account and, for admins, per
 * server), connecting accounts whose credentials are sealed, and app props configured with
 * `{"authProvisionId": "apn_…"}` on deploy, update, run-action and workflow steps, with `$auth` in
 * the sandbox.
 * The server's own log (a `sluice server` process at debug level) never holds a credential.
 */
import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appsApi } from "../../src/client/apps-client.js";
import { ApiError, SluiceClient } from "../../src/client/client.js";
import { databaseText } from "../support/database-text.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer, testEnvironment } from "../support/server.js";
import { type ServerProcess, startServerProcess, stopServerProcess } from "../support/server-process.js";
import { waitUntil } from "../support/webhook-delivery.js";

const SECRET = "acme-key-that-must-never-leak-7731";

/** A source whose app method reads this.$auth and whose run prints the key (the log must mask it). */
const ACME_SOURCE = `export default {
  name: "acme watcher",
  props: {
    acme: { type: "app", app: "acme", methods: { key() { return this.$auth.api_key; } } },
  },
  async run() {
    console.log("the key is " + this.acme.$auth.api_key);
    this.$emit({ sameKey: this.acme.key() === this.acme.$auth.api_key, keyLength: this.acme.key().length, region: this.acme.$auth.region ?? null });
  },
};`;

const ACME_ACTION = `export default {
  name: "acme action", key: "acme-action", version: "0.0.1", type: "action",
  props: { acme: { type: "app", app: "acme" } },
  async run() { return { keyLength: this.acme.$auth.api_key.length }; },
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
  describe.skipIf(!isAvailable(dialect))(`apps and connected accounts on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let api: ReturnType<typeof appsApi>;

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database);
      api = appsApi(sluice.client);
    });
    afterAll(async () => {
      await sluice?.close();
      await database?.cleanup();
    });

    it("registers a keys app, checks connected accounts against its fields, and never returns credentials", async () => {
      const app = await api.registerApp({
        slug: "acme",
        name: "Acme",
        auth_type: "keys",
        fields: [
          { name: "api_key", label: "API key", secret: true },
          { name: "region", optional: true },
        ],
      });
      expect(app).toMatchObject({ name_slug: "acme", auth_type: "keys", scope: "account" });
      expect((await api.listApps()).map((listed) => listed.name_slug)).toContain("acme");

      const missing = await failure(api.createConnectedAccount({ app: "acme", fields: { region: "eu" } }));
      expect(missing.status).toBe(400);
      expect(missing.code).toBe("invalid_fields");
      expect(missing.message).toContain("'api_key'");
      const unknown = await failure(
        api.createConnectedAccount({ app: "acme", fields: { api_key: SECRET, colour: "red" } }),
      );
      expect(unknown.message).toMatch(/no field 'colour'/);
      expect(JSON.stringify(unknown)).not.toContain(SECRET);
      expect((await api.listConnectedAccounts({ app: "acme" })).data).toHaveLength(0);

      const connected = await api.createConnectedAccount({
        app: "acme",
        name: "prod",
        fields: { api_key: SECRET, region: "eu" },
      });
      expect(connected.id).toMatch(/^apn_[0-9a-z]{26}$/);
      expect(connected).toMatchObject({ app: "acme", name: "prod", healthy: true });
      expect(JSON.stringify(connected)).not.toContain(SECRET);
      expect((await api.getConnectedAccount(connected.id)).name).toBe("prod");
      expect((await api.renameConnectedAccount(connected.id, "production")).name).toBe("production");
      const listed = await api.listConnectedAccounts({ app: "acme" });
      expect(listed.data.map((account) => account.id)).toEqual([connected.id]);
      expect(JSON.stringify(listed)).not.toContain(SECRET);
      expect((await databaseText(database)).includes(SECRET), "a secret is stored in plain text").toBe(false);
    });

    it("PATCH with fields reconnects a keys account: checked like create, sealed, same apn_, used by the next run", async () => {
      const connected = await api.createConnectedAccount({
        app: "acme",
        name: "rotated",
        fields: { api_key: "old" },
      });
      const missing = await failure(api.updateConnectedAccount(connected.id, { fields: { region: "us" } }));
      expect(missing).toMatchObject({ status: 400, code: "invalid_fields" });
      expect((await failure(api.updateConnectedAccount(connected.id, {}))).status).toBe(400);
      const updated = await api.updateConnectedAccount(connected.id, { fields: { api_key: SECRET } });
      expect(updated).toMatchObject({ id: connected.id, name: "rotated", healthy: true, error: null });
      expect(JSON.stringify(updated)).not.toContain(SECRET);
      const run = await sluice.client.runAction({
        component_code: ACME_ACTION,
        configured_props: { acme: { authProvisionId: connected.id } },
      });
      expect(run.return_value).toEqual({ keyLength: SECRET.length });
      expect((await databaseText(database)).includes(SECRET), "a secret is stored in plain text").toBe(false);
    });

    it("an app prop configured with {authProvisionId} gets $auth in run and in app methods; logs mask it", async () => {
      const connected = await api.createConnectedAccount({ app: "acme", fields: { api_key: SECRET } });
      const source = await sluice.client.deploySource({
        component_code: ACME_SOURCE,
        configured_props: { acme: { authProvisionId: connected.id } },
      });
      expect(source.configured_props.acme).toEqual({ authProvisionId: connected.id });
      const run = await sluice.client.runSource(source.id);
      expect(run.ok, JSON.stringify(run.failure)).toBe(true);
      const events = await sluice.client.listEvents(source.id, { expand: "event" });
      expect(events.data[0]?.event).toEqual({ sameKey: true, keyLength: SECRET.length, region: null });
      const logs = JSON.stringify(await sluice.client.listLogs(source.id, { limit: 100 }));
      expect(logs).toContain("the key is ********");
      expect(logs).not.toContain(SECRET);

      // Update to another connected account: the next run sees its fields.
      const other = await api.createConnectedAccount({
        app: "acme",
        fields: { api_key: SECRET, region: "us" },
      });
      await sluice.client.updateSource(source.id, {
        configured_props: { acme: { authProvisionId: other.id } },
      });
      await sluice.client.runSource(source.id);
      const latest = await sluice.client.listEvents(source.id, { expand: "event" });
      expect(latest.data[0]?.event).toEqual({ sameKey: true, keyLength: SECRET.length, region: "us" });
      expect((await databaseText(database)).includes(SECRET), "a secret is stored in plain text").toBe(false);
    });

    it("run-action's report masks the resolved credentials an action logs, returns, exports or sends", async () => {
      const connected = await api.createConnectedAccount({ app: "acme", fields: { api_key: SECRET } });
      const run = await sluice.client.runAction({
        component_code: `export default {
          name: "leaky", type: "action",
          props: { acme: { type: "app", app: "acme" } },
          async run({ $ }) {
            const key = this.acme.$auth.api_key;
            console.log("key=" + key);
            $.export("header", "Bearer " + key);
            $.export("$summary", "used " + key);
            $.send.http({ method: "POST", url: "http://127.0.0.1:9/x", data: { key } });
            return { key, nested: [{ auth: "x-" + key }] };
          },
        };`,
        configured_props: { acme: { authProvisionId: connected.id } },
      });
      expect(run.ok, JSON.stringify(run.failure)).toBe(true);
      expect(run.return_value).toEqual({ key: "********", nested: [{ auth: "x-********" }] });
      expect(run.exports).toEqual({ header: "Bearer ********" });
      expect(run.summary).toBe("used ********");
      expect(JSON.stringify(run.logs)).toContain("key=********");
      expect(JSON.stringify(run)).not.toContain(SECRET);
    });

    it("run-action takes {authProvisionId}", async () => {
      const connected = await api.createConnectedAccount({ app: "acme", fields: { api_key: SECRET } });
      const run = await sluice.client.runAction({
        component_code: ACME_ACTION,
        configured_props: { acme: { authProvisionId: connected.id } },
      });
      expect(run.ok, JSON.stringify(run.failure)).toBe(true);
      expect(run.return_value).toEqual({ keyLength: SECRET.length });
      expect(JSON.stringify(run)).not.toContain(SECRET);
    });

    it("a workflow step's app prop takes {authProvisionId}; an unknown apn_ refuses the workflow", async () => {
      const connected = await api.createConnectedAccount({ app: "acme", fields: { api_key: SECRET } });
      const step = (authProvisionId: string) => ({
        name: "call",
        code: ACME_ACTION,
        props: { acme: { authProvisionId } },
      });
      const workflow = await sluice.client.data<{ id: string }>("POST", "/v1/workflows", {
        body: { name: "acme-flow", steps: [step(connected.id)] },
      });
      const started = await sluice.client.data<{ id: string }>("POST", `/v1/workflows/${workflow.id}/runs`, {
        body: { event: {} },
      });
      const run = await waitUntil(
        "the workflow run to finish",
        async () => {
          const current = await sluice.client.data<{ status: string; steps: { return_value: unknown }[] }>(
            "GET",
            `/v1/workflow_runs/${started.id}`,
          );
          return current.status === "queued" || current.status === "running" ? undefined : current;
        },
        30_000,
      );
      expect(run.status, JSON.stringify(run)).toBe("success");
      expect(run.steps[0]?.return_value).toEqual({ keyLength: SECRET.length });
      expect(JSON.stringify(run)).not.toContain(SECRET);

      const unknownId = "apn_00000000000000000000000000";
      const refused = await failure(
        sluice.client.data("POST", "/v1/workflows", {
          body: { name: "unknown-flow", steps: [step(unknownId)] },
        }),
      );
      expect(refused.status).toBe(404);
      expect(refused.message).toContain(unknownId);
      const workflows = await sluice.client.listWorkflows({ limit: 100 });
      expect(workflows.data.map((listed) => listed.name)).not.toContain("unknown-flow");
    });

    it("an unknown apn_ and another account's apn_ are both 404, on every route that takes one", async () => {
      const stranger = await sluice.newAccount("stranger");
      const theirs = await appsApi(stranger.client).createConnectedAccount({
        app: "acme",
        fields: { anything: "goes", n: 1, flag: true },
      });
      const unknownId = "apn_00000000000000000000000000";
      const sourcesBefore = (await sluice.client.listSources({ limit: 100 })).data.length;
      for (const id of [theirs.id, unknownId]) {
        const deploy = await failure(
          sluice.client.deploySource({
            component_code: ACME_SOURCE,
            configured_props: { acme: { authProvisionId: id } },
          }),
        );
        expect(deploy.status).toBe(404);
        expect(deploy.message).toContain(id);
        const action = await failure(
          sluice.client.runAction({
            component_code: ACME_ACTION,
            configured_props: { acme: { authProvisionId: id } },
          }),
        );
        expect(action.status).toBe(404);
        expect((await failure(api.getConnectedAccount(id))).status).toBe(404);
        expect((await failure(api.deleteConnectedAccount(id))).status).toBe(404);
      }
      // Nothing was deployed, and the stranger's account is intact.
      expect((await sluice.client.listSources({ limit: 100 })).data.length).toBe(sourcesBefore);
      expect((await appsApi(stranger.client).getConnectedAccount(theirs.id)).id).toBe(theirs.id);
    });

    it("an app nobody registered takes any scalar fields; an apn_ of another app is refused", async () => {
      expect((await api.getApp("mysql")).scope).toBe("implicit");
      const mysql = await api.createConnectedAccount({
        app: "mysql",
        fields: { host: "db", port: 3306, ssl: false },
      });
      expect(mysql.app).toBe("mysql");
      const nested = await failure(
        api.createConnectedAccount({ app: "mysql", fields: { host: { nested: true } } as never }),
      );
      expect(nested.code).toBe("invalid_fields");
      const wrongApp = await failure(
        sluice.client.deploySource({
          component_code: ACME_SOURCE,
          configured_props: { acme: { authProvisionId: mysql.id } },
        }),
      );
      expect(wrongApp.status).toBe(400);
      expect(wrongApp.message).toMatch(/is for app 'mysql'/);
    });

    it("deleting a connected account in use is refused naming the source, unless forced; then runs fail naming it", async () => {
      const connected = await api.createConnectedAccount({ app: "acme", fields: { api_key: SECRET } });
      const source = await sluice.client.deploySource({
        component_code: ACME_SOURCE,
        name: "uses apn",
        configured_props: { acme: { authProvisionId: connected.id } },
      });
      const refused = await failure(api.deleteConnectedAccount(connected.id));
      expect(refused.status).toBe(409);
      expect(refused.code).toBe("connected_account_in_use");
      expect(refused.message).toContain(source.id);
      expect((await api.deleteConnectedAccount(connected.id, true)).deleted).toBe(true);
      const run = await sluice.client.runSource(source.id);
      expect(run.ok).toBe(false);
      expect(run.failure?.message).toContain(connected.id);
      expect(run.failure?.message).toContain("'acme'");
    });

    it("server-wide apps are an admin's to register; an account's own registration takes precedence", async () => {
      const member = await sluice.newAccount("member");
      const memberApi = appsApi(member.client);
      const forbidden = await failure(
        memberApi.registerApp({
          slug: "shared",
          auth_type: "keys",
          fields: [{ name: "token" }],
          scope: "server",
        }),
      );
      expect(forbidden.status).toBe(403);
      await api.registerApp({
        slug: "shared",
        auth_type: "keys",
        fields: [{ name: "token" }],
        scope: "server",
      });
      expect(await memberApi.getApp("shared")).toMatchObject({
        scope: "server",
        fields: [{ name: "token" }],
      });
      await memberApi.registerApp({ slug: "shared", auth_type: "keys", fields: [{ name: "key" }] });
      expect(await memberApi.getApp("shared")).toMatchObject({ scope: "account", fields: [{ name: "key" }] });
      const bad = await failure(memberApi.createConnectedAccount({ app: "shared", fields: { token: "t" } }));
      expect(bad.message).toMatch(/no field 'token'/);
      const noneApp = await failure(api.registerApp({ slug: "Bad Slug", auth_type: "keys", fields: [] }));
      expect(noneApp.status).toBe(400);
    });
  });
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(
    `the server's log and a keys app's secret on ${dialect.name}`,
    () => {
      let database: TestDatabase;
      let server: ServerProcess;
      let client: SluiceClient;

      beforeAll(async () => {
        database = await dialect.create();
        const apiKey = `sk_test_${randomBytes(16).toString("hex")}`;
        const started = await startServerProcess(
          testEnvironment(database, { SLUICE_BOOTSTRAP_API_KEY: apiKey, SLUICE_LOG_LEVEL: "debug" }),
        );
        server = started.server;
        client = new SluiceClient({ baseUrl: started.url, apiKey });
      }, 60_000);
      afterAll(async () => {
        if (server) await stopServerProcess(server);
        await database?.cleanup();
      });

      it("connecting, refusing, deploying, running and printing the key leave no trace of it in the log", async () => {
        const api = appsApi(client);
        await api.registerApp({
          slug: "acme",
          auth_type: "keys",
          fields: [
            { name: "api_key", secret: true },
            { name: "region", optional: true },
          ],
        });
        const refused = await failure(
          api.createConnectedAccount({ app: "acme", fields: { api_key: SECRET, colour: SECRET } }),
        );
        expect(refused.status).toBe(400);
        const connected = await api.createConnectedAccount({ app: "acme", fields: { api_key: SECRET } });
        const source = await client.deploySource({
          component_code: ACME_SOURCE,
          configured_props: { acme: { authProvisionId: connected.id } },
        });
        await client.runSource(source.id);
        const run = await client.runAction({
          component_code: ACME_ACTION,
          configured_props: { acme: { authProvisionId: connected.id } },
        });
        expect(run.ok, JSON.stringify(run.failure)).toBe(true);
        await stopServerProcess(server);
        const log = server.stdout() + server.stderr();
        // The log did record this work (debug level, one line per request), only never the key.
        expect(log).toContain("/v1/connected_accounts");
        expect(log).toContain("/v1/actions/run");
        expect(log.includes(SECRET), "the key is in the server's log").toBe(false);
      }, 90_000);
    },
  );
}

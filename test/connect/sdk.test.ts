/**
 * Pipedream's own SDK, `@pipedream/sdk` from npm, against a real Sluice server: the only change is
 * `baseUrl`. Through the SDK's methods: components listed and read, remote options configured
 * (the apps fixture's `$auth`-driven options, and `@pipedream/mysql`'s table list from the local
 * MariaDB that SLUICE_TEST_MYSQL_URL names: see test/support/mariadb.ts), props reloaded, an
 * action run for end user A, a trigger deployed with a webhook_url whose deliveries verify with
 * `standardwebhooks`, A's accounts listed, and end user B kept out of A's trigger (404). Then
 * what the SDK meets on bad input.
 */
import { execFile } from "node:child_process";
import { randomBytes } from "node:crypto";
import path from "node:path";
import { promisify } from "node:util";
import { type Pipedream, PipedreamClient, PipedreamError } from "@pipedream/sdk";
import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundleComponentFile } from "../../src/cli/bundle-file.js";
import { type ConnectSetUp, connectRequest, setUpConnectProject } from "../support/connect-project.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { mariadb, mysqlClient } from "../support/mariadb.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

const run = promisify(execFile);
const MYSQL_PACKAGE = "@pipedream/mysql@2.5.0";

/** The SDK's error for a non-2xx answer, or a failure of the test when the call succeeded. */
async function sdkFailure(call: Promise<unknown>): Promise<PipedreamError> {
  try {
    await call;
  } catch (error) {
    if (error instanceof PipedreamError) return error;
    throw error;
  }
  throw new Error("the call succeeded");
}

/** A MariaDB schema of three tables and a user who sees only it (dropped afterwards). */
function mysqlFixture(url: URL) {
  const tag = randomBytes(4).toString("hex");
  const schema = `sluice_connect_${tag}`;
  const user = `sluice_c_${tag}`;
  const password = `pw-${randomBytes(12).toString("hex")}`;
  const tables = ["customers", "invoices", "orders"];
  const mysql = mysqlClient(url);
  const hosts = ["%", "localhost", "127.0.0.1"];
  return {
    tables,
    fields: {
      host: url.hostname,
      port: Number(url.port || 3306),
      username: user,
      password,
      database: schema,
    },
    create: () =>
      mysql(
        `create database ${schema};` +
          tables.map((table) => `create table ${schema}.${table} (id int);`).join("") +
          hosts
            .map(
              (host) =>
                `create user '${user}'@'${host}' identified by '${password}'; grant all on ${schema}.* to '${user}'@'${host}';`,
            )
            .join(""),
      ),
    drop: () =>
      mysql(
        `drop database if exists ${schema};` +
          hosts.map((host) => `drop user if exists '${user}'@'${host}';`).join(""),
      ).catch(() => {}),
  };
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(
    `@pipedream/sdk against Sluice on ${dialect.name}`,
    { timeout: 120_000 },
    () => {
      let database: TestDatabase;
      let sluice: TestServer;
      let connect: ConnectSetUp;
      let receiver: Recorder;
      let pd: PipedreamClient;
      const mysql = mariadb.url ? mysqlFixture(new URL(mariadb.url)) : undefined;
      /** End user A's connected vault account. */
      let vaultAccount: string;
      let triggerId: string;

      beforeAll(async () => {
        database = await dialect.create();
        sluice = await startTestServer(database, {
          env: {
            SLUICE_ALLOWED_CIDRS: "127.0.0.0/8",
            SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8",
            SLUICE_RETRY_SCHEDULE: "0,1,1",
            // Short-lived access tokens: the SDK fetches new ones as it goes, and one expires in the test.
            SLUICE_ACCESS_TOKEN_SECONDS: "3",
          },
        });
        receiver = await startRecorder();
        connect = await setUpConnectProject(sluice);
        if (mysql) {
          await mysql.create();
          const folder = tempDir();
          const { stdout } = await run(
            "npm",
            ["pack", MYSQL_PACKAGE, "--pack-destination", folder, "--silent"],
            {
              cwd: folder,
            },
          );
          await run("tar", ["xzf", path.join(folder, stdout.trim().split("\n").at(-1) ?? ""), "-C", folder]);
          const file = await bundleComponentFile(
            path.join(folder, "package", "sources", "new-column", "new-column.mjs"),
          );
          await connect.owner.client.publishComponent({ component_code: file.code, filename: file.filename });
        }
        pd = new PipedreamClient({
          baseUrl: sluice.url,
          projectId: connect.project.id,
          clientId: connect.clientId,
          clientSecret: connect.clientSecret,
          projectEnvironment: "development",
        });
      }, 240_000);
      afterAll(async () => {
        await mysql?.drop();
        await receiver?.close();
        await sluice?.close();
        await database?.cleanup();
      });

      it("1. lists the project's components and retrieves one with Pipedream's camelCase props", async () => {
        const keys: string[] = [];
        for await (const component of await pd.components.list({ limit: 2 })) keys.push(component.key);
        expect(keys).toEqual(
          expect.arrayContaining([
            "connect_vault-greet",
            "connect_vault-new-message",
            "connect_vault-new-row",
          ]),
        );
        const actions: string[] = [];
        for await (const action of await pd.actions.list()) actions.push(action.key);
        expect(actions).toEqual(["connect_vault-greet"]);
        const triggers = await pd.triggers.list({ q: "message" });
        expect(triggers.data.map((trigger) => trigger.key)).toEqual(["connect_vault-new-message"]);

        const { data } = await pd.components.retrieve("connect_vault-new-message");
        expect(data).toMatchObject({
          key: "connect_vault-new-message",
          version: "0.1.0",
          componentType: "trigger",
        });
        const room = data.configurableProps.find((prop) => prop.name === "room");
        expect(room).toMatchObject({ type: "string", label: "Room", remoteOptions: true, withLabel: true });
        const greet = (await pd.actions.retrieve("connect_vault-greet")).data;
        expect(greet.configurableProps.find((prop) => prop.name === "style")).toMatchObject({
          remoteOptions: true,
          useQuery: true,
        });
        expect(greet.configurableProps.find((prop) => prop.name === "vault")).toMatchObject({
          type: "app",
          app: "connect_vault",
        });
      });

      it("2. configures a prop with remote options from the end user's connected account", async () => {
        const token = await pd.tokens.create({ externalUserId: "user-a" });
        expect(token.token).toMatch(/^ctok_/);
        expect(token.connectLinkUrl).toContain(`${sluice.url}/_static/connect.html?token=${token.token}`);
        const account = await pd.accounts.create({
          externalUserId: "user-a",
          appSlug: "connect_vault",
          cfmapJson: JSON.stringify({ user: "alice", rooms: "general,random" }),
          connectToken: token.token,
        });
        expect(account.id).toMatch(/^apn_/);
        vaultAccount = account.id;

        const rooms = await pd.components.configureProp({
          id: "connect_vault-new-message",
          externalUserId: "user-a",
          propName: "room",
          configuredProps: { vault: { authProvisionId: vaultAccount } },
        });
        expect(rooms.errors).toEqual([]);
        expect(rooms.options).toEqual([
          { label: "#general", value: "general" },
          { label: "#random", value: "random" },
        ]);
        const styles = await pd.actions.configureProp({
          id: "connect_vault-greet",
          externalUserId: "user-a",
          propName: "style",
          query: "lo",
        });
        expect(styles.stringOptions).toEqual(["loud"]);
      });

      it("2b. configures @pipedream/mysql's table prop from the end user's MariaDB account", async (context) => {
        const fixture = mysql ?? mariadb.missing(context);
        const token = await pd.tokens.create({ externalUserId: "user-a" });
        const database = await pd.accounts.create({
          externalUserId: "user-a",
          appSlug: "mysql",
          cfmapJson: JSON.stringify(fixture.fields),
          connectToken: token.token,
        });
        const tables = await pd.components.configureProp({
          id: "mysql-new-column",
          externalUserId: "user-a",
          propName: "table",
          configuredProps: { mysql: { authProvisionId: database.id } },
        });
        expect(tables.errors).toEqual([]);
        expect(tables.stringOptions?.sort()).toEqual(fixture.tables);
      });

      it("3. reloads props: additionalProps answers the new props and a dyp_ id", async () => {
        const reloaded = await pd.triggers.reloadProps({
          id: "connect_vault-new-row",
          externalUserId: "user-a",
          configuredProps: { headerRow: "name,email" },
        });
        expect(reloaded.errors).toEqual([]);
        expect(reloaded.dynamicProps?.id).toMatch(/^dyp_/);
        const names = reloaded.dynamicProps?.configurableProps?.map((prop) => prop.name);
        expect(names).toEqual(expect.arrayContaining(["headerRow", "name", "email"]));
        expect(
          reloaded.dynamicProps?.configurableProps?.find((prop) => prop.name === "headerRow"),
        ).toMatchObject({
          reloadProps: true,
        });
      });

      it("4. runs an action for end user A: ret, exports and the console in os", async () => {
        const result = await pd.actions.run({
          id: "connect_vault-greet",
          externalUserId: "user-a",
          configuredProps: { vault: { authProvisionId: vaultAccount }, name: "Ada", style: "loud" },
        });
        // The run saw the account's $auth; a credential in its answer is masked, as on /v1/actions/run.
        expect(result.ret).toEqual({ text: "Hello, Ada!", vaultUser: "********" });
        expect(result.exports).toEqual({ $summary: "Greeted Ada", greeting_length: 3 });
        expect(result.os).toEqual(
          expect.arrayContaining([expect.objectContaining({ k: "console.log", msg: "greeting Ada" })]),
        );
      });

      it("5. deploys a trigger with a webhook_url; its events arrive signed (standardwebhooks)", async () => {
        const deployed = await pd.triggers.deploy({
          id: "connect_vault-new-message",
          externalUserId: "user-a",
          configuredProps: { vault: { authProvisionId: vaultAccount }, room: "general" },
          webhookUrl: `${receiver.url}/hooks/acme`,
        });
        const trigger = deployed.data as Pipedream.DeployedComponent & { endpoint_url?: string };
        expect(trigger.id).toMatch(/^dc_/);
        expect(trigger.active).toBe(true);
        triggerId = trigger.id;
        const signingKey = trigger.webhookSigningKey;
        expect(signingKey).toMatch(/^whsec_/);
        expect(trigger.configuredProps).toMatchObject({
          vault: { authProvisionId: vaultAccount },
          room: "general",
        });
        const endpoint = trigger.endpoint_url;
        expect(endpoint).toMatch(/\/e\//);

        const posted = await fetch(endpoint ?? "", {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ text: "hello from the product" }),
        });
        expect(posted.status).toBe(200);
        const requests = await receiver.waitFor(2, 30_000);
        const verifier = new Webhook(signingKey ?? "");
        const payloads = requests.map((request) => {
          const headers = Object.fromEntries(
            Object.entries(request.headers).map(([name, value]) => [name, String(value)]),
          );
          return verifier.verify(request.body, headers);
        });
        expect(payloads).toHaveLength(2);
        expect(payloads).toEqual(
          expect.arrayContaining([
            { kind: "deployed", room: "general" },
            { kind: "message", room: "general", text: "hello from the product" },
          ]),
        );
        // Signed with that key and no other.
        const first = requests[0];
        const otherKey = new Webhook(`whsec_${randomBytes(32).toString("base64")}`);
        expect(() =>
          otherKey.verify(
            first?.body ?? "",
            Object.fromEntries(
              Object.entries(first?.headers ?? {}).map(([name, value]) => [name, String(value)]),
            ),
          ),
        ).toThrow();

        const events = await pd.deployedTriggers.listEvents(triggerId, { externalUserId: "user-a" });
        expect(events.data.map((event) => event.e)).toEqual([
          { kind: "message", room: "general", text: "hello from the product" },
          { kind: "deployed", room: "general" },
        ]);
        const webhooks = await pd.deployedTriggers.listWebhooks(triggerId, { externalUserId: "user-a" });
        expect(webhooks.webhookUrls).toEqual([`${receiver.url}/hooks/acme`]);
        const again = await pd.deployedTriggers.retrieve(triggerId, { externalUserId: "user-a" });
        expect(again.data).toMatchObject({ id: triggerId, active: true });
        expect((again.data as { webhookSigningKey?: string }).webhookSigningKey).toBeUndefined();
      });

      it("6. lists A's accounts (credentials only when asked)", async () => {
        const page = await pd.accounts.list({ externalUserId: "user-a", app: "connect_vault" });
        expect(page.data).toHaveLength(1);
        expect(page.data[0]).toMatchObject({
          id: vaultAccount,
          externalId: "user-a",
          healthy: true,
          app: { nameSlug: "connect_vault", name: "Connect Vault", authType: "keys" },
        });
        expect(page.data[0]?.credentials).toBeUndefined();
        const withCredentials = await pd.accounts.retrieve(vaultAccount, { includeCredentials: true });
        expect(withCredentials.credentials).toEqual({ user: "alice", rooms: "general,random" });
        // The production environment has end users of its own: A is not one of them.
        const production = new PipedreamClient({
          baseUrl: sluice.url,
          projectId: connect.project.id,
          clientId: connect.clientId,
          clientSecret: connect.clientSecret,
          projectEnvironment: "production",
        });
        expect((await production.accounts.list({ externalUserId: "user-a" })).data).toEqual([]);
        expect((await sdkFailure(production.accounts.retrieve(vaultAccount))).statusCode).toBe(404);
      });

      it("7. end user B gets 404 for A's trigger and A's account", async () => {
        await pd.tokens.create({ externalUserId: "user-b" });
        const asB = await sdkFailure(pd.deployedTriggers.retrieve(triggerId, { externalUserId: "user-b" }));
        expect(asB.statusCode).toBe(404);
        expect(
          (await sdkFailure(pd.deployedTriggers.listEvents(triggerId, { externalUserId: "user-b" })))
            .statusCode,
        ).toBe(404);
        expect(
          (await sdkFailure(pd.deployedTriggers.delete(triggerId, { externalUserId: "user-b" }))).statusCode,
        ).toBe(404);
        const run = await sdkFailure(
          pd.actions.run({
            id: "connect_vault-greet",
            externalUserId: "user-b",
            configuredProps: { vault: { authProvisionId: vaultAccount }, name: "Mallory", style: "plain" },
          }),
        );
        expect(run.statusCode, JSON.stringify(run.body)).toBe(404);
        expect((await pd.accounts.list({ externalUserId: "user-b" })).data).toEqual([]);
        // A still has it; deleting it as A removes it and its webhook.
        await pd.deployedTriggers.delete(triggerId, { externalUserId: "user-a" });
        expect(
          (await sdkFailure(pd.deployedTriggers.retrieve(triggerId, { externalUserId: "user-a" })))
            .statusCode,
        ).toBe(404);
      });

      it("bad input: a wrong client secret or an expired access token is 401", async () => {
        const wrong = new PipedreamClient({
          baseUrl: sluice.url,
          projectId: connect.project.id,
          clientId: connect.clientId,
          clientSecret: "scs_wrong",
          projectEnvironment: "development",
        });
        const refused = await sdkFailure(wrong.components.list());
        expect(refused.statusCode).toBe(401);
        expect(JSON.stringify(refused.body)).toContain("invalid_client");

        const issued = await connectRequest(`${sluice.url}/v1/oauth/token`, {
          method: "POST",
          body: {
            grant_type: "client_credentials",
            client_id: connect.clientId,
            client_secret: connect.clientSecret,
          },
        });
        const token = (issued.body as { access_token: string }).access_token;
        const stale = new PipedreamClient({
          baseUrl: sluice.url,
          projectId: connect.project.id,
          projectEnvironment: "development",
          tokenProvider: { getToken: async () => token },
        });
        expect((await stale.components.list()).data.length).toBeGreaterThan(0);
        // The token lives three seconds (SLUICE_ACCESS_TOKEN_SECONDS): asked until it is refused.
        await expect
          .poll(async () => (await sdkFailure(stale.components.list())).statusCode, {
            timeout: 15_000,
            interval: 250,
          })
          .toBe(401);
      });

      it("bad input: an unknown project or another account's project is 404", async () => {
        const other = await setUpConnectProject(sluice, "competitor");
        for (const projectId of ["proj_01jabcdefghjkmnpqrstvwxyz0", other.project.id]) {
          const client = new PipedreamClient({
            baseUrl: sluice.url,
            projectId,
            clientId: connect.clientId,
            clientSecret: connect.clientSecret,
            projectEnvironment: "development",
          });
          expect((await sdkFailure(client.components.list())).statusCode).toBe(404);
          expect((await sdkFailure(client.tokens.create({ externalUserId: "user-a" }))).statusCode).toBe(404);
        }
      });
    },
  );
}

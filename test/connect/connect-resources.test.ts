/**
 * What the Connect API does with an end user's resources, over raw HTTP on every dialect (the
 * data model and its errors are connect-rest.test.ts): deployed triggers listed per end user and
 * paged, updated with `PUT` (name, active, configured props that the next run uses), connected
 * accounts deleted, and the project's apps listed, filtered, paged and read by slug.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appsApi } from "../../src/client/apps-client.js";
import { type ConnectSetUp, connectRequest, setUpConnectProject } from "../support/connect-project.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { waitUntil } from "../support/wait.js";

type Json = Record<string, unknown>;
interface Trigger {
  id: string;
  name: string;
  active: boolean;
  endpoint_url: string;
  configured_props: Json;
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(
    `the Connect API's triggers, accounts and apps on ${dialect.name}`,
    { timeout: 60_000 },
    () => {
      let database: TestDatabase;
      let sluice: TestServer;
      let connect: ConnectSetUp;
      const url = (path: string) => `${sluice.url}${path}`;
      /** A server-side call (the owner's API key) in an environment, development by default. */
      const server = (path: string, init: Parameters<typeof connectRequest>[1] = {}) =>
        connectRequest(url(`/v1/connect/${connect.project.id}${path}`), {
          token: connect.owner.apiKey,
          environment: "development",
          ...init,
        });
      const deploy = async (externalUserId: string) => {
        const answer = await server("/triggers/deploy", {
          method: "POST",
          body: { id: "connect_vault-new-row", external_user_id: externalUserId },
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        return (answer.body as { data: Trigger }).data;
      };
      const listTriggers = async (query: string) => {
        const answer = await server(`/deployed-triggers?${query}`);
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        return answer.body as { data: Trigger[]; page_info: Json };
      };
      /** Connects a vault account for the end user with a fresh connect token, as the link page does. */
      const connectVault = async (externalUserId: string) => {
        const token = await freshToken(externalUserId);
        const answer = await connectRequest(url("/v1/connect/accounts"), {
          method: "POST",
          token,
          body: {
            app_slug: "connect_vault",
            cfmap_json: JSON.stringify({ user: externalUserId, rooms: "r" }),
          },
        });
        expect(answer.status, JSON.stringify(answer.body)).toBe(200);
        return (answer.body as { id: string }).id;
      };
      const freshToken = async (externalUserId: string) =>
        (
          (await server("/tokens", { method: "POST", body: { external_user_id: externalUserId } })).body as {
            token: string;
          }
        ).token;

      beforeAll(async () => {
        database = await dialect.create();
        sluice = await startTestServer(database, { env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8" } });
        connect = await setUpConnectProject(sluice);
        await appsApi(connect.owner.client).registerApp({
          slug: "aardvark_api",
          name: "Aardvark API",
          auth_type: "keys",
          fields: [{ name: "api_key", secret: true }],
        });
      });
      afterAll(async () => {
        await sluice?.close();
        await database?.cleanup();
      });

      it("deployed triggers are listed per end user, newest first, and paged with cursors", async () => {
        const first = await deploy("gina");
        const second = await deploy("gina");
        const hanks = await deploy("hank");

        const page = await listTriggers("external_user_id=gina&limit=1");
        expect(page.data.map((trigger) => trigger.id)).toEqual([second.id]);
        expect(page.page_info).toMatchObject({ total_count: 2, count: 1 });
        const next = await listTriggers(`external_user_id=gina&limit=1&after=${page.page_info.end_cursor}`);
        expect(next.data.map((trigger) => trigger.id)).toEqual([first.id]);
        const back = await listTriggers(
          `external_user_id=gina&limit=1&before=${next.page_info.start_cursor}`,
        );
        expect(back.data.map((trigger) => trigger.id)).toEqual([second.id]);
        expect((await listTriggers("external_user_id=gina")).data.map((trigger) => trigger.id)).toEqual([
          second.id,
          first.id,
        ]);
        expect((await listTriggers("external_user_id=hank")).data.map((trigger) => trigger.id)).toEqual([
          hanks.id,
        ]);
        expect((await listTriggers("external_user_id=nobody")).data).toEqual([]);
        // Production's gina is someone else.
        const production = await server("/deployed-triggers?external_user_id=gina", {
          environment: "production",
        });
        expect((production.body as { data: Trigger[] }).data).toEqual([]);
        // A connect token lists its own end user's.
        const token = await freshToken("hank");
        const own = await connectRequest(url("/v1/connect/deployed-triggers"), { token });
        expect((own.body as { data: Trigger[] }).data.map((trigger) => trigger.id)).toEqual([hanks.id]);
      });

      it("PUT renames, deactivates and reconfigures a deployed trigger; the next run uses the new props", async () => {
        const trigger = await deploy("ida");
        const put = (body: Json) =>
          server(`/deployed-triggers/${trigger.id}`, {
            method: "PUT",
            body: { external_user_id: "ida", ...body },
          });

        const renamed = await put({ name: "renamed" });
        expect(renamed.status).toBe(200);
        expect(renamed.body).toMatchObject({ data: { id: trigger.id, name: "renamed", active: true } });
        const paused = await put({ active: false });
        expect(paused.body).toMatchObject({ data: { active: false } });
        const read = await server(`/deployed-triggers/${trigger.id}?external_user_id=ida`);
        expect(read.body).toMatchObject({ data: { name: "renamed", active: false } });
        expect((await put({ active: true })).body).toMatchObject({ data: { active: true } });

        const reconfigured = await put({ configured_props: { headerRow: "col" } });
        expect(reconfigured.status, JSON.stringify(reconfigured.body)).toBe(200);
        expect((reconfigured.body as { data: Trigger }).data.configured_props).toMatchObject({
          headerRow: "col",
        });
        expect((await fetch(trigger.endpoint_url, { method: "POST", body: "{}" })).status).toBeLessThan(300);
        const events = await waitUntil(
          "the trigger's event",
          async () => {
            const listed = (
              (await server(`/deployed-triggers/${trigger.id}/events?external_user_id=ida`)).body as {
                data: { e: Json }[];
              }
            ).data;
            return listed.length > 0 ? listed : undefined;
          },
          5000,
          100,
        );
        expect(events.map((event) => event.e)).toEqual([{ headerRow: "col" }]);

        // Another end user's trigger, an unknown one and a bad value.
        const asHank = await server(`/deployed-triggers/${trigger.id}`, {
          method: "PUT",
          body: { external_user_id: "hank", name: "mine now" },
        });
        expect(asHank.status).toBe(404);
        expect((await put({ active: "maybe" })).status).toBe(400);
        const unknown = await server("/deployed-triggers/dc_nope", {
          method: "PUT",
          body: { external_user_id: "ida", name: "x" },
        });
        expect(unknown.status).toBe(404);
        expect((await server(`/deployed-triggers/${trigger.id}?external_user_id=ida`)).body).toMatchObject({
          data: { name: "renamed" },
        });
      });

      it("DELETE removes a connected account; another end user's token, environment or a second delete is 404", async () => {
        const ivys = await connectVault("ivy");
        const ivysOther = await connectVault("ivy");
        const jacks = await connectVault("jack");

        const deleted = await server(`/accounts/${ivys}`, { method: "DELETE" });
        expect(deleted.status).toBe(204);
        expect((await server(`/accounts/${ivys}`)).status).toBe(404);
        expect((await server(`/accounts/${ivys}`, { method: "DELETE" })).status).toBe(404);
        const listed = (await server("/accounts?external_user_id=ivy")).body as { data: Json[] };
        expect(listed.data.map((account) => account.id)).toEqual([ivysOther]);
        expect(
          (await server(`/accounts/${ivysOther}`, { method: "DELETE", environment: "production" })).status,
        ).toBe(404);

        // Jack's connect token deletes Jack's account only.
        const token = await freshToken("jack");
        const asJack = (id: string) =>
          connectRequest(url(`/v1/connect/accounts/${id}`), { method: "DELETE", token });
        expect((await asJack(ivysOther)).status).toBe(404);
        expect((await asJack(jacks)).status).toBe(204);
        expect(((await server("/accounts?external_user_id=jack")).body as { data: Json[] }).data).toEqual([]);
        expect((await server(`/accounts/${ivysOther}`)).status).toBe(200);
      });

      it("apps: the registered and used apps, filtered and paged by slug; one read by slug, an unregistered slug is an open keys app", async () => {
        const list = async (query: string, token = connect.owner.apiKey) => {
          const answer = await connectRequest(url(`/v1/connect/apps?${query}`), { token });
          expect(answer.status, JSON.stringify(answer.body)).toBe(200);
          return answer.body as { data: Json[]; page_info: Json };
        };
        const slugs = (page: { data: Json[] }) => page.data.map((app) => app.name_slug);

        const all = await list("");
        expect(slugs(all)).toEqual(expect.arrayContaining(["aardvark_api", "connect_vault"]));
        const vault = all.data.find((app) => app.name_slug === "connect_vault");
        expect(vault).toMatchObject({ name: "Connect Vault", auth_type: "keys", categories: [] });
        expect(vault).not.toHaveProperty("id");
        expect(JSON.parse(String(vault?.custom_fields_json))).toEqual([
          expect.objectContaining({ name: "user", label: "User", secret: false }),
          expect.objectContaining({ name: "rooms", label: "Rooms", secret: true, type: "password" }),
        ]);
        expect(slugs(await list("q=vault"))).toEqual(["connect_vault"]);
        expect(slugs(await list("has_actions=true"))).toEqual(["connect_vault"]);
        expect(slugs(await list("has_components=true"))).not.toContain("aardvark_api");

        const first = await list("limit=1");
        expect(slugs(first)).toEqual(["aardvark_api"]);
        expect(first.page_info).toMatchObject({
          count: 1,
          start_cursor: "aardvark_api",
          end_cursor: "aardvark_api",
        });
        expect(Number(first.page_info.total_count)).toBe(all.data.length);
        expect(slugs(await list("limit=1&after=aardvark_api"))).toEqual(["connect_vault"]);
        expect(slugs(await list("limit=1&before=connect_vault"))).toEqual(["aardvark_api"]);
        expect(slugs(await list("sort_direction=desc&limit=1"))[0]).not.toBe("aardvark_api");
        // A connect token sees its project's apps; another account does not see this one's.
        expect(slugs(await list("q=aardvark", await freshToken("kim")))).toEqual(["aardvark_api"]);
        const stranger = await sluice.newAccount("stranger");
        expect(slugs(await list("q=aardvark", stranger.apiKey))).toEqual([]);

        const read = (slug: string, token = connect.owner.apiKey) =>
          connectRequest(url(`/v1/connect/apps/${slug}`), { token });
        expect((await read("aardvark_api")).body).toMatchObject({
          data: { name_slug: "aardvark_api", name: "Aardvark API", auth_type: "keys" },
        });
        expect((await read("nobody_registered")).body).toMatchObject({
          data: { name_slug: "nobody_registered", auth_type: "keys", custom_fields_json: "[]" },
        });
        expect((await read("aardvark_api", stranger.apiKey)).body).toMatchObject({
          data: { name_slug: "aardvark_api", custom_fields_json: "[]" },
        });
        expect((await read("Not%20A%20Slug")).status).toBe(400);
        expect((await read("aardvark_api", "sat_forged")).status).toBe(401);
      });
    },
  );
}

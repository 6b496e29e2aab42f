/**
 * Dynamic props over REST, in the real sandbox: async options with numeric and prevContext
 * paging and a query, propDefinition with inputValues and the app's `$auth`, additionalProps with
 * reloadProps (a `dyp_` id that deploy takes), options that read a `data_store` prop, and a
 * ConfigurationError shown as `configuration_error` with its message and no stack — SPEC.md's
 * sheet whose header row is missing, an options method, and a deploy hook.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appsApi } from "../../src/client/apps-client.js";
import { ApiError } from "../../src/client/client.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { rawRequest, startTestServer, type TestServer } from "../support/server.js";

const OPTIONS_SOURCE = `
const shop = {
  type: "app",
  app: "shop",
  propDefinitions: {
    region: {
      type: "string",
      label: "Region",
      async options({ country, page }) {
        return [country + "-north", country + "-south"].map((r) => ({ label: r + " via " + this.$auth.token.length, value: r }));
      },
    },
  },
};
export default {
  name: "options fixture",
  key: "options-fixture",
  props: {
    shop,
    country: { type: "string" },
    region: { propDefinition: [shop, "region", (c) => ({ country: c.country })] },
    paged: {
      type: "string",
      async options({ prevContext }) {
        const pages = { start: ["a1", "a2"], p2: ["b1", "b2"], p3: ["c1"] };
        const token = prevContext?.nextPageToken ?? "start";
        const next = { start: "p2", p2: "p3", p3: null }[token];
        console.log("page " + token);
        return { options: pages[token], context: { nextPageToken: next } };
      },
    },
    numbered: {
      type: "integer",
      async options({ page }) { return page < 2 ? [page * 10 + 1, page * 10 + 2] : []; },
    },
    fruit: {
      type: "string",
      useQuery: true,
      async options({ query }) {
        return ["apple", "apricot", "banana"].filter((f) => f.startsWith(query ?? "")).map((f) => ({ label: f.toUpperCase(), value: f }));
      },
    },
    plain: { type: "string", default: "dflt" },
  },
  async run() { this.$emit({ plain: this.plain, region: this.region }); },
};`;

/** SPEC.md's example: additionalProps builds a prop per column, and throws when the header row is missing. */
const SHEET_SOURCE = `
import { ConfigurationError } from "@pipedream/platform";
export default {
  name: "sheet fixture",
  key: "sheet-fixture",
  props: {
    headerRow: { type: "string", label: "Header row", optional: true, reloadProps: true },
  },
  async additionalProps(previousPropDefs) {
    if (!this.headerRow) throw new ConfigurationError("The sheet has no header row: add one in row 1");
    const props = {};
    for (const column of this.headerRow.split(",")) props[column] = { type: "string", label: column.toUpperCase() };
    return props;
  },
  async run() {
    const row = {};
    for (const column of this.headerRow.split(",")) row[column] = this[column];
    this.$emit(row);
  },
};`;

/** Options read from a data store prop, as run would; a ConfigurationError when nothing is saved. */
const STORE_OPTIONS_SOURCE = `
import { ConfigurationError } from "@pipedream/platform";
export default {
  name: "store options fixture",
  props: {
    store: { type: "data_store" },
    saved: {
      type: "string",
      async options() {
        const choices = await this.store.get("choices");
        if (!choices) throw new ConfigurationError("No choices saved yet: write the key 'choices' first");
        return choices;
      },
    },
  },
  async run() {},
};`;

const LOCKED_HOOK_SOURCE = `
import { ConfigurationError } from "@pipedream/platform";
export default {
  name: "locked hook fixture",
  hooks: { async deploy() { throw new ConfigurationError("The spreadsheet is locked: unlock it first"); } },
  async run() {},
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
  describe.skipIf(!isAvailable(dialect))(`dynamic props on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let api: ReturnType<typeof appsApi>;
    let optionsId: string;

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database);
      api = appsApi(sluice.client);
      optionsId = (await sluice.client.saveComponent({ component_code: OPTIONS_SOURCE })).id;
    }, 120_000);
    afterAll(async () => {
      await sluice?.close();
      await database?.cleanup();
    });

    it("pages async options with prevContext over 3 pages, and by page number", async () => {
      const seen: string[] = [];
      let context: unknown;
      for (let page = 0; page < 3; page++) {
        const answer = await api.configure({
          id: optionsId,
          prop_name: "paged",
          page,
          prev_context: context,
        });
        expect(answer.errors).toEqual([]);
        seen.push(...(answer.stringOptions ?? []));
        context = answer.context;
        expect(answer.observations.map((o) => (o as { msg: string }).msg)).toEqual([
          `page ${["start", "p2", "p3"][page]}`,
        ]);
      }
      expect(seen).toEqual(["a1", "a2", "b1", "b2", "c1"]);
      expect(context).toEqual({ nextPageToken: null });

      const first = await api.configure({ id: "options-fixture", prop_name: "numbered", page: 0 });
      const second = await api.configure({ id: "options-fixture", prop_name: "numbered", page: 1 });
      const third = await api.configure({ id: "options-fixture", prop_name: "numbered", page: 2 });
      expect([first.options, second.options, third.options]).toEqual([
        [
          { label: "1", value: 1 },
          { label: "2", value: 2 },
        ],
        [
          { label: "11", value: 11 },
          { label: "12", value: 12 },
        ],
        [],
      ]);
    });

    it("filters options by query (useQuery)", async () => {
      const answer = await api.configure({ id: optionsId, prop_name: "fruit", query: "ap" });
      expect(answer.options).toEqual([
        { label: "APPLE", value: "apple" },
        { label: "APRICOT", value: "apricot" },
      ]);
      expect(answer.stringOptions).toBeNull();
    });

    it("a propDefinition's options get its inputValues and run with the app's $auth", async () => {
      const connected = await api.createConnectedAccount({ app: "shop", fields: { token: "tok-12345" } });
      const answer = await api.configure({
        id: optionsId,
        prop_name: "region",
        configured_props: { shop: { authProvisionId: connected.id }, country: "fr" },
      });
      expect(answer.options).toEqual([
        { label: "fr-north via 9", value: "fr-north" },
        { label: "fr-south via 9", value: "fr-south" },
      ]);
    });

    it("refuses an options call on a prop without options, an unknown prop, and another account's component", async () => {
      const none = await failure(api.configure({ id: optionsId, prop_name: "country" }));
      expect(none.status).toBe(400);
      expect(none.code).toBe("no_options");
      const unknown = await failure(api.configure({ id: optionsId, prop_name: "nope" }));
      expect(unknown.status).toBe(400);
      expect(unknown.message).toContain("no prop 'nope'");
      const stranger = await sluice.newAccount("stranger");
      const theirs = await failure(appsApi(stranger.client).configure({ id: optionsId, prop_name: "paged" }));
      expect(theirs.status).toBe(404);
    });

    it("a default on a required prop is used when no value is given", async () => {
      const connected = await api.createConnectedAccount({ app: "shop", fields: { token: "tok" } });
      const source = await sluice.client.deploySource({
        component_id: optionsId,
        configured_props: {
          shop: { authProvisionId: connected.id },
          country: "de",
          region: "de-north",
          paged: "a1",
          numbered: 1,
          fruit: "apple",
        },
      });
      expect(source.configured_props.plain).toBe("dflt");
      await sluice.client.runSource(source.id);
      const events = await sluice.client.listEvents(source.id, { expand: "event" });
      expect(events.data[0]?.event).toEqual({ plain: "dflt", region: "de-north" });
    });

    it("additionalProps: a dyp_ id round-trips through deploy; a ConfigurationError is configuration_error", async () => {
      const sheet = await sluice.client.saveComponent({ component_code: SHEET_SOURCE });
      const headerRow = sheet.configurable_props.find((prop) => prop.name === "headerRow");
      expect(headerRow).toMatchObject({ reloadProps: true });
      // has_additional_props tells a form to ask for the full props, on every route that shows a component.
      expect(sheet.has_additional_props).toBe(true);
      expect((await sluice.client.getComponent(sheet.id)).has_additional_props).toBe(true);
      expect((await sluice.client.getComponent(optionsId)).has_additional_props).toBe(false);

      const missing = await failure(api.reloadProps({ id: sheet.id, configured_props: {} }));
      expect(missing.status).toBe(400);
      expect(missing.code).toBe("configuration_error");
      expect(missing.message).toBe("additionalProps: The sheet has no header row: add one in row 1");

      const reloaded = await api.reloadProps({ id: sheet.id, configured_props: { headerRow: "name,email" } });
      expect(reloaded.errors).toEqual([]);
      const dynamicProps = reloaded.dynamicProps;
      if (dynamicProps === null) throw new Error("additionalProps gave no props");
      expect(dynamicProps.id).toMatch(/^dyp_/);
      expect(dynamicProps.configurableProps.map((prop) => prop.name)).toEqual(["headerRow", "name", "email"]);
      expect(dynamicProps.configurableProps[1]).toMatchObject({ type: "string", label: "NAME" });

      // Without the dyp_ id, the additional props are unknown; with it, they are configured and used.
      const unknown = await failure(
        sluice.client.deploySource({
          component_id: sheet.id,
          configured_props: { headerRow: "name,email", name: "Ada", email: "ada@example.com" },
        }),
      );
      expect(unknown.message).toContain("prop 'name'");
      const source = await sluice.client.deploySource({
        component_id: sheet.id,
        dynamic_props_id: dynamicProps.id,
        configured_props: { headerRow: "name,email", name: "Ada", email: "ada@example.com" },
      } as never);
      expect(source.configured_props).toMatchObject({ name: "Ada", email: "ada@example.com" });
      const missingValue = await failure(
        sluice.client.deploySource({
          component_id: sheet.id,
          dynamic_props_id: dynamicProps.id,
          configured_props: { headerRow: "name,email", name: "Ada" },
        } as never),
      );
      expect(missingValue.message).toContain("prop 'email': a value is required");

      await sluice.client.runSource(source.id);
      const events = await sluice.client.listEvents(source.id, { expand: "event" });
      expect(events.data[0]?.event).toEqual({ name: "Ada", email: "ada@example.com" });
      // An update keeps the dynamic props; the source's own id configures options with its props.
      const updated = await sluice.client.updateSource(source.id, { configured_props: { email: "a@b.c" } });
      expect(updated.configured_props).toMatchObject({ name: "Ada", email: "a@b.c" });

      const unknownDyp = await failure(
        sluice.client.deploySource({
          component_id: sheet.id,
          dynamic_props_id: "dyp_00000000000000000000000000",
          configured_props: {},
        } as never),
      );
      expect(unknownDyp.status).toBe(404);
    });

    it("async options read a data_store prop, as run does", async () => {
      const component = await sluice.client.saveComponent({ component_code: STORE_OPTIONS_SOURCE });
      const created = await sluice.client.request<{ data: { id: string } }>("POST", "/v1/data_stores", {
        body: { name: "choices" },
      });
      const storeId = created.data.id;
      await sluice.client.request("PUT", `/v1/data_stores/${storeId}/records/choices`, {
        body: { value: ["red", { label: "Green", value: "green" }] },
      });
      const byId = await api.configure({
        id: component.id,
        prop_name: "saved",
        configured_props: { store: storeId },
      });
      expect(byId.errors).toEqual([]);
      expect(byId.options).toEqual([
        { label: "red", value: "red" },
        { label: "Green", value: "green" },
      ]);
      // By the store's name, as a deploy may give it.
      const byName = await api.configure({
        id: component.id,
        prop_name: "saved",
        configured_props: { store: "choices" },
      });
      expect(byName.options).toEqual(byId.options);
      // Another account's store is not reached.
      const stranger = await sluice.newAccount("stranger");
      const theirs = await failure(
        appsApi(stranger.client).configure({
          id: component.id,
          prop_name: "saved",
          configured_props: { store: storeId },
        }),
      );
      expect(theirs.status).toBe(404);
    });

    it("a ConfigurationError from options or a deploy hook is a 400 configuration_error with its message, no stack", async () => {
      const component = await sluice.client.saveComponent({ component_code: STORE_OPTIONS_SOURCE });
      const fromOptions = await rawRequest(`${sluice.url}/v1/components/configure`, {
        method: "POST",
        apiKey: sluice.apiKey,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: component.id, prop_name: "saved", configured_props: { store: "empty" } }),
      });
      expect(fromOptions.status).toBe(400);
      expect(fromOptions.body).toEqual({
        error: {
          code: "configuration_error",
          message: "prop 'saved': No choices saved yet: write the key 'choices' first",
        },
      });

      const before = await sluice.client.listSources({ limit: 100 });
      const fromHook = await rawRequest(`${sluice.url}/v1/sources`, {
        method: "POST",
        apiKey: sluice.apiKey,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ component_code: LOCKED_HOOK_SOURCE }),
      });
      expect(fromHook.status).toBe(400);
      expect(fromHook.body).toEqual({
        error: {
          code: "configuration_error",
          message: expect.stringContaining("the deploy hook: The spreadsheet is locked: unlock it first"),
        },
      });
      for (const response of [fromOptions, fromHook]) {
        expect(response.text).not.toMatch(/stack|\n\s+at |\.m?js:\d+/);
      }
      const after = await sluice.client.listSources({ limit: 100 });
      expect(after.data.length).toBe(before.data.length);
    });
  });
}

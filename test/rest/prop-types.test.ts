/**
 * Every prop type of Pipedream's component API is accepted: `sql`, `alert` (display only), `dir`,
 * `$.interface.apphook`, `$.discord.channel` and `[]`, and the `$.airtable.*` ids. Types whose
 * service exists only at Pipedream are described as declared and configured as their base type.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/client/client.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";

const EVERY_TYPE = `export default {
  name: "every type",
  props: {
    notice: { type: "alert", alertType: "warning", content: "Read this first" },
    query: { type: "sql", label: "Query" },
    files: { type: "dir", accessMode: "read-write", sync: true },
    hook: { type: "$.interface.apphook", appProp: "query", eventNames: ["created"] },
    channel: { type: "$.discord.channel" },
    channels: { type: "$.discord.channel[]", optional: true },
    base: { type: "$.airtable.baseId" },
    table: { type: "$.airtable.tableId", optional: true },
  },
  async run() {
    this.$emit({ query: this.query, channel: this.channel, channels: this.channels ?? null, base: this.base, notice: this.notice ?? null });
  },
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
  describe.skipIf(!isAvailable(dialect))(`Pipedream's other prop types on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database);
    });
    afterAll(async () => {
      await sluice?.close();
      await database?.cleanup();
    });

    it("saves, describes, configures and runs a component using each of them", async () => {
      const component = await sluice.client.saveComponent({ component_code: EVERY_TYPE });
      const byName = Object.fromEntries(component.configurable_props.map((prop) => [prop.name, prop]));
      expect(byName.notice).toMatchObject({
        type: "alert",
        alertType: "warning",
        content: "Read this first",
      });
      expect(byName.hook).toMatchObject({
        type: "$.interface.apphook",
        appProp: "query",
        eventNames: ["created"],
      });
      expect(byName.channel?.type).toBe("$.discord.channel");

      const source = await sluice.client.deploySource({
        component_id: component.id,
        configured_props: {
          query: { query: "select 1 where a = ?", params: [1] },
          channel: "123456",
          channels: '["1","2"]',
          base: "appXYZ",
        },
      });
      await sluice.client.runSource(source.id);
      const events = await sluice.client.listEvents(source.id, { expand: "event" });
      expect(events.data[0]?.event).toEqual({
        query: { query: "select 1 where a = ?", params: [1] },
        channel: "123456",
        channels: ["1", "2"],
        base: "appXYZ",
        notice: null,
      });
    });

    it("checks values against the base type, and keeps source-only types out of actions", async () => {
      const component = await sluice.client.saveComponent({ component_code: EVERY_TYPE });
      const wrong = await failure(
        sluice.client.deploySource({
          component_id: component.id,
          configured_props: { query: "select 1", channel: 5, base: "app" },
        }),
      );
      expect(wrong.message).toContain("prop 'channel': the value must be a string");
      const badSql = await failure(
        sluice.client.deploySource({
          component_id: component.id,
          configured_props: { query: { q: 1 }, channel: "1", base: "app" },
        }),
      );
      expect(badSql.message).toContain("prop 'query'");
      const action = await failure(
        sluice.client.saveComponent({
          component_code: `export default { name: "a", type: "action", props: { h: { type: "$.interface.apphook" } }, async run() {} };`,
        }),
      );
      expect(action.message).toContain("allowed in sources only");
    });
  });
}

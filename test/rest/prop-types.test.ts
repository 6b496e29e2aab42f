/**
 * Every prop type of Pipedream's component API is accepted: `sql`, `alert` (display only), `dir`,
 * `$.interface.apphook`, `$.discord.channel` and `[]`, and the `$.airtable.*` ids. Types whose
 * service exists only at Pipedream are described as declared and configured as their base type.
 * `http_request` is a configured request the component sends with `execute()`, through the
 * sandbox's egress guard: by default a loopback address is refused with the policy's reason.
 * Traffic goes to loopback (127.0.0.1) only.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError } from "../../src/client/client.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
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

/** An action sending its http_request prop (Pipedream's helper_functions "Send Webhook" is this). */
const SEND_REQUEST = `export default {
  name: "send request", key: "send-request", version: "0.0.1", type: "action",
  props: { httpRequest: { type: "http_request", label: "HTTP Request Configuration", default: { method: "POST" } } },
  async run() {
    const { execute, ...config } = this.httpRequest;
    return { config, response: await this.httpRequest.execute() };
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
    let receiver: Recorder;
    beforeAll(async () => {
      database = await dialect.create();
      receiver = await startRecorder(() => ({
        status: 201,
        body: JSON.stringify({ received: true }),
        headers: { "content-type": "application/json" },
      }));
      sluice = await startTestServer(database, { env: { SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8" } });
    });
    afterAll(async () => {
      await sluice?.close();
      await receiver?.close();
      await database?.cleanup();
    });

    it("an http_request prop is checked and normalized at deploy, and execute() sends it", async () => {
      const run = await sluice.client.runAction({
        component_code: SEND_REQUEST,
        configured_props: {
          httpRequest: {
            url: `${receiver.url}/hooks/in?fixed=1`,
            method: "put",
            params: { page: "2" },
            headers: [
              { name: "x-test", value: "yes" },
              { name: "x-off", value: "no", disabled: true },
            ],
            body: { hello: "world" },
            auth: { type: "bearer", token: "t0k3n" },
          },
        },
      });
      expect(run.ok, JSON.stringify(run.failure)).toBe(true);
      expect(run.return_value).toEqual({
        config: {
          url: `${receiver.url}/hooks/in?fixed=1`,
          method: "PUT",
          params: [{ name: "page", value: "2" }],
          headers: [{ name: "x-test", value: "yes" }],
          body: { type: "raw", contentType: "application/json", raw: '{"hello":"world"}' },
          auth: { type: "bearer", token: "t0k3n" },
        },
        response: { received: true },
      });
      const [request] = receiver.requests.slice(-1);
      expect(request).toMatchObject({
        method: "PUT",
        url: "/hooks/in?fixed=1&page=2",
        body: '{"hello":"world"}',
      });
      expect(request?.headers).toMatchObject({
        "x-test": "yes",
        authorization: "Bearer t0k3n",
        "content-type": "application/json",
      });
      expect(request?.headers["x-off"]).toBeUndefined();

      // The default ({method: "POST"}, no URL) is used when no value is given: execute() says what is missing.
      const noUrl = await sluice.client.runAction({ component_code: SEND_REQUEST });
      expect(noUrl.ok).toBe(false);
      expect(noUrl.failure?.message).toContain("no url is configured");

      const badMethod = await failure(
        sluice.client.runAction({
          component_code: SEND_REQUEST,
          configured_props: { httpRequest: { url: receiver.url, method: "FETCH" } },
        }),
      );
      expect(badMethod).toMatchObject({ status: 400, code: "invalid_prop" });
      expect(badMethod.message).toContain("prop 'httpRequest': method must be one of");
      const badUrl = await failure(
        sluice.client.runAction({
          component_code: SEND_REQUEST,
          configured_props: { httpRequest: { url: "ftp://example.com/x" } },
        }),
      );
      expect(badUrl.message).toContain("url must be an http or https URL");
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

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`http_request and the network policy on ${dialect.name}`, () => {
    let database: TestDatabase;
    let closed: TestServer;
    let receiver: Recorder;
    beforeAll(async () => {
      database = await dialect.create();
      receiver = await startRecorder(() => ({ status: 200, body: "{}" }));
      // No SLUICE_COMPONENT_ALLOWED_CIDRS: loopback is refused to component code, as by default.
      closed = await startTestServer(database);
    });
    afterAll(async () => {
      await closed?.close();
      await receiver?.close();
      await database?.cleanup();
    });

    it("execute() to a refused address fails with the network policy's reason, and nothing is sent", async () => {
      const port = Number(new URL(receiver.url).port);
      const run = await closed.client.runAction({
        component_code: SEND_REQUEST,
        configured_props: { httpRequest: { url: `http://127.0.0.1:${port}/hooks/in`, method: "POST" } },
      });
      expect(run.ok).toBe(false);
      expect(run.failure?.message).toContain(
        `http_request: POST http://127.0.0.1:${port} failed: connection to 127.0.0.1:${port} refused by Sluice's network policy: 127.0.0.1 is a loopback address (an operator may allow it with SLUICE_COMPONENT_ALLOWED_CIDRS)`,
      );
      expect(receiver.requests).toHaveLength(0);
    });
  });
}

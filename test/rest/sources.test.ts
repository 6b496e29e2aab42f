/** Saved components and deployed sources over REST, with components running in the real sandbox. */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { startTestServer, type TestServer } from "../support/server.js";

/** A source whose hooks and run report to a recorder URL, labelled with a version. */
function recordingSource(version: string): string {
  return `
    export default {
      name: "Recorder",
      key: "recorder",
      version: "${version}",
      props: { recorder: { type: "string" }, label: { type: "string", optional: true, default: "x" } },
      methods: {
        async report(step) { await fetch(this.recorder + "/" + "${version}" + ":" + step); },
      },
      hooks: {
        async deploy() { await this.report("deploy"); },
        async activate() { await this.report("activate"); this.$emit({ hook: "activate" }); },
        async deactivate() { await this.report("deactivate"); },
      },
      async run() { await this.report("run"); this.$emit({ label: this.label }); },
    };`;
}

const SECRET_VALUE = "s3cr3t-value-that-must-never-leak-0042";

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`sources API on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let recorder: Recorder;
    const steps = () => recorder.requests.map((request) => request.url.slice(1));

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database, {
        env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8", SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8" },
      });
      recorder = await startRecorder();
    });
    afterAll(async () => {
      await sluice?.close();
      await recorder?.close();
      await database?.cleanup();
    });

    it("saves a component: sc_ id, code hash, configurable props; the same code saves to the same id", async () => {
      const code = recordingSource("1");
      const saved = await sluice.client.saveComponent({ component_code: code });
      expect(saved.id).toMatch(/^sc_/);
      expect(saved.code_hash).toMatch(/^[0-9a-f]{64}$/);
      expect(saved).toMatchObject({ name: "Recorder", key: "recorder", version: "1", type: "source" });
      expect(saved.configurable_props.map((prop) => prop.name)).toEqual(["recorder", "label"]);
      expect((await sluice.client.saveComponent({ component_code: code })).id).toBe(saved.id);
      expect((await sluice.client.getComponent("recorder")).id).toBe(saved.id);
      expect((await sluice.client.getComponent(saved.id)).code).toBe(code);
      const listed = await sluice.client.request<{
        data: Record<string, unknown>[];
        page_info: { total_count: number };
      }>("GET", "/v1/users/me/components", { query: { limit: 100 } });
      expect(listed.data.map((component) => component.id)).toContain(saved.id);
      expect(listed.data.every((component) => !("code" in component))).toBe(true);
      const other = await sluice.newAccount("no components");
      expect(
        (await other.client.request<{ data: unknown[] }>("GET", "/v1/users/me/components")).data,
      ).toEqual([]);
    });

    it("runs deploy then activate on deploy; deactivate, replace, activate on update; deactivate on delete", async () => {
      recorder.requests.length = 0;
      const source = await sluice.client.deploySource({
        component_code: recordingSource("1"),
        configured_props: { recorder: recorder.url },
      });
      expect(source.id).toMatch(/^dc_/);
      expect(steps()).toEqual(["1:deploy", "1:activate"]);

      const updated = await sluice.client.updateSource(source.id, {
        component_code: recordingSource("2"),
        configured_props: { label: "new" },
      });
      expect(updated.id).toBe(source.id);
      expect(updated.configured_props).toMatchObject({ recorder: recorder.url, label: "new" });
      expect(steps()).toEqual(["1:deploy", "1:activate", "1:deactivate", "2:activate"]);

      await sluice.client.updateSource(source.id, { active: false });
      expect(steps().at(-1)).toBe("2:deactivate");
      expect((await sluice.client.getSource(source.id)).active).toBe(false);
      await sluice.client.updateSource(source.id, { active: true });
      expect(steps().at(-1)).toBe("2:activate");

      await sluice.client.deleteSource(source.id);
      expect(steps().at(-1)).toBe("2:deactivate");
      await expect(sluice.client.getSource(source.id)).rejects.toMatchObject({ status: 404 });
    });

    it("keeps what hooks emit as the source's events", async () => {
      const source = await sluice.client.deploySource({
        component_code: recordingSource("1"),
        configured_props: { recorder: recorder.url },
      });
      const events = await sluice.client.listEvents(source.id, { expand: "event" });
      expect(events.data.map((item) => item.event)).toEqual([{ hook: "activate" }]);
    });

    it("names become unique slugs with an incremented suffix", async () => {
      const code = `export default { name: "Same Name!", props: {}, async run() {} };`;
      const first = await sluice.client.deploySource({ component_code: code });
      const second = await sluice.client.deploySource({ component_code: code });
      const third = await sluice.client.deploySource({ component_code: code, name: "Same Name!" });
      expect([first.name_slug, second.name_slug, third.name_slug]).toEqual([
        "same-name",
        "same-name-1",
        "same-name-2",
      ]);
      expect((await sluice.client.getSource("same-name-1")).id).toBe(second.id);
    });

    it("runs a source now and records its events and logs", async () => {
      const source = await sluice.client.deploySource({
        component_code: `export default { name: "now", props: { db: "$.service.db" },
          async run() { const n = (this.db.get("n") ?? 0) + 1; this.db.set("n", n); console.log("run", n); this.$emit({ n }, { summary: "run " + n }); } };`,
      });
      const first = await sluice.client.runSource(source.id);
      const second = await sluice.client.runSource(source.name_slug);
      expect(first.ok && second.ok).toBe(true);
      const events = await sluice.client.listEvents(source.id, { expand: "event" });
      expect(events.data.map((item) => item.event)).toEqual([{ n: 2 }, { n: 1 }]);
      expect(events.data[0]?.metadata).toMatchObject({ emitter_id: source.id, summary: "run 2", name: "" });
      const logs = await sluice.client.listLogs(source.id);
      expect(logs.data.map((line) => line.message)).toContain("run 2");
    });

    it("a failing deploy hook leaves no source behind and says why", async () => {
      const error = await sluice.client
        .deploySource({
          component_code: `export default { name: "fails", hooks: { deploy() { throw new Error("no credentials"); } }, async run() {} };`,
        })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 400, code: "hook_failed" });
      expect(String((error as Error).message)).toContain("no credentials");
      const list = await sluice.client.listSources({ limit: 100 });
      expect(list.data.map((source) => source.name)).not.toContain("fails");
    });

    it("a secret prop is masked in every response and stored nowhere in plain text", async () => {
      const source = await sluice.client.deploySource({
        component_code: `export default { name: "secretive", props: { token: { type: "string", secret: true } },
          async run() { console.log("token is", this.token); this.$emit({ length: this.token.length }); } };`,
        configured_props: { token: SECRET_VALUE },
      });
      const responses = [
        JSON.stringify(source),
        JSON.stringify(await sluice.client.getSource(source.id)),
        JSON.stringify(await sluice.client.listSources({ limit: 100 })),
      ];
      for (const text of responses) expect(text).not.toContain(SECRET_VALUE);
      expect(source.configured_props.token).toBe("********");

      // The runner gets the real value; what it prints of it is masked.
      const run = await sluice.client.runSource(source.id);
      expect(JSON.stringify(run)).not.toContain(SECRET_VALUE);
      const logs = await sluice.client.listLogs(source.id);
      expect(JSON.stringify(logs)).not.toContain(SECRET_VALUE);
      expect(logs.data.map((line) => line.message)).toContain("token is ********");
      const events = await sluice.client.listEvents(source.id, { expand: "event" });
      expect(events.data[0]?.event).toEqual({ length: SECRET_VALUE.length });

      // Sending the mask back keeps the secret.
      await sluice.client.updateSource(source.id, { configured_props: { token: "********" } });
      await sluice.client.runSource(source.id);
      expect((await sluice.client.listEvents(source.id, { expand: "event" })).data[0]?.event).toEqual({
        length: SECRET_VALUE.length,
      });

      const stored = await sluice.server.store.db.selectFrom("sources").select("configured_props").execute();
      expect(JSON.stringify(stored)).not.toContain(SECRET_VALUE);
      for (const file of filesUnder(database.dataDir)) {
        expect(fs.readFileSync(file).includes(SECRET_VALUE), file).toBe(false);
      }
    });

    it("an app prop's credentials are sealed and masked like a secret", async () => {
      const source = await sluice.client.deploySource({
        component_code: `export default { name: "with app", props: { svc: { type: "app", app: "svc",
          methods: { key() { return this.$auth.api_key; } } } },
          async run() { this.$emit({ ok: this.svc.key() === "${SECRET_VALUE}" }); } };`,
        configured_props: { svc: { api_key: SECRET_VALUE } },
      });
      expect(JSON.stringify(source)).not.toContain(SECRET_VALUE);
      expect(source.configured_props.svc).toBe("********");
      await sluice.client.runSource(source.id);
      expect((await sluice.client.listEvents(source.id, { expand: "event" })).data[0]?.event).toEqual({
        ok: true,
      });
    });

    it.each([
      [
        "a default on a required prop that is not a valid value",
        `{ n: { type: "integer", default: "one" } }`,
        /prop 'n': the default must be an integer/,
      ],
      [
        "min above max",
        `{ n: { type: "integer", min: 5, max: 1 } }`,
        /prop 'n': min \(5\) is greater than max \(1\)/,
      ],
      [
        "min on a string",
        `{ s: { type: "string", min: 1 } }`,
        /prop 's': min is allowed on integer props only/,
      ],
      [
        "secret on an integer",
        `{ n: { type: "integer", secret: true } }`,
        /prop 'n': secret is allowed on string props only/,
      ],
      ["any in a source", `{ a: { type: "any" } }`, /prop 'a': type 'any' is allowed in actions only/],
      ["an object array", `{ o: { type: "object[]" } }`, /prop 'o': unknown type 'object\[\]'/],
      ["an unknown type", `{ x: { type: "strnig" } }`, /prop 'x': unknown type 'strnig'/],
      [
        "a default outside the bounds",
        `{ n: { type: "integer", optional: true, min: 1, max: 3, default: 9 } }`,
        /prop 'n'.*above the maximum 3/,
      ],
      [
        "a default not among the options",
        `{ c: { type: "string", optional: true, options: ["a", "b"], default: "z" } }`,
        /prop 'c'.*not one of the options/,
      ],
    ])("refuses a component with %s, naming the prop", async (_label, props, message) => {
      const error = await sluice.client
        .saveComponent({ component_code: `export default { name: "bad", props: ${props}, async run() {} };` })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 400, code: "invalid_prop" });
      expect(String((error as Error).message)).toMatch(message);
    });

    it("accepts the string shorthand for $.service.db and a source without run", async () => {
      const saved = await sluice.client.saveComponent({
        component_code: `export default { name: "shorthand", props: { db: "$.service.db", timer: { type: "$.interface.timer", default: { intervalSeconds: 60 } } } };`,
      });
      expect(saved.configurable_props).toEqual([
        expect.objectContaining({ name: "db", type: "$.service.db" }),
        expect.objectContaining({ name: "timer", type: "$.interface.timer" }),
      ]);
    });

    it.each([
      ["a missing required value", {}, /prop 'n': a value is required/],
      ["a value below min", { n: 0 }, /prop 'n': the value 0 is below the minimum 1/],
      ["a value above max", { n: 11 }, /prop 'n': the value 11 is above the maximum 10/],
      ["a non-integer", { n: "ten" }, /prop 'n': the value must be an integer/],
      ["a value not among the options", { n: 5, color: "green" }, /prop 'color'.*not one of the options/],
      ["a non-object for an object prop", { n: 5, meta: [1] }, /prop 'meta': the value must be an object/],
      ["a bad array element", { n: 5, tags: ["a", 1] }, /prop 'tags': the value item must be a string/],
      ["an unknown prop", { n: 5, nope: 1 }, /prop 'nope': the component has no such prop/],
      [
        "a value over 64 KB",
        { n: 5, note: "x".repeat(65 * 1024) },
        /prop 'note': the value is larger than 64 KB/,
      ],
    ])("refuses deploying with %s", async (_label, configured, message) => {
      const error = await sluice.client
        .deploySource({
          component_code: `export default { name: "validated", props: {
            n: { type: "integer", min: 1, max: 10 },
            color: { type: "string", optional: true, options: [{ label: "Red", value: "red" }, "blue"] },
            meta: { type: "object", optional: true },
            tags: { type: "string[]", optional: true },
            note: { type: "string", optional: true },
          }, async run() {} };`,
          configured_props: configured,
        })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 400, code: "invalid_prop" });
      expect(String((error as Error).message)).toMatch(message);
    });

    it("coerces the text forms the CLI sends for integers, booleans, objects and arrays", async () => {
      const source = await sluice.client.deploySource({
        component_code: `export default { name: "coerced", props: {
          n: { type: "integer" }, b: { type: "boolean" }, o: { type: "object" }, list: { type: "integer[]" } },
          async run() { this.$emit({ n: this.n, b: this.b, o: this.o, list: this.list }); } };`,
        configured_props: { n: "7", b: "true", o: '{"k":1}', list: "[1,2]" },
      });
      await sluice.client.runSource(source.id);
      const [item] = (await sluice.client.listEvents(source.id, { expand: "event" })).data;
      expect(item?.event).toEqual({ n: 7, b: true, o: { k: 1 }, list: [1, 2] });
    });

    it("reports a syntax error with its line and column", async () => {
      const error = await sluice.client
        .saveComponent({ component_code: "export default {\n  name: 'x',\n  run() { return ) }\n};" })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 400, code: "syntax_error" });
      expect(String((error as Error).message)).toMatch(/3:\d+|line 3/);
    });

    it("reports a syntax error in a .ts file as syntax_error, not as the compiler being unavailable", async () => {
      const error = await sluice.client
        .saveComponent({ component_code: "export default {\n  name: 'x' as,\n};", filename: "broken.ts" })
        .catch((caught: unknown) => caught);
      expect(error).toMatchObject({ status: 400, code: "syntax_error" });
      expect(String((error as Error).message)).toMatch(/2:\d+|line 2/);
    });

    it("a component whose name, key, version or description holds a NUL character is a 400, on every database", async () => {
      for (const field of ["name", "key", "version", "description"]) {
        const code = `export default { name: "n", key: "nul-${field}", version: "0.0.1", ${field}: "a\\u0000b",
          async run() {} };`;
        const error = await sluice.client
          .saveComponent({ component_code: code })
          .catch((caught: unknown) => caught);
        expect(error, field).toMatchObject({ status: 400, code: "invalid_component" });
        expect(String((error as Error).message)).toContain(field);
      }
    });

    it("refuses deploying an action", async () => {
      await expect(
        sluice.client.deploySource({
          component_code: `export default { name: "act", type: "action", async run() {} };`,
        }),
      ).rejects.toMatchObject({ status: 400, code: "not_a_source" });
    });

    it("q searches the whole list on the server: name, dc_ id, component key and endpoint, any case, counted", async () => {
      const { client } = await sluice.newAccount("searcher");
      const code = (key: string) =>
        `export default { key: "${key}", name: "${key}", props: { http: "$.interface.http" }, async run() {} };`;
      const orders = await client.deploySource({ component_code: code("shop-new-order"), name: "Orders EU" });
      const refunds = await client.deploySource({ component_code: code("shop-refund"), name: "refunds" });
      await client.deploySource({ component_code: code("crm-contact"), name: "Contacts" });
      const names = async (q: string, limit = 10) => {
        const page = await client.listSources({ q, limit });
        return { names: page.data.map((source) => source.name).sort(), total: page.page_info.total_count };
      };
      expect(await names("orders eu")).toEqual({ names: ["Orders EU"], total: 1 });
      expect(await names("SHOP-")).toEqual({ names: ["Orders EU", "refunds"], total: 2 });
      expect(await names(refunds.id)).toEqual({ names: ["refunds"], total: 1 });
      const endpointId = new URL(orders.endpoint_url ?? "").pathname.split("/").filter(Boolean).pop() ?? "";
      expect(await names(endpointId)).toEqual({ names: ["Orders EU"], total: 1 });
      // LIKE's wildcards are plain characters here: % is in no name, every id holds dc_.
      expect(await names("%")).toEqual({ names: [], total: 0 });
      expect(await names("dc_")).toEqual({ names: ["Contacts", "Orders EU", "refunds"], total: 3 });
      expect(await names("nothing like it")).toEqual({ names: [], total: 0 });
      expect((await names("shop", 1)).total).toBe(2);
    });

    it("another account's components and sources are invisible", async () => {
      const source = await sluice.client.deploySource({
        component_code: `export default { name: "mine", async run() {} };`,
      });
      const other = await sluice.newAccount("other");
      await expect(other.client.getSource(source.id)).rejects.toMatchObject({ status: 404 });
      await expect(other.client.getComponent(source.component_id)).rejects.toMatchObject({ status: 404 });
      await expect(other.client.updateSource(source.id, { active: false })).rejects.toMatchObject({
        status: 404,
      });
      await expect(other.client.runSource(source.id)).rejects.toMatchObject({ status: 404 });
      await expect(other.client.listEvents(source.id)).rejects.toMatchObject({ status: 404 });
      await expect(other.client.deleteSource(source.id)).rejects.toMatchObject({ status: 404 });
      await expect(other.client.deploySource({ component_id: source.component_id })).rejects.toMatchObject({
        status: 404,
      });
      expect((await other.client.listSources()).data).toEqual([]);
      expect((await sluice.client.getSource(source.id)).active).toBe(true);
    });
  });
}

function filesUnder(directory: string): string[] {
  return fs
    .readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile())
    .map((entry) => path.join(entry.parentPath, entry.name));
}

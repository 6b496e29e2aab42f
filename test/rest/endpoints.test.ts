/**
 * Source HTTP endpoints (`/e/<endpoint_id>`) over a real socket, with components in the real
 * sandbox: what reaches run, when the caller gets its answer, and what respond() sends.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { EventSummary, Source } from "../../src/client/types.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import {
  rawRequest,
  requestReceived,
  startOtherNode,
  startTestServer,
  type TestServer,
} from "../support/server.js";
import { waitUntil } from "../support/wait.js";

const ENDPOINT_BODY_LIMIT = 2048;

/** Emits the event it got and what `this.http.endpoint` says. */
const ECHO = `export default {
  name: "echo",
  props: { http: { type: "$.interface.http" } },
  async run(event) { this.$emit({ event, endpoint: this.http.endpoint }); },
};`;

/** Emits its configured label. */
const LABELLED = `export default {
  name: "labelled",
  props: { http: { type: "$.interface.http" }, label: { type: "string" } },
  async run() { this.$emit({ label: this.label }); },
};`;

/** With customResponse: does what the JSON body of the request orders. */
const RESPONDER = `export default {
  name: "responder",
  props: { http: { type: "$.interface.http", customResponse: true } },
  async run(event) {
    const order = event.body ?? {};
    switch (order.do) {
      case "respond":
        await this.http.respond(order.response);
        return;
      case "bytes":
        await this.http.respond({ status: 200, headers: { "content-type": "application/octet-stream" }, body: Buffer.from(order.bytes) });
        return;
      case "respond-then-wait":
        await this.http.respond({ status: 202, body: "accepted" });
        await fetch(order.gate);
        this.$emit({ after: "respond" });
        return;
      case "throw":
        throw new Error("the source broke: " + order.why);
      case "hang":
        await new Promise(() => {});
        return;
      default:
        this.$emit({ responded: false });
    }
  },
};`;

/** A URL whose requests are held until `release`: lets a test hold a run at a known point. */
interface Gate {
  readonly url: string;
  /** Resolves when the first request has arrived. */
  readonly arrived: Promise<void>;
  release(): void;
  close(): Promise<void>;
}

async function startGate(): Promise<Gate> {
  const held: http.ServerResponse[] = [];
  let released = false;
  let markArrived: () => void = () => {};
  const arrived = new Promise<void>((resolve) => {
    markArrived = resolve;
  });
  const server = http.createServer((_request, response) => {
    markArrived();
    if (released) response.end("open");
    else held.push(response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/gate`,
    arrived,
    release() {
      released = true;
      for (const response of held.splice(0)) response.end("open");
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`source HTTP endpoints on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let echo: Source;
    let responder: Source;

    /**
     * Where the source's endpoint is reached on the test server. endpoint_url is built from the
     * configured base URL, which names port 0 when the server listens on an ephemeral port.
     */
    const endpointOf = (source: Source, subPath = ""): string => {
      expect(source.endpoint_url).toMatch(/\/e\/[0-9a-f]{32}$/);
      return `${sluice.url}${new URL(source.endpoint_url ?? "").pathname}${subPath}`;
    };

    /** The newest event of a source, in full. */
    const newestEvent = async (source: Source): Promise<Record<string, unknown>> => {
      const page = await sluice.client.listEvents(source.id, { expand: "event", limit: 1 });
      return (page.data[0]?.event ?? {}) as Record<string, unknown>;
    };
    const newestHttpEvent = async (source: Source) =>
      (await newestEvent(source)).event as {
        method: string;
        path: string;
        query: Record<string, unknown>;
        headers: Record<string, string>;
        bodyRaw: string;
        body?: unknown;
      };

    const order = (body: unknown) =>
      rawRequest(endpointOf(responder), {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(body),
      });

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database, {
        env: {
          SLUICE_ENDPOINT_BODY_LIMIT: String(ENDPOINT_BODY_LIMIT),
          // The responder fetches a gate on 127.0.0.1 to hold its run.
          SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8",
        },
      });
      echo = await sluice.client.deploySource({ component_code: ECHO });
      responder = await sluice.client.deploySource({ component_code: RESPONDER });
    });
    afterAll(async () => {
      await sluice?.close();
      await database?.cleanup();
    });

    describe("without customResponse", () => {
      it.each([
        "GET",
        "POST",
        "PUT",
        "DELETE",
        "PATCH",
      ])("%s on a sub-path reaches run, and the event is stored when the caller gets 200", async (method) => {
        const subPath = `/hooks/${method.toLowerCase()}/deep`;
        const response = await rawRequest(endpointOf(echo, `${subPath}?via=${method}`), { method });
        expect(response.status).toBe(200);
        // Right after the answer, with no waiting: the event was committed before it.
        const event = await newestHttpEvent(echo);
        expect(event).toMatchObject({ method, path: subPath, query: { via: method } });
      });

      it("the event at the root has path '/', parsed query, lower-cased headers, and no body without one", async () => {
        const response = await rawRequest(endpointOf(echo, "?a=1&b=x&b=y&empty="), {
          headers: { "X-Mixed-Case": "Value Kept", Accept: "text/plain" },
        });
        expect(response.status).toBe(200);
        const event = await newestHttpEvent(echo);
        expect(event.method).toBe("GET");
        expect(event.path).toBe("/");
        expect(event.query).toEqual({ a: "1", b: ["x", "y"], empty: "" });
        expect(event.headers["x-mixed-case"]).toBe("Value Kept");
        expect(event.headers.accept).toBe("text/plain");
        expect(Object.keys(event.headers).filter((name) => name !== name.toLowerCase())).toEqual([]);
        expect(event.bodyRaw).toBe("");
        expect(event).not.toHaveProperty("body");
      });

      it("a POST without a body has bodyRaw '' and no body", async () => {
        expect((await rawRequest(endpointOf(echo, "/empty"), { method: "POST" })).status).toBe(200);
        const event = await newestHttpEvent(echo);
        expect(event).toMatchObject({ method: "POST", path: "/empty", bodyRaw: "" });
        expect(event).not.toHaveProperty("body");
      });

      it("a JSON body is parsed, and bodyRaw keeps the text as sent", async () => {
        const text = '{"user":{"name":"Ada","tags":["a","b"]},"n":1.5,"ok":true}';
        const response = await rawRequest(endpointOf(echo), {
          method: "POST",
          headers: { "content-type": "application/json; charset=utf-8" },
          body: text,
        });
        expect(response.status).toBe(200);
        const event = await newestHttpEvent(echo);
        expect(event.body).toEqual({ user: { name: "Ada", tags: ["a", "b"] }, n: 1.5, ok: true });
        expect(event.bodyRaw).toBe(text);
      });

      it("a JSON body nested deeper than 512 levels gets 400 json_too_deep; 512 levels reach run", async () => {
        // Deeper still (thousands of levels, under a larger body limit) used to overflow the stack
        // on the way to the sandbox and come back as the source's own 500.
        const nested = (depth: number) => `{"x":${"[".repeat(depth - 1)}${"]".repeat(depth - 1)}}`;
        for (const [source, depth, status] of [
          [echo, 512, 200],
          [echo, 513, 400],
          [responder, 600, 400],
        ] as const) {
          const response = await rawRequest(endpointOf(source, "/deep"), {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: nested(depth),
          });
          expect(response.status, `${depth} levels: ${response.text}`).toBe(status);
          if (status === 400) {
            expect((response.body as { error: { code: string } }).error.code).toBe("json_too_deep");
          }
        }
      });

      it("NUL in what a source logs, emits as channel, id or summary, or uses as a db key is stored as U+FFFD", async () => {
        // Used to fail the invocation's commit on PostgreSQL (text cannot hold NUL): a 500, and the event lost.
        const source = await sluice.client.deploySource({
          component_code: `export default {
            name: "nul passer",
            props: { http: { type: "$.interface.http" }, db: "$.service.db" },
            async run(event) {
              const text = event.body.text;
              console.log(text);
              this.db.set(text, 1);
              this.$emit({ text }, { name: text, id: text, summary: text });
            },
          };`,
        });
        const response = await rawRequest(endpointOf(source), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ text: "a\u0000b" }),
        });
        expect(response.status, response.text).toBe(200);
        const [item] = (await sluice.client.listEvents(source.id, { expand: "event" })).data;
        expect(item?.event).toEqual({ text: "a\u0000b" });
        expect(item?.metadata).toMatchObject({ name: "a\uFFFDb", id: "a\uFFFDb", summary: "a\uFFFDb" });
        const logs = (await sluice.client.listLogs(source.id)).data;
        expect(logs.map((line) => line.message)).toContain("a\uFFFDb");
      });

      it("a db key longer than 1,024 bytes is refused by db.set with the limit, and the rest of the run is kept", async () => {
        // Used to fail the invocation's commit on PostgreSQL (an index entry has a bound): a 500.
        const source = await sluice.client.deploySource({
          component_code: `export default {
            name: "long keys",
            props: { http: { type: "$.interface.http" }, db: "$.service.db" },
            async run(event) {
              this.$emit({ before: true });
              try {
                this.db.set("k".repeat(event.body.length), 1);
                this.$emit({ stored: event.body.length });
              } catch (error) {
                this.$emit({ refused: error.name + ": " + error.message });
              }
            },
          };`,
        });
        for (const length of [1024, 1025, 200_000]) {
          const response = await rawRequest(endpointOf(source), {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ length }),
          });
          expect(response.status, response.text).toBe(200);
        }
        const events = (await sluice.client.listEvents(source.id, { expand: "event" })).data.map(
          (item) => item.event,
        );
        expect(events).toEqual([
          {
            refused:
              "RangeError: db.set: the key is 200000 bytes long; keys are at most 1024 bytes (UTF-8). Store a long name's hash as the key instead",
          },
          { before: true },
          {
            refused:
              "RangeError: db.set: the key is 1025 bytes long; keys are at most 1024 bytes (UTF-8). Store a long name's hash as the key instead",
          },
          { before: true },
          { stored: 1024 },
          { before: true },
        ]);
      });

      it("a form body is parsed, repeated keys becoming arrays", async () => {
        const text = "a=1&b=2&b=3&c=hello+world&d=%C3%A9t%C3%A9";
        await rawRequest(endpointOf(echo, "/form"), {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: text,
        });
        const event = await newestHttpEvent(echo);
        expect(event.body).toEqual({ a: "1", b: ["2", "3"], c: "hello world", d: "été" });
        expect(event.bodyRaw).toBe(text);
      });

      it("a text body stays a string", async () => {
        await rawRequest(endpointOf(echo, "/text"), {
          method: "PUT",
          headers: { "content-type": "text/plain" },
          body: "just some text\nover two lines",
        });
        const event = await newestHttpEvent(echo);
        expect(event.body).toBe("just some text\nover two lines");
        expect(event.bodyRaw).toBe("just some text\nover two lines");
      });

      it("this.http.endpoint inside the component is the source's endpoint_url", async () => {
        await rawRequest(endpointOf(echo, "/where"));
        expect((await newestEvent(echo)).endpoint).toBe(echo.endpoint_url);
        expect((await sluice.client.getSource(echo.id)).endpoint_url).toBe(echo.endpoint_url);
      });
    });

    describe("with customResponse", () => {
      it("respond sends its status, headers and an object body as JSON", async () => {
        const response = await order({
          do: "respond",
          response: {
            status: 201,
            headers: { "x-reply": "yes", "cache-control": "no-store" },
            body: { ok: 1 },
          },
        });
        expect(response.status).toBe(201);
        expect(response.headers.get("x-reply")).toBe("yes");
        expect(response.headers.get("cache-control")).toBe("no-store");
        expect(response.headers.get("content-type")).toMatch(/^application\/json/);
        expect(response.body).toEqual({ ok: 1 });
      });

      it("a header the source sets wins over the JSON content type", async () => {
        const response = await order({
          do: "respond",
          response: { status: 200, headers: { "Content-Type": "text/csv" }, body: { a: 1 } },
        });
        expect(response.headers.get("content-type")).toBe("text/csv");
        expect(response.text).toBe('{"a":1}');
      });

      it("a string body is sent as it is", async () => {
        const response = await order({ do: "respond", response: { status: 418, body: "I'm a teapot" } });
        expect(response.status).toBe(418);
        expect(response.text).toBe("I'm a teapot");
      });

      it("a Buffer body is sent as its bytes", async () => {
        const bytes = [0, 1, 2, 127, 128, 254, 255, 0xc3, 0x28];
        const response = await fetch(endpointOf(responder), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ do: "bytes", bytes }),
        });
        expect(response.status).toBe(200);
        expect(response.headers.get("content-type")).toBe("application/octet-stream");
        expect([...new Uint8Array(await response.arrayBuffer())]).toEqual(bytes);
      });

      it("the caller gets the response when respond is called; run goes on and what it emits after is stored", async () => {
        const gate = await startGate();
        try {
          const response = await order({ do: "respond-then-wait", gate: gate.url });
          expect(response.status).toBe(202);
          expect(response.text).toBe("accepted");
          // The run is now held at the gate: it has not finished, yet the caller has its answer.
          await gate.arrived;
          const afterRespond = (item: EventSummary) =>
            JSON.stringify(item.event) === JSON.stringify({ after: "respond" });
          const before = await sluice.client.listEvents(responder.id, { expand: "event", limit: 100 });
          expect(before.data.filter(afterRespond)).toEqual([]);
          gate.release();
          const stored = await waitUntil("the event emitted after $.respond", async () => {
            const page = await sluice.client.listEvents(responder.id, { expand: "event", limit: 100 });
            const found = page.data.filter(afterRespond);
            return found.length > 0 ? found : undefined;
          });
          expect(stored).toHaveLength(1);
        } finally {
          gate.release();
          await gate.close();
        }
      });

      it.each([200, 299, 301, 404, 599])("status %i is sent as it is", async (status) => {
        const response = await order({ do: "respond", response: { status, body: `status ${status}` } });
        expect(response.status).toBe(status);
        if (status !== 301) expect(response.text).toBe(`status ${status}`);
      });

      it.each([
        100, 199,
      ])("status %i (1xx, which cannot end a request) gets a 502 invalid_response, not a hung caller", async (status) => {
        const response = await order({ do: "respond", response: { status, body: "interim" } });
        expect(response.status).toBe(502);
        expect(response.body).toMatchObject({ error: { code: "invalid_response" } });
        expect((response.body as { error: { message: string } }).error.message).toContain(`${status}`);
      });

      it.each([
        99, 600, 200.5,
      ])("status %s is outside 100 to 599: run fails and the caller gets 500", async (status) => {
        const response = await order({ do: "respond", response: { status, body: "never sent" } });
        expect(response.status).toBe(500);
        expect(response.body).toMatchObject({ error: { code: "source_error" } });
        expect((response.body as { error: { message: string } }).error.message).toMatch(
          /status must be an integer from 100 to 599/,
        );
      });

      it("a header HTTP cannot carry gets a 502 invalid_response in the JSON error shape", async () => {
        for (const headers of [{ "bad header": "x" }, { "x-split": "a\r\nb" }]) {
          const response = await order({ do: "respond", response: { status: 200, headers, body: "x" } });
          expect(response.status).toBe(502);
          expect(response.body).toMatchObject({ error: { code: "invalid_response" } });
        }
      });

      it("a run that throws gets 500 source_error with the error's message", async () => {
        const response = await order({ do: "throw", why: "no database" });
        expect(response.status).toBe(500);
        expect(response.headers.get("content-type")).toMatch(/^application\/json/);
        expect(response.body).toMatchObject({ error: { code: "source_error" } });
        expect((response.body as { error: { message: string } }).error.message).toContain(
          "the source broke: no database",
        );
      });

      it("a run that finishes without respond gets 502 no_response, and its events are kept", async () => {
        const response = await order({ do: "nothing" });
        expect(response.status).toBe(502);
        expect(response.body).toMatchObject({ error: { code: "no_response" } });
        expect(await newestEvent(responder)).toEqual({ responded: false });
      });

      it("a run that times out gets 504 source_timeout", async () => {
        const slow = await sluice.client.deploySource({ component_code: RESPONDER, timeout_seconds: 1 });
        const started = Date.now();
        const response = await rawRequest(endpointOf(slow), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ do: "hang" }),
        });
        expect(response.status).toBe(504);
        expect(response.body).toMatchObject({ error: { code: "source_timeout" } });
        expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
        expect(Date.now() - started).toBeLessThan(10_000);
        // The runner was replaced: the same source answers the next request.
        const next = await rawRequest(endpointOf(slow), {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ do: "respond", response: { status: 200, body: "back" } }),
        });
        expect([next.status, next.text]).toEqual([200, "back"]);
      });
    });

    it("a body at the endpoint limit is accepted; one byte more gets 413 JSON naming the limit", async () => {
      const atLimit = await rawRequest(endpointOf(echo, "/big"), {
        method: "POST",
        headers: { "content-type": "application/octet-stream" },
        body: "x".repeat(ENDPOINT_BODY_LIMIT),
      });
      expect(atLimit.status).toBe(200);
      expect((await newestHttpEvent(echo)).bodyRaw).toHaveLength(ENDPOINT_BODY_LIMIT);

      const before = await sluice.client.listEvents(echo.id);
      for (const contentType of ["application/json", "text/plain"]) {
        const over = await rawRequest(endpointOf(echo, "/big"), {
          method: "POST",
          headers: { "content-type": contentType },
          body: "x".repeat(ENDPOINT_BODY_LIMIT + 1),
        });
        expect(over.status).toBe(413);
        expect(over.headers.get("content-type")).toMatch(/^application\/json/);
        expect(over.body).toMatchObject({ error: { code: "payload_too_large" } });
        expect((over.body as { error: { message: string } }).error.message).toContain(
          String(ENDPOINT_BODY_LIMIT),
        );
      }
      // Nothing ran for the refused requests.
      expect((await sluice.client.listEvents(echo.id)).page_info.total_count).toBe(
        before.page_info.total_count,
      );
    });

    it("an inactive source's endpoint is 404 JSON, and answers again once reactivated", async () => {
      const source = await sluice.client.deploySource({ component_code: ECHO });
      await sluice.client.updateSource(source.id, { active: false });
      const inactive = await rawRequest(endpointOf(source, "/x"), { method: "POST" });
      expect(inactive.status).toBe(404);
      expect(inactive.body).toMatchObject({ error: { code: "not_found" } });
      expect((await sluice.client.listEvents(source.id)).page_info.total_count).toBe(0);

      const reactivated = await sluice.client.updateSource(source.id, { active: true });
      expect(reactivated.endpoint_url).toBe(source.endpoint_url);
      expect((await rawRequest(endpointOf(source, "/x"), { method: "POST" })).status).toBe(200);
    });

    it("a deleted source's endpoint is 404 JSON", async () => {
      const source = await sluice.client.deploySource({ component_code: ECHO });
      expect((await rawRequest(endpointOf(source))).status).toBe(200);
      await sluice.client.deleteSource(source.id);
      for (const path of ["", "/sub/path"]) {
        const response = await rawRequest(endpointOf(source, path), { method: "POST" });
        expect(response.status).toBe(404);
        expect(response.body).toMatchObject({ error: { code: "not_found" } });
      }
    });

    // Each node keeps the runnable form of the sources its endpoints served; a change drops it.
    it("an endpoint runs with the props of the latest update at once, and is 404 at once when deactivated", async () => {
      const labelled = await sluice.client.deploySource({
        component_code: LABELLED,
        configured_props: { label: "first" },
      });
      expect((await rawRequest(endpointOf(labelled), { method: "POST" })).status).toBe(200);
      expect(await newestEvent(labelled)).toEqual({ label: "first" });

      await sluice.client.updateSource(labelled.id, { configured_props: { label: "second" } });
      expect((await rawRequest(endpointOf(labelled), { method: "POST" })).status).toBe(200);
      expect(await newestEvent(labelled)).toEqual({ label: "second" });

      await sluice.client.updateSource(labelled.id, { active: false });
      expect((await rawRequest(endpointOf(labelled), { method: "POST" })).status).toBe(404);
      await sluice.client.deleteSource(labelled.id);
    });

    if (dialect.name === "postgres") {
      it("another node's endpoint follows an update and a deletion made through this one", async () => {
        const other = await startOtherNode(database);
        try {
          const labelled = await sluice.client.deploySource({
            component_code: LABELLED,
            configured_props: { label: "first" },
          });
          const there = `${other.url}${new URL(labelled.endpoint_url ?? "").pathname}`;
          expect((await rawRequest(there, { method: "POST" })).status).toBe(200);
          expect(await newestEvent(labelled)).toEqual({ label: "first" });

          await sluice.client.updateSource(labelled.id, { configured_props: { label: "second" } });
          // The other node hears of the change through LISTEN/NOTIFY, a moment after the commit.
          await expect
            .poll(
              async () => {
                await rawRequest(there, { method: "POST" });
                return newestEvent(labelled);
              },
              { timeout: 5000, interval: 50 },
            )
            .toEqual({ label: "second" });

          await sluice.client.deleteSource(labelled.id);
          await expect
            .poll(async () => (await rawRequest(there, { method: "POST" })).status, {
              timeout: 5000,
              interval: 50,
            })
            .toBe(404);
        } finally {
          await other.close();
        }
      });
    }

    it("an unknown endpoint id is 404 JSON, whatever its form", async () => {
      for (const path of [
        `/e/${"0".repeat(32)}`,
        `/e/${"0".repeat(32)}/sub`,
        "/e/not-an-id",
        "/e/DC_X?x=1",
      ]) {
        const response = await rawRequest(`${sluice.url}${path}`, { method: "POST" });
        expect(response.status, path).toBe(404);
        expect(response.headers.get("content-type"), path).toMatch(/^application\/json/);
        expect((response.body as { error: { code: string } }).error.code, path).toMatch(/not_found/);
      }
    });

    // Invocations of one source queue in the invoker, and each reads the state when its turn comes.
    it("a request that arrives while an invocation runs sees the db state that invocation left", async () => {
      const counter = await sluice.client.deploySource({
        component_code: `export default {
          name: "counter",
          props: { db: "$.service.db", http: { type: "$.interface.http" } },
          async run(event) {
            const n = (this.db.get("n") ?? 0) + 1;
            this.db.set("n", n);
            if (event.query.gate) await fetch(event.query.gate);
            this.$emit({ n });
          },
        };`,
      });
      const gate = await startGate();
      try {
        const first = rawRequest(endpointOf(counter, `?gate=${encodeURIComponent(gate.url)}`));
        await gate.arrived;
        const received = requestReceived(sluice, (url) => !url.includes("gate="));
        const second = rawRequest(endpointOf(counter));
        // The second is in the server's hands while the first is held: it waits for its turn.
        await received;
        gate.release();
        expect([(await first).status, (await second).status]).toEqual([200, 200]);
      } finally {
        gate.release();
        await gate.close();
      }
      const events = (await sluice.client.listEvents(counter.id, { expand: "event" })).data;
      expect(events.map((item) => item.event)).toEqual([{ n: 2 }, { n: 1 }]);
    });

    it("endpoints need no API key, and a caller's own Authorization header reaches run", async () => {
      const response = await rawRequest(endpointOf(echo, "/auth"), {
        headers: { authorization: "Bearer not-a-sluice-key" },
      });
      expect(response.status).toBe(200);
      expect((await newestHttpEvent(echo)).headers.authorization).toBe("Bearer not-a-sluice-key");
    });
  });
}

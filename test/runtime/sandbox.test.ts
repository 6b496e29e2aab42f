/**
 * The sandbox contract, on real runner processes: what a component sees (`this`, props, methods,
 * $emit, db, respond, apps, console), how it is described, what it cannot reach, how failures are
 * reported and contained, and how runners are pooled. Bundles are hand-written ES modules, as the
 * compiler would produce them. The runner is the compiled one (`npm run build` first).
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { describe, expect, test } from "vitest";
import { createSandbox } from "../../src/runtime/sandbox/runner-pool.js";
import {
  ComponentLoadError,
  type HttpResponse,
  type Invocation,
  type InvocationResult,
  type RunnerSpec,
} from "../../src/runtime/sandbox/sandbox.js";
import { fileSandbox } from "../support/sandbox.js";
import { waitUntil } from "../support/wait.js";

const { sandbox, dataDir } = fileSandbox("sluice-sandbox-", { maxRunners: 50 });

let components = 0;

/** A component with its own id, running `code` (an ES module whose default export is the component). */
function component(code: string, options: { heapMb?: number; componentId?: string } = {}): RunnerSpec {
  return {
    componentId: options.componentId ?? `dc_test${++components}`,
    bundleHash: createHash("sha256").update(code).digest("hex"),
    bundle: code,
    ...(options.heapMb === undefined ? {} : { heapMb: options.heapMb }),
  };
}

function invocation(overrides: Partial<Invocation> = {}): Invocation {
  return { method: "run", props: {}, db: {}, timeoutMs: 10_000, ...overrides };
}

function expectOk(result: InvocationResult): void {
  expect(result.failure).toBeUndefined();
  expect(result.ok).toBe(true);
}

async function describeError(spec: RunnerSpec): Promise<ComponentLoadError> {
  const error = await sandbox.describe(spec).then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ComponentLoadError);
  return error as ComponentLoadError;
}

describe("what a component sees", () => {
  test("props are this.<name>, and methods are bound to this and call each other", async () => {
    const spec = component(`export default {
      name: "props",
      props: { greeting: "string", target: { type: "object" } },
      methods: {
        shout(text) { return text.toUpperCase() + "!"; },
        message() { return this.shout(this.greeting + " " + this.target.name); },
      },
      run() { const detached = this.message; return { message: detached(), port: this.target.port }; },
    }`);
    const result = await sandbox.invoke(
      spec,
      invocation({
        props: {
          greeting: { kind: "value", value: "hello" },
          target: { kind: "value", value: { name: "world", port: 8080 } },
        },
      }),
    );
    expectOk(result);
    expect(result.returnValue).toEqual({ message: "HELLO WORLD!", port: 8080 });
  });

  test("run receives the event, and its return value comes back JSON round-tripped", async () => {
    const spec = component(`export default {
      name: "echo",
      run(event) { return { event, at: new Date(0), skipped: undefined }; },
    }`);
    const result = await sandbox.invoke(spec, invocation({ event: { method: "POST", body: { a: [1, 2] } } }));
    expectOk(result);
    expect(result.returnValue).toEqual({
      event: { method: "POST", body: { a: [1, 2] } },
      at: "1970-01-01T00:00:00.000Z",
    });
  });

  test("$emit records each event with its meta, copied at emit time, and returns a resolved promise", async () => {
    const spec = component(`export default {
      name: "emitter",
      async run() {
        const event = { n: 1 };
        const returned = this.$emit(event, { id: "a", name: "numbers", summary: "first", ts: 1700000000000 });
        event.n = 2;
        await this.$emit(event, { id: 2 });
        await this.$emit("plain text");
        return returned instanceof Promise;
      },
    }`);
    const result = await sandbox.invoke(spec, invocation());
    expectOk(result);
    expect(result.returnValue).toBe(true);
    expect(result.emits).toEqual([
      { event: { n: 1 }, meta: { id: "a", name: "numbers", summary: "first", ts: 1700000000000 } },
      { event: { n: 2 }, meta: { id: 2 } },
      { event: "plain text", meta: {} },
    ]);
  });

  test("an unusable meta.ts (NaN, an invalid date) keeps the event, stamped at emit time, with a warning; a date string is read", async () => {
    const spec = component(`export default {
      name: "stamps",
      async run() {
        this.$emit({ n: 1 }, { id: "nan", ts: NaN });
        this.$emit({ n: 2 }, { id: "invalid", ts: new Date("not a date") });
        this.$emit({ n: 3 }, { id: "iso", ts: "2024-01-02T03:04:05.000Z" });
      },
    }`);
    const result = await sandbox.invoke(spec, invocation());
    expectOk(result);
    expect(result.emits).toEqual([
      { event: { n: 1 }, meta: { id: "nan" } },
      { event: { n: 2 }, meta: { id: "invalid" } },
      { event: { n: 3 }, meta: { id: "iso", ts: Date.parse("2024-01-02T03:04:05.000Z") } },
    ]);
    expect(result.logs.map((line) => [line.level, line.message])).toEqual([
      ["warn", "$emit: meta.ts NaN is not an epoch timestamp in milliseconds; the event is stamped now"],
      [
        "warn",
        "$emit: meta.ts Invalid Date is not an epoch timestamp in milliseconds; the event is stamped now",
      ],
    ]);
  });

  test("$emit of a value JSON cannot hold fails the component with a clear message", async () => {
    const spec = component(`export default {
      name: "cyclic-emitter",
      async run() { const event = {}; event.self = event; await this.$emit(event); },
    }`);
    const result = await sandbox.invoke(spec, invocation());
    expect(result.ok).toBe(false);
    expect(result.failure?.reason).toBe("error");
    expect(result.failure?.message).toMatch(/\$emit: the value is not JSON-serializable/);
  });

  test("db get and set are synchronous over the snapshot, see their own writes, and come back as dbWrites", async () => {
    const spec = component(`export default {
      name: "counter",
      props: { db: "$.service.db" },
      run() {
        const before = this.db.get("count");
        const missing = this.db.get("missing");
        this.db.set("count", before + 1);
        const list = ["a"];
        this.db.set("list", list);
        list.push("mutated after set");
        const snapshotObject = this.db.get("config");
        snapshotObject.changed = true;
        return { before, missing: missing === undefined, after: this.db.get("count"), list: this.db.get("list"),
          config: this.db.get("config"), sync: !(this.db.get("count") instanceof Promise) };
      },
    }`);
    const result = await sandbox.invoke(
      spec,
      invocation({ props: { db: { kind: "db" } }, db: { count: 41, config: { mode: "fast" } } }),
    );
    expectOk(result);
    expect(result.returnValue).toEqual({
      before: 41,
      missing: true,
      after: 42,
      list: ["a"],
      config: { mode: "fast" },
      sync: true,
    });
    expect(result.dbWrites).toEqual({ count: 42, list: ["a"] });
  });

  test("db.set refuses a function, undefined, a BigInt or a cycle with a clear error", async () => {
    const spec = component(`export default {
      name: "bad-values",
      props: { db: "$.service.db" },
      run() {
        const cyclic = {}; cyclic.self = cyclic;
        const attempts = { fn: () => 1, undef: undefined, big: 10n, cyclic, nested: { fn() {} } };
        const errors = {};
        for (const [key, value] of Object.entries(attempts)) {
          try { this.db.set(key, value); errors[key] = "stored"; } catch (error) { errors[key] = error.message; }
        }
        return errors;
      },
    }`);
    const result = await sandbox.invoke(spec, invocation({ props: { db: { kind: "db" } } }));
    expectOk(result);
    const errors = result.returnValue as Record<string, string>;
    for (const key of ["fn", "undef", "big", "cyclic", "nested"]) {
      expect(errors[key]).toMatch(new RegExp(`^db\\.set\\("${key}"\\): the value is not JSON-serializable`));
    }
    expect(errors.big).toMatch(/BigInt/);
    expect(errors.cyclic).toMatch(/circular/);
    expect(result.dbWrites).toEqual({});
  });

  test("console output becomes the invocation's log lines, formatted as util.format does", async () => {
    const spec = component(`export default {
      name: "chatty",
      run() {
        console.log("count: %d", 3, { a: 1 });
        console.info("info");
        console.warn("warn");
        console.error(new Error("shown").message);
        console.debug("debug", [1, 2]);
        process.stdout.write("raw write\\n");
      },
    }`);
    const result = await sandbox.invoke(spec, invocation());
    expectOk(result);
    expect(result.logs.map(({ level, message }) => ({ level, message }))).toEqual([
      { level: "log", message: "count: 3 { a: 1 }" },
      { level: "info", message: "info" },
      { level: "warn", message: "warn" },
      { level: "error", message: "shown" },
      { level: "debug", message: "debug [ 1, 2 ]" },
      { level: "log", message: "raw write" },
    ]);
    for (const line of result.logs) expect(line.ts).toBeGreaterThan(Date.now() - 60_000);
  });

  test("hooks run with the same this, may emit, in any order; a missing hook or run is a no-op success", async () => {
    const spec = component(`export default {
      name: "hooked",
      props: { db: "$.service.db", label: "string" },
      methods: { note(what) { this.db.set(what, this.label); } },
      hooks: {
        async deploy() { this.note("deployed"); await this.$emit({ hook: "deploy" }); },
        async activate() { this.note("activated"); await this.$emit({ hook: "activate" }); },
      },
    }`);
    const props = { db: { kind: "db" as const }, label: { kind: "value" as const, value: "v1" } };
    const activate = await sandbox.invoke(spec, invocation({ method: "activate", props }));
    expectOk(activate);
    expect(activate.emits.map((e) => e.event)).toEqual([{ hook: "activate" }]);
    expect(activate.dbWrites).toEqual({ activated: "v1" });
    const deploy = await sandbox.invoke(spec, invocation({ method: "deploy", props }));
    expect(deploy.emits.map((e) => e.event)).toEqual([{ hook: "deploy" }]);
    expect(deploy.dbWrites).toEqual({ deployed: "v1" });
    for (const method of ["deactivate", "run"] as const) {
      const result = await sandbox.invoke(spec, invocation({ method, props }));
      expectOk(result);
      expect(result.emits).toEqual([]);
    }
  });

  test("a thrown error fails the invocation with its message and stack, and what came before is kept", async () => {
    const spec = component(`export default {
      name: "thrower",
      async run() { console.log("working"); await this.$emit({ step: 1 }); throw new TypeError("bad input"); },
    }`);
    const result = await sandbox.invoke(spec, invocation());
    expect(result.ok).toBe(false);
    expect(result.failure).toMatchObject({ reason: "error", message: "TypeError: bad input" });
    expect(result.failure?.stack).toMatch(/bad input/);
    expect(result.emits).toEqual([{ event: { step: 1 }, meta: {} }]);
    expect(result.logs.map((line) => line.message)).toEqual(["working"]);
  });
});

describe("HTTP responses", () => {
  const responder = component(`export default {
    name: "responder",
    props: { http: { type: "$.interface.http", customResponse: true } },
    async run(event) {
      if (event.twice) { this.http.respond({ status: 200 }); this.http.respond({ status: 201 }); }
      const body = event.bytes ? Buffer.from([0, 1, 2, 255]) : event.body;
      this.http.respond({ status: event.status, headers: { "x-answer": 42, "content-language": "en" }, body });
      await new Promise((resolve) => setTimeout(resolve, 150));
      return this.http.endpoint;
    },
  }`);
  const http = {
    http: { kind: "http" as const, endpoint: "https://sluice.test/e/abc", customResponse: true },
  };

  async function respond(
    event: unknown,
  ): Promise<{ result: InvocationResult; responses: HttpResponse[]; early: boolean }> {
    const responses: HttpResponse[] = [];
    let settled = false;
    let early = false;
    const result = await sandbox
      .invoke(
        responder,
        invocation({
          event,
          props: http,
          onRespond: (response) => {
            responses.push(response);
            early = !settled;
          },
        }),
      )
      .finally(() => {
        settled = true;
      });
    return { result, responses, early };
  }

  test("respond passes status, headers and an object body as JSON, before run settles", async () => {
    const { result, responses, early } = await respond({ status: 201, body: { created: true } });
    expectOk(result);
    expect(result.returnValue).toBe("https://sluice.test/e/abc");
    expect(responses).toHaveLength(1);
    const [response] = responses;
    expect(response?.status).toBe(201);
    expect(response?.headers).toEqual({ "x-answer": "42", "content-language": "en" });
    expect(response?.isJson).toBe(true);
    expect(JSON.parse(Buffer.from(response?.body ?? []).toString("utf8"))).toEqual({ created: true });
    expect(early).toBe(true);
  });

  test("respond passes a string body as text and a Buffer body as the same bytes", async () => {
    const text = await respond({ status: 200, body: "plain" });
    expect(text.responses[0]?.isJson).toBe(false);
    expect(Buffer.from(text.responses[0]?.body ?? []).toString("utf8")).toBe("plain");
    const bytes = await respond({ status: 200, bytes: true });
    expectOk(bytes.result);
    expect(bytes.responses[0]?.isJson).toBe(false);
    expect([...(bytes.responses[0]?.body ?? [])]).toEqual([0, 1, 2, 255]);
  });

  test("respond with status 99 or 600 fails the component with a clear message", async () => {
    for (const status of [99, 600]) {
      const { result, responses } = await respond({ status, body: "x" });
      expect(responses).toEqual([]);
      expect(result.ok).toBe(false);
      expect(result.failure?.reason).toBe("error");
      expect(result.failure?.message).toBe(
        `RangeError: respond(): status must be an integer from 100 to 599, got ${status}`,
      );
    }
  });

  test("a second respond in one invocation throws in the component; the first response stands", async () => {
    const { result, responses } = await respond({ twice: true });
    expect(responses.map((r) => r.status)).toEqual([200]);
    expect(result.failure?.message).toMatch(/respond\(\) was already called/);
  });
});

describe("app props", () => {
  test("this.<app>.$auth is the connected account's auth, and app methods reach it as this.$auth", async () => {
    const spec = component(`
      const github = {
        type: "app",
        app: "github",
        propDefinitions: {},
        methods: {
          _baseUrl() { return "https://api.github.com"; },
          authHeader() { return "Bearer " + this.$auth.oauth_access_token; },
          describe() { return this._baseUrl() + " as " + this.authHeader(); },
        },
      };
      export default {
        name: "uses-app",
        props: { github },
        methods: { viaMethod() { return this.github.describe(); } },
        run() { return { key: this.github.$auth.api_key, described: this.viaMethod(), slug: this.github.app }; },
      };`);
    const result = await sandbox.invoke(
      spec,
      invocation({
        props: { github: { kind: "app", auth: { api_key: "k-123", oauth_access_token: "tok" } } },
      }),
    );
    expectOk(result);
    expect(result.returnValue).toEqual({
      key: "k-123",
      described: "https://api.github.com as Bearer tok",
      slug: "github",
    });
  });
});

describe("describe", () => {
  test("describes metadata, shorthand props, hooks, methods and run", async () => {
    const definition = await sandbox.describe(
      component(`export default {
        name: "New items", key: "acme-new-items", version: "0.1.2", description: "Emits new items",
        dedupe: "unique",
        props: { db: "$.service.db", http: { type: "$.interface.http", customResponse: true },
          limit: { type: "integer", label: "Limit", min: 1, max: 10, default: 5, optional: true, withLabel: true, unmodelled: 1 } },
        methods: { helper() {}, notAMethod: 3 },
        hooks: { deploy() {}, deactivate() {} },
        async additionalProps() { return {}; },
        run() {},
      }`),
    );
    expect(definition).toEqual({
      name: "New items",
      key: "acme-new-items",
      version: "0.1.2",
      description: "Emits new items",
      type: "source",
      dedupe: "unique",
      props: [
        { name: "db", type: "$.service.db" },
        { name: "http", type: "$.interface.http", customResponse: true },
        {
          name: "limit",
          type: "integer",
          label: "Limit",
          min: 1,
          max: 10,
          default: 5,
          optional: true,
          withLabel: true,
          extraKeys: ["unmodelled"],
        },
      ],
      hooks: ["deploy", "deactivate"],
      methods: ["helper"],
      hasRun: true,
      hasAdditionalProps: true,
    });
  });

  test("resolves propDefinition from the app's propDefinitions, with the prop's own fields on top", async () => {
    const definition = await sandbox.describe(
      component(`
        const app = { type: "app", app: "acme", propDefinitions: {
          project: { type: "string", label: "Project", description: "Pick one", async options() { return []; } },
        } };
        export default {
          name: "defs", type: "action",
          props: { app, project: { propDefinition: [app, "project", (c) => ({ org: c.org })], optional: true, label: "Your project" } },
          run() {},
        };`),
    );
    expect(definition.type).toBe("action");
    expect(definition.props).toEqual([
      { name: "app", type: "app", app: "acme" },
      {
        name: "project",
        type: "string",
        label: "Your project",
        description: "Pick one",
        optional: true,
        remoteOptions: true,
      },
    ]);
  });

  test("keeps static options as given and marks options methods as remote", async () => {
    const definition = await sandbox.describe(
      component(`export default {
        name: "options",
        props: {
          color: { type: "string", options: ["red", "green"] },
          size: { type: "string", options: [{ label: "Small", value: "s" }, { label: "Large", value: "l" }] },
          repo: { type: "string", useQuery: true, async options({ page, query }) { return []; } },
        },
        run() {},
      }`),
    );
    expect(definition.props).toEqual([
      { name: "color", type: "string", options: ["red", "green"] },
      {
        name: "size",
        type: "string",
        options: [
          { label: "Small", value: "s" },
          { label: "Large", value: "l" },
        ],
      },
      { name: "repo", type: "string", useQuery: true, remoteOptions: true },
    ]);
  });

  test("keeps a timer's default and static schedule", async () => {
    const definition = await sandbox.describe(
      component(`export default {
        name: "timers",
        props: {
          timer: { type: "$.interface.timer", default: { intervalSeconds: 900 } },
          nightly: { type: "$.interface.timer", static: { cron: "0 0 * * *" } },
        },
        run() {},
      }`),
    );
    expect(definition.props).toEqual([
      { name: "timer", type: "$.interface.timer", default: { intervalSeconds: 900 } },
      { name: "nightly", type: "$.interface.timer", static: { cron: "0 0 * * *" } },
    ]);
    expect(definition.hooks).toEqual([]);
    expect(definition.type).toBe("source");
  });

  test("refuses an export that is not a component object, or has no name, as not_a_component", async () => {
    const notAnObject = await describeError(component(`export default "hello";`));
    expect(notAnObject.code).toBe("not_a_component");
    expect(notAnObject.message).toMatch(/default export must be the component object/);
    const nameless = await describeError(component(`export default { key: "k", run() {} };`));
    expect(nameless.code).toBe("not_a_component");
    expect(nameless.message).toMatch(/has no name/);
    const noDefault = await describeError(component(`export const name = "x";`));
    expect(noDefault.code).toBe("not_a_component");
  });

  test("reports a bundle that throws at import as load_error with its message", async () => {
    const error = await describeError(
      component(`throw new Error("missing configuration"); export default {};`),
    );
    expect(error.code).toBe("load_error");
    expect(error.message).toMatch(/missing configuration/);
    const syntax = await describeError(component(`export default { name: "x", run() { ( } };`));
    expect(syntax.code).toBe("load_error");
    expect(syntax.message).toMatch(/SyntaxError/);
  });

  test("invoking a bundle that throws at import fails with load_error", async () => {
    const result = await sandbox.invoke(component(`throw new Error("boom at import");`), invocation());
    expect(result.ok).toBe(false);
    expect(result.failure?.reason).toBe("load_error");
    expect(result.failure?.message).toMatch(/boom at import/);
  });
});

describe("isolation: each escape fails alone and the component keeps working", () => {
  const escapes = `
    import fs from "node:fs";
    import { spawn } from "node:child_process";
    import { Worker } from "node:worker_threads";
    import inspector from "node:inspector";
    export default {
      name: "escapes",
      async run(event) {
        console.log("about to", event.do);
        await this.$emit({ before: event.do });
        switch (event.do) {
          case "env": return { ...process.env };
          case "read": return fs.readFileSync(event.path, "utf8");
          case "spawn": spawn("ls"); return "spawned";
          case "worker": new Worker("0", { eval: true }); return "started a worker";
          case "addon": { const m = { exports: {} }; process.dlopen(m, event.path); return "loaded an add-on"; }
          case "inspector": inspector.open(0, "127.0.0.1"); return inspector.url();
          case "loop": for (;;) {}
          case "allocate": { const hog = []; for (;;) hog.push(new Array(100000).fill(Math.random())); }
          case "buffers": { const hog = []; for (;;) hog.push(Buffer.alloc(50_000_000, 1)); }
          case "exit": process.exit(3); return "still running";
          case "kill": process.kill(process.pid, "SIGKILL"); return "still running";
          case "signal-parent": process.kill(process.ppid, 0); return "signalled";
          case "signal-group": process.kill(0, 0); return "signalled";
          case "late-throw": setTimeout(() => { throw new Error("thrown later"); }, 20); return "idle soon";
          default: return { pid: process.pid };
        }
      },
    };`;

  function escaping(heapMb?: number): RunnerSpec {
    return component(escapes, heapMb === undefined ? {} : { heapMb });
  }

  /** Runs one escape attempt, then a normal invocation on the same component, which must succeed. */
  async function attempt(spec: RunnerSpec, event: Record<string, unknown>, timeoutMs = 10_000) {
    const attempted = await sandbox.invoke(spec, invocation({ event, timeoutMs }));
    const next = await sandbox.invoke(spec, invocation({ event: { do: "pid" } }));
    expectOk(next);
    return { attempted, nextPid: (next.returnValue as { pid: number }).pid };
  }

  test("a component sees only PD_COMPONENT in its environment", async () => {
    const spec = escaping();
    const result = await sandbox.invoke(spec, invocation({ event: { do: "env" } }));
    expectOk(result);
    expect(result.returnValue).toEqual({ PD_COMPONENT: spec.componentId });
  });

  test("reading a file of the data directory outside the artifact is denied", async () => {
    const secret = path.join(dataDir(), "secret.txt");
    fs.writeFileSync(secret, "the parent's secret");
    const { attempted } = await attempt(escaping(), { do: "read", path: secret });
    expect(attempted.ok).toBe(false);
    expect(attempted.failure?.reason).toBe("error");
    expect(attempted.failure?.message).toMatch(/Access to this API has been restricted/);
    expect(JSON.stringify(attempted)).not.toMatch(/the parent's secret/);
  });

  test("spawning a process is denied", async () => {
    const { attempted } = await attempt(escaping(), { do: "spawn" });
    expect(attempted.failure?.reason).toBe("error");
    expect(attempted.failure?.message).toMatch(/Access to this API has been restricted/);
  });

  test("starting a worker thread is denied", async () => {
    const { attempted } = await attempt(escaping(), { do: "worker" });
    expect(attempted.failure?.reason).toBe("error");
    expect(attempted.failure?.message).toMatch(/Access to this API has been restricted/);
  });

  test("loading a native add-on is denied", async () => {
    const addon = path.resolve("node_modules/better-sqlite3/build/Release/better_sqlite3.node");
    expect(fs.existsSync(addon)).toBe(true);
    const { attempted } = await attempt(escaping(), { do: "addon", path: addon });
    expect(attempted.failure?.reason).toBe("error");
    expect(attempted.failure?.message).toMatch(/loading addons is disabled/);
  });

  test("opening the inspector is denied", async () => {
    const { attempted } = await attempt(escaping(), { do: "inspector" });
    expect(attempted.failure?.reason).toBe("error");
    expect(attempted.failure?.message).toMatch(/Access to this API has been restricted/);
  });

  test("signalling the server or the process group is denied", async () => {
    const spec = escaping();
    for (const target of ["signal-parent", "signal-group"]) {
      const { attempted } = await attempt(spec, { do: target });
      expect(attempted.failure?.reason).toBe("error");
      expect(attempted.failure?.message).toBe("process.kill: a component may signal only its own process");
    }
  });

  test("an endless loop times out, keeps what it emitted and logged, and a fresh runner serves the next invocation", async () => {
    const spec = escaping();
    const before = await sandbox.invoke(spec, invocation({ event: { do: "pid" } }));
    const { attempted, nextPid } = await attempt(spec, { do: "loop" }, 500);
    expect(attempted.ok).toBe(false);
    expect(attempted.failure).toEqual({ reason: "timeout", message: "timed out after 500 ms" });
    expect(attempted.emits).toEqual([{ event: { before: "loop" }, meta: {} }]);
    expect(attempted.logs.map((line) => line.message)).toEqual(["about to loop"]);
    expect(nextPid).not.toBe((before.returnValue as { pid: number }).pid);
  });

  test("allocating without end fails with out_of_memory under the heap limit", async () => {
    const { attempted } = await attempt(escaping(64), { do: "allocate" }, 20_000);
    expect(attempted.ok).toBe(false);
    expect(attempted.failure?.reason).toBe("out_of_memory");
    expect(attempted.failure?.message).toMatch(/heap limit 64 MB/);
    expect(attempted.emits).toHaveLength(1);
  });

  test.skipIf(process.platform !== "linux")(
    "filling memory with Buffers, outside the V8 heap, fails with out_of_memory",
    async () => {
      const { attempted } = await attempt(escaping(64), { do: "buffers" }, 20_000);
      expect(attempted.ok).toBe(false);
      expect(attempted.failure?.reason).toBe("out_of_memory");
      expect(attempted.failure?.message).toMatch(/over its limit of 256 MB \(heap limit 64 MB\)/);
    },
  );

  test("process.exit(3) fails the invocation with reason exit, after what it emitted", async () => {
    const { attempted } = await attempt(escaping(), { do: "exit" });
    expect(attempted.failure).toEqual({ reason: "exit", message: "the component called process.exit(3)" });
    expect(attempted.emits).toEqual([{ event: { before: "exit" }, meta: {} }]);
  });

  test("a runner killed by a signal is reported as a crash", async () => {
    const { attempted } = await attempt(escaping(), { do: "kill" });
    expect(attempted.failure?.reason).toBe("crash");
    expect(attempted.failure?.message).toMatch(/SIGKILL/);
  });

  test("a runner that crashes while idle is dropped and replaced", async () => {
    const spec = escaping();
    const first = await sandbox.invoke(spec, invocation({ event: { do: "pid" } }));
    expectOk(await sandbox.invoke(spec, invocation({ event: { do: "late-throw" } })));
    const pid = (first.returnValue as { pid: number }).pid;
    await waitUntil("the runner to crash", () => !isAlive(pid), 5000, 20);
    const next = await sandbox.invoke(spec, invocation({ event: { do: "pid" } }));
    expectOk(next);
    expect(next.returnValue).not.toEqual(first.returnValue);
  });

  test("a healthy component is unaffected while others time out, run out of memory, exit and crash", async () => {
    const healthy = component(`export default { name: "healthy", run(event) { return event.n * 2; } }`);
    let failuresDone = false;
    const failures = Promise.all([
      sandbox.invoke(escaping(), invocation({ event: { do: "loop" }, timeoutMs: 500 })),
      sandbox.invoke(escaping(64), invocation({ event: { do: "allocate" }, timeoutMs: 20_000 })),
      sandbox.invoke(escaping(), invocation({ event: { do: "exit" } })),
      sandbox.invoke(escaping(), invocation({ event: { do: "kill" } })),
      sandbox.invoke(
        escaping(),
        invocation({ event: { do: "read", path: path.join(dataDir(), "secret.txt") } }),
      ),
    ]).finally(() => {
      failuresDone = true;
    });
    const healthyResults: InvocationResult[] = [];
    for (let n = 0; !failuresDone || n < 5; n++) {
      healthyResults.push(await sandbox.invoke(healthy, invocation({ event: { n } })));
    }
    const reasons = (await failures).map((result) => result.failure?.reason);
    expect(reasons).toEqual(["timeout", "out_of_memory", "exit", "crash", "error"]);
    healthyResults.forEach((result, n) => {
      expectOk(result);
      expect(result.returnValue).toBe(n * 2);
    });
  });

  test("messages the component forges on the runner's channel are not believed when they do not fit the protocol", async () => {
    // A fresh runner's first invocation has id 1: each forged message names it.
    const spec = component(`export default {
      name: "forger",
      async run() {
        process.send("junk");
        process.send({ t: "no_such_kind", id: 1 });
        process.send({ t: "set", id: 1, key: "k", value: 5 });
        process.send({ t: "emit", id: 1, meta: "not an object" });
        process.send({ t: "done", id: 1, ok: true, returnValue: 42 });
        process.send({ t: "done", id: 1, ok: false });
        return "its own";
      },
    };`);
    const result = await sandbox.invoke(spec, invocation());
    expectOk(result);
    expect(result.returnValue).toBe("its own");
    expect(result.dbWrites).toEqual({});
    expect(result.emits).toEqual([]);
    const next = await sandbox.invoke(spec, invocation());
    expectOk(next);
    expect(next.returnValue).toBe("its own");
  });
});

describe("the pool", () => {
  const pidComponent = `
    let running = 0;
    export default {
      name: "pid",
      async run(event) {
        running++;
        const overlapping = running;
        const startedAt = Date.now();
        await new Promise((resolve) => setTimeout(resolve, event?.sleepMs ?? 0));
        running--;
        return { pid: process.pid, overlapping, startedAt, endedAt: Date.now() };
      },
    };`;
  type PidResult = { pid: number; overlapping: number; startedAt: number; endedAt: number };
  const pidOf = (result: InvocationResult) => (result.returnValue as PidResult).pid;

  test("a warm runner serves consecutive invocations of a component", async () => {
    const spec = component(pidComponent);
    const pids = [];
    for (let i = 0; i < 3; i++) pids.push(pidOf(await sandbox.invoke(spec, invocation())));
    expect(new Set(pids).size).toBe(1);
  });

  test("concurrent invocations of one component run one after the other", async () => {
    const spec = component(pidComponent);
    const [a, b] = await Promise.all([
      sandbox.invoke(spec, invocation({ event: { sleepMs: 150 } })),
      sandbox.invoke(spec, invocation({ event: { sleepMs: 150 } })),
    ]);
    const first = a?.returnValue as PidResult;
    const second = b?.returnValue as PidResult;
    expect([first.overlapping, second.overlapping]).toEqual([1, 1]);
    expect(second.startedAt).toBeGreaterThanOrEqual(first.endedAt);
  });

  test("a new bundle for the same component id replaces its runner", async () => {
    const v1 = component(`export default { name: "v", version: "1", run() { return 1; } }`);
    const v2 = component(`export default { name: "v", version: "2", run() { return 2; } }`, {
      componentId: v1.componentId,
    });
    expect((await sandbox.invoke(v1, invocation())).returnValue).toBe(1);
    expect((await sandbox.invoke(v2, invocation())).returnValue).toBe(2);
  });

  test("evict stops a component's runner; its next invocation starts a fresh one", async () => {
    const spec = component(pidComponent);
    const before = pidOf(await sandbox.invoke(spec, invocation()));
    await sandbox.evict(spec.componentId);
    expect(isAlive(before)).toBe(false);
    const after = pidOf(await sandbox.invoke(spec, invocation()));
    expect(after).not.toBe(before);
  });

  test("with maxRunners 2, a third component evicts the least recently used idle runner, and close stops the rest", async () => {
    const pool = createSandbox({ dataDir: dataDir(), maxRunners: 2 });
    const [a, b, c] = [component(pidComponent), component(pidComponent), component(pidComponent)];
    try {
      const pidA = pidOf(await pool.invoke(a, invocation()));
      const pidB = pidOf(await pool.invoke(b, invocation()));
      expect(pidOf(await pool.invoke(a, invocation()))).toBe(pidA);
      const pidC = pidOf(await pool.invoke(c, invocation()));
      await waitUntil("runner B stopped", () => !isAlive(pidB), 5000, 20);
      expect(isAlive(pidA)).toBe(true);
      expect(pidOf(await pool.invoke(a, invocation()))).toBe(pidA);
      expect(pidOf(await pool.invoke(b, invocation()))).not.toBe(pidB);
      await pool.close();
      expect([pidA, pidC].filter(isAlive)).toEqual([]);
      expect((await pool.invoke(a, invocation())).failure?.message).toBe("the sandbox is closed");
    } finally {
      await pool.close();
    }
  });

  test("with a memory budget, a runner that would not fit stops the least recently used idle one", async () => {
    // Runners not measured yet count as 10 MB each: two do not fit in 15.
    const pool = createSandbox({ dataDir: dataDir(), maxRunners: 10, memoryBudgetMb: 15 });
    const [a, b] = [component(pidComponent), component(pidComponent)];
    try {
      const pidA = pidOf(await pool.invoke(a, invocation()));
      const pidB = pidOf(await pool.invoke(b, invocation()));
      await waitUntil("runner A stopped", () => !isAlive(pidA), 5000, 20);
      expect(isAlive(pidB)).toBe(true);
    } finally {
      await pool.close();
    }
  });

  test("an idle runner whose measured PSS grew past the memory budget is stopped", async () => {
    const holder = component(`
      const kept = [];
      export default {
        name: "holder",
        async run() {
          // 96 MB of pages written, so they are resident and the runner's own.
          kept.push(Buffer.alloc(96 * 1024 * 1024, 1));
          return { pid: process.pid };
        },
      };`);
    const pool = createSandbox({ dataDir: dataDir(), maxRunners: 10, memoryBudgetMb: 80 });
    try {
      const pid = pidOf(await pool.invoke(holder, invocation()));
      expect(isAlive(pid)).toBe(true);
      // Measured within 5 s, then trimmed.
      await waitUntil("the runner trimmed", () => !isAlive(pid), 15_000, 20);
    } finally {
      await pool.close();
    }
  });
});

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Actions over REST, running in the real sandbox: `POST /v1/actions/run` with the `$` API (return
 * value, exports, summary, logs, `any` props, flow exit, respond, and sends performed after the run
 * through the SSRF guard and a local SMTP server), and publishing by key and version.
 */
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ActionRunParams, ActionRunResult } from "../../src/client/types.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { startTestServer, type TestServer } from "../support/server.js";

const NETWORK_TIMEOUT = 120_000;
const sqlite = dialects.find((candidate) => candidate.name === "sqlite") as (typeof dialects)[number];

interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
}

interface LocalSmtp {
  readonly url: string;
  readonly mails: ReceivedMail[];
  close(): Promise<void>;
}

/** An SMTP server on 127.0.0.1 that keeps every message it receives. */
async function startSmtp(): Promise<LocalSmtp> {
  const mails: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (chunk: Buffer) => chunks.push(chunk));
      stream.on("end", () => {
        mails.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : "",
          to: session.envelope.rcptTo.map((address) => address.address),
          raw: Buffer.concat(chunks).toString("utf8"),
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** An action module: `body` is the code of `run({ steps, $ })`. */
function action(body: string, extra = ""): string {
  return `export default {
    name: "Test action",
    type: "action",
    ${extra}
    async run({ steps, $ }) { ${body} },
  };`;
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`actions API on ${dialect.name}`, () => {
    let database: TestDatabase;
    let bareDatabase: TestDatabase;
    /** Allows 127.0.0.0/8 and sends email through the local SMTP server. */
    let sluice: TestServer;
    /** Neither: the SSRF guard refuses loopback, and SMTP is not configured. */
    let bare: TestServer;
    let recorder: Recorder;
    let smtp: LocalSmtp;
    const run = (params: ActionRunParams, on: TestServer = sluice): Promise<ActionRunResult> =>
      on.client.runAction(params);

    beforeAll(async () => {
      // The second server's store is SQLite on both runs: what it shows (outbound configuration)
      // does not depend on the store, and two PostgreSQL schemas migrated by one process collide
      // (Kysely finds its migration tables in the first schema and skips creating them).
      [database, bareDatabase] = await Promise.all([dialect.create(), sqlite.create()]);
      [recorder, smtp] = await Promise.all([startRecorder(), startSmtp()]);
      sluice = await startTestServer(database, {
        env: {
          SLUICE_ALLOWED_CIDRS: "127.0.0.0/8",
          SLUICE_SMTP_URL: smtp.url,
          SLUICE_SMTP_FROM: "Sluice <sluice@example.test>",
          SLUICE_SMTP_TO: "owner@example.test",
        },
      });
      bare = await startTestServer(bareDatabase);
    });
    afterAll(async () => {
      await sluice?.close();
      await bare?.close();
      await recorder?.close();
      await smtp?.close();
      await database?.cleanup();
      await bareDatabase?.cleanup();
    });

    it("runs an action: return value, exports, summary and logs; run gets the steps passed", async () => {
      const result = await run({
        component_code: action(
          `console.log("greeting", this.who);
           $.export("greeting", this.greet(this.who));
           $.export("$summary", "Greeted " + this.who);
           return { order: steps.trigger.event.order, who: this.who };`,
          `props: { who: { type: "string" } },
           methods: { greet(name) { return "Hello, " + name + "!"; } },`,
        ),
        configured_props: { who: "Ada" },
        steps: { trigger: { event: { order: 42 } } },
      });
      expect(result.failure).toBeNull();
      expect(result).toMatchObject({
        ok: true,
        return_value: { order: 42, who: "Ada" },
        exports: { greeting: "Hello, Ada!" },
        summary: "Greeted Ada",
        flow_exit: null,
        respond: null,
        sends: [],
      });
      expect(result.component_id).toMatch(/^sc_/);
      expect(result.logs.map((line) => line.message)).toEqual(["greeting Ada"]);
      expect(result.duration_ms).toBeGreaterThanOrEqual(0);
    });

    it("an `any` prop takes any JSON value as given; a source may not declare one", async () => {
      const code = action(
        "return { value: this.value, type: Array.isArray(this.value) ? 'array' : typeof this.value };",
        "props: { value: { type: 'any' } },",
      );
      for (const value of [{ nested: [1, "two"] }, [1, 2, 3], 7, "text", true]) {
        const result = await run({ component_code: code, configured_props: { value } });
        expect(result.return_value).toEqual({
          value,
          type: Array.isArray(value) ? "array" : typeof value,
        });
      }
      const refused = await sluice.client
        .saveComponent({
          component_code: `export default { name: "any source", props: { value: { type: "any" } }, async run() {} };`,
        })
        .catch((error: unknown) => error);
      expect(refused).toMatchObject({ status: 400, code: "invalid_prop" });
      expect(String((refused as Error).message)).toContain("allowed in actions only");
    });

    it("`return $.flow.exit(reason)` ends the run there with the reason; a bare $.flow.exit() lets the step finish", async () => {
      const returned = await run({
        component_code: action(`
          if (!steps.trigger) return $.flow.exit("nothing to do");
          console.log("not reached");`),
      });
      expect(returned).toMatchObject({
        ok: true,
        flow_exit: { reason: "nothing to do" },
        return_value: null,
      });
      expect(returned.logs).toEqual([]);

      const bareExit = await run({
        component_code: action(`
          $.flow.exit();
          console.log("the step goes on");
          return "finished";`),
      });
      expect(bareExit).toMatchObject({ ok: true, flow_exit: { reason: null }, return_value: "finished" });
      expect(bareExit.logs.map((line) => line.message)).toEqual(["the step goes on"]);
    });

    it("$.respond is recorded: status, headers, body and immediate", async () => {
      const result = await run({
        component_code: action(`
          await $.respond({ status: 201, headers: { "x-made-by": "action" }, body: { created: true }, immediate: true });
          return "after respond";`),
      });
      expect(result.respond).toEqual({
        status: 201,
        headers: { "x-made-by": "action" },
        body: { created: true },
        immediate: true,
      });
      expect(result.return_value).toBe("after respond");

      const twice = await run({
        component_code: action(
          `await $.respond({ status: 200, body: "one" }); await $.respond({ status: 200 });`,
        ),
      });
      expect(twice.ok).toBe(false);
      expect(twice.failure?.message).toContain("already called");
      expect(twice.respond).toMatchObject({ status: 200, body: "one", immediate: false });
    });

    it("$.send.http is queued and sent after the run, through the SSRF guard, with params, headers, auth and data", async () => {
      recorder.requests.length = 0;
      const result = await run({
        component_code: action(
          `$.send.http({
             method: "post",
             url: this.target + "/hook",
             params: { a: "1", list: ["x", "y"] },
             headers: { "X-Trace": "t-1" },
             auth: { username: "user", password: "pass-word" },
             data: { order: 42 },
           });
           return "queued";`,
          `props: { target: "string" },`,
        ),
        configured_props: { target: recorder.url },
      });
      expect(result.ok).toBe(true);
      expect(result.sends).toHaveLength(1);
      expect(result.sends[0]).toMatchObject({
        kind: "http",
        input: {
          method: "POST",
          url: `${recorder.url}/hook`,
          auth: { username: "user", password: "********" },
        },
        outcome: { ok: true, status: 200 },
      });
      const [request] = await recorder.waitFor(1);
      expect(request?.method).toBe("POST");
      expect(request?.url).toBe("/hook?a=1&list=x&list=y");
      expect(request?.headers["x-trace"]).toBe("t-1");
      expect(request?.headers.authorization).toBe(
        `Basic ${Buffer.from("user:pass-word").toString("base64")}`,
      );
      expect(request?.headers["content-type"]).toBe("application/json");
      expect(JSON.parse(request?.body ?? "")).toEqual({ order: 42 });
    });

    it("without SLUICE_ALLOWED_CIDRS, $.send.http to a loopback address is refused by the SSRF guard; the run still succeeds", async () => {
      recorder.requests.length = 0;
      const result = await run(
        {
          component_code: action(
            `$.send.http({ method: "GET", url: this.target }); return "ok";`,
            `props: { target: "string" },`,
          ),
          configured_props: { target: `${recorder.url}/private` },
        },
        bare,
      );
      expect(result.ok).toBe(true);
      expect(result.sends[0]?.outcome.ok).toBe(false);
      expect(result.sends[0]?.outcome.error).toMatch(/loopback address.*SLUICE_ALLOWED_CIDRS/);
      expect(recorder.requests).toHaveLength(0);
    });

    it("$.send.email goes through the configured SMTP server to the configured recipient", async () => {
      smtp.mails.length = 0;
      const result = await run({
        component_code: action(
          `$.send.email({ subject: "Order 42 shipped", text: "The parcel left the warehouse." });`,
        ),
      });
      expect(result.sends).toEqual([
        {
          kind: "email",
          input: { subject: "Order 42 shipped", text: "The parcel left the warehouse." },
          outcome: { ok: true, message_id: expect.any(String) },
        },
      ]);
      expect(smtp.mails).toHaveLength(1);
      const [mail] = smtp.mails;
      expect(mail?.from).toBe("sluice@example.test");
      expect(mail?.to).toEqual(["owner@example.test"]);
      expect(mail?.raw).toContain("Subject: Order 42 shipped");
      expect(mail?.raw).toContain("The parcel left the warehouse.");
    });

    it("without SMTP configured, $.send.email fails with a clear error on that send", async () => {
      const result = await run(
        { component_code: action(`$.send.email({ subject: "hi", text: "there" });`) },
        bare,
      );
      expect(result.ok).toBe(true);
      expect(result.sends[0]?.outcome).toEqual({
        ok: false,
        error: expect.stringContaining("SMTP is not configured: set SLUICE_SMTP_URL"),
      });
    });

    it("$.send.s3 fails as not configured; $.send.emit and $.send.sse are recorded in the result", async () => {
      const result = await run({
        component_code: action(`
          $.send.s3({ bucket: "b", prefix: "p/", payload: { a: 1 } });
          $.send.emit({ raw_event: { n: 1 } });
          $.send.sse({ channel: "updates", payload: { n: 2 } });`),
      });
      expect(result.sends.map((send) => [send.kind, send.outcome])).toEqual([
        ["s3", { ok: false, error: expect.stringContaining("$.send.s3 is not configured") }],
        ["emit", { ok: true, recorded: true }],
        ["sse", { ok: true, recorded: true }],
      ]);
      expect(result.sends[1]?.input).toEqual({ raw_event: { n: 1 } });
      expect(result.sends[2]?.input).toEqual({ channel: "updates", payload: { n: 2 } });
    });

    it("a throwing action gives ok:false with the error and its stack; its queued sends are not sent", async () => {
      recorder.requests.length = 0;
      const result = await run({
        component_code: action(
          `console.log("before the error");
           $.send.http({ method: "POST", url: this.target, data: "x" });
           throw new TypeError("the order has no lines");`,
          `props: { target: "string" },`,
        ),
        configured_props: { target: recorder.url },
      });
      expect(result.ok).toBe(false);
      expect(result.failure).toMatchObject({ reason: "error", message: "TypeError: the order has no lines" });
      expect(result.failure?.stack).toContain("the order has no lines");
      expect(result.failure?.stack).toMatch(/at /);
      expect(result.logs.map((line) => line.message)).toEqual(["before the error"]);
      expect(result.sends[0]?.outcome).toEqual({
        ok: false,
        error: "not sent: the action failed",
        skipped: true,
      });
      // The run answers once its sends are settled: this one was skipped, nothing is on its way.
      expect(recorder.requests).toHaveLength(0);
    });

    it("bad $ calls throw in the action with a message saying what to fix", async () => {
      const result = await run({ component_code: action(`$.send.http({ url: "not a url" });`) });
      expect(result.ok).toBe(false);
      expect(result.failure?.message).toContain("$.send.http: method is required");
    });

    it("secret prop values are masked in logs and failures", async () => {
      const secret = "sk-live-never-shown-4242";
      const result = await run({
        component_code: action(
          `console.log("token is", this.token); throw new Error("bad " + this.token);`,
          `props: { token: { type: "string", secret: true } },`,
        ),
        configured_props: { token: secret },
      });
      expect(JSON.stringify(result)).not.toContain(secret);
      expect(result.logs[0]?.message).toBe("token is ********");
    });

    it("a source is refused: sources are deployed, not run as actions; props are checked", async () => {
      const source = await sluice.client
        .runAction({ component_code: `export default { name: "a source", async run() {} };` })
        .catch((error: unknown) => error);
      expect(source).toMatchObject({ status: 400, code: "not_an_action" });
      const missing = await sluice.client
        .runAction({ component_code: action("return this.n;", "props: { n: 'integer' },") })
        .catch((error: unknown) => error);
      expect(missing).toMatchObject({ status: 400, code: "invalid_prop" });
      const nothing = await sluice.client.runAction({}).catch((error: unknown) => error);
      expect(nothing).toMatchObject({ status: 400 });
    });

    it(
      'an action that imports "lodash@4.17.20" runs with that version',
      async () => {
        const result = await run({
          component_code: `import _ from "lodash@4.17.20";
            export default { name: "lodash action", type: "action",
              async run({ $ }) { $.export("chunks", _.chunk([1, 2, 3], 2)); return _.VERSION; } };`,
        });
        expect(result.failure).toBeNull();
        expect(result.return_value).toBe("4.17.20");
        expect(result.exports).toEqual({ chunks: [[1, 2], [3]] });
      },
      NETWORK_TIMEOUT,
    );

    describe("publishing", () => {
      const versioned = (version: string, greeting: string, key = "test-greeter") =>
        `export default { name: "Greeter", key: "${key}", version: "${version}", type: "action",
           props: { who: { type: "string", optional: true, default: "world" } },
           async run({ $ }) { $.export("$summary", "v${version}"); return "${greeting}, " + this.who; } };`;

      it("publishes under key and version; a new version keeps the old; the same version with other code is a 409", async () => {
        const first = await sluice.client.publishComponent({ component_code: versioned("1.0.0", "Hello") });
        expect(first).toMatchObject({
          key: "test-greeter",
          version: "1.0.0",
          type: "action",
          name: "Greeter",
        });
        expect(first.id).toMatch(/^sc_/);
        // Publishing the same code again is a no-op.
        expect(
          (await sluice.client.publishComponent({ component_code: versioned("1.0.0", "Hello") })).id,
        ).toBe(first.id);
        const second = await sluice.client.publishComponent({ component_code: versioned("1.1.0", "Hi") });
        expect(second.id).not.toBe(first.id);

        const conflict = await sluice.client
          .publishComponent({ component_code: versioned("1.1.0", "Changed") })
          .catch((error: unknown) => error);
        expect(conflict).toMatchObject({ status: 409, code: "version_exists" });
        expect(String((conflict as Error).message)).toContain("bump the version");

        const listed = await sluice.client.listPublished({ key: "test-greeter" });
        expect(listed.data.map((item) => item.version)).toEqual(["1.1.0", "1.0.0"]);
        expect(listed.page_info.total_count).toBe(2);

        const latest = await run({ key: "test-greeter", configured_props: { who: "Ada" } });
        expect(latest).toMatchObject({ ok: true, return_value: "Hi, Ada", summary: "v1.1.0" });
        expect(latest.component_version).toBe("1.1.0");
        const pinned = await run({ key: "test-greeter@1.0.0" });
        expect(pinned).toMatchObject({ ok: true, return_value: "Hello, world", component_version: "1.0.0" });

        const detail = await sluice.client.getPublished("test-greeter");
        expect(detail.version).toBe("1.1.0");
        expect(detail.versions.map((item) => item.version)).toEqual(["1.1.0", "1.0.0"]);
      });

      it("the latest version is the highest semantic version, not the last published", async () => {
        await sluice.client.publishComponent({ component_code: versioned("2.0.0", "Two", "order-test") });
        await sluice.client.publishComponent({ component_code: versioned("1.9.3", "Patch", "order-test") });
        expect((await run({ key: "order-test" })).return_value).toBe("Two, world");
      });

      it("unpublishes one version, then every version; unknown keys are 404", async () => {
        await sluice.client.publishComponent({ component_code: versioned("0.1.0", "A", "gone-soon") });
        await sluice.client.publishComponent({ component_code: versioned("0.2.0", "B", "gone-soon") });
        expect(await sluice.client.unpublish("gone-soon@0.2.0")).toEqual({
          key: "gone-soon",
          versions: ["0.2.0"],
          deleted: true,
        });
        expect((await run({ key: "gone-soon" })).return_value).toBe("A, world");
        const missingVersion = await run({ key: "gone-soon@0.2.0" }).catch((error: unknown) => error);
        expect(missingVersion).toMatchObject({ status: 404 });
        expect(String((missingVersion as Error).message)).toContain("0.1.0");
        expect(await sluice.client.unpublish("gone-soon")).toMatchObject({
          versions: ["0.1.0"],
          deleted: true,
        });
        await expect(sluice.client.unpublish("gone-soon")).rejects.toMatchObject({ status: 404 });
        await expect(run({ key: "gone-soon" })).rejects.toMatchObject({ status: 404 });
      });

      it("publishing needs a key and a version; another account does not see what one publishes", async () => {
        const noKey = await sluice.client
          .publishComponent({
            component_code: `export default { name: "x", version: "1", type: "action", run() {} };`,
          })
          .catch((error: unknown) => error);
        expect(noKey).toMatchObject({ status: 400, code: "invalid_component" });
        expect(String((noKey as Error).message)).toContain("has no key");
        const noVersion = await sluice.client
          .publishComponent({
            component_code: `export default { name: "x", key: "x-y", type: "action", run() {} };`,
          })
          .catch((error: unknown) => error);
        expect(String((noVersion as Error).message)).toContain("has no version");

        const other = await sluice.newAccount("other publisher");
        expect((await other.client.listPublished()).data).toEqual([]);
        await expect(other.client.runAction({ key: "test-greeter" })).rejects.toMatchObject({ status: 404 });
      });
    });
  });
}

/**
 * Workflows over REST, with real runs in the sandbox: an HTTP-triggered three-step workflow with
 * expressions and `$.respond`, `$.flow.exit`, a failing step whose `$errors` event reaches a
 * subscribed webhook, an action importing a pinned npm package, replay, `$.send.emit` events,
 * the trigger kinds (manual, http, source, timer, uses), retries, updates and isolation.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from "vitest";
import type { SluiceClient } from "../../src/client/client.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { heldAnswer, type Recorder, startRecorder } from "../support/recorder.js";
import { rawRequest, startOtherNode, startTestServer, type TestServer } from "../support/server.js";
import { slowDeletesFrom } from "../support/slow-deletes.js";
import { holdsThroughout } from "../support/wait.js";
import {
  DeliveryApi,
  deployEmitter,
  emit,
  settledDeliveries,
  verifyDelivery,
  waitUntil,
} from "../support/webhook-delivery.js";

const NETWORK_TIMEOUT = 120_000;

interface WorkflowView {
  id: string;
  name: string;
  active: boolean;
  endpoint_url: string | null;
  trigger: Record<string, unknown>;
  steps: { name: string; component_id: string; props: Record<string, unknown> }[];
}

interface StepView {
  name: string;
  status: string;
  return_value: unknown;
  exports: Record<string, unknown>;
  summary: string | null;
  logs: { message: string }[];
  error: { message: string; stack: string | null } | null;
  flow_exit: { reason: string | null } | null;
}

interface RunView {
  id: string;
  workflow_id: string;
  status: string;
  trigger: { event: unknown; context: Record<string, unknown> };
  steps: StepView[];
  error: { step: string; message: string; stack: string | null } | null;
  exit: { step: string; reason: string | null } | null;
  attempts: number;
  replay_of: string | null;
}

/** An inline action step: `body` is the code of `run({ steps, $ })`. */
function code(body: string, props = "{}", imports = ""): string {
  return `${imports}
export default { name: "step", type: "action", props: ${props}, async run({ steps, $ }) { ${body} } };`;
}

const deploy = (client: SluiceClient, document: unknown) =>
  client.data<WorkflowView>("POST", "/v1/workflows", { body: document });
const getRun = (client: SluiceClient, id: string) => client.data<RunView>("GET", `/v1/workflow_runs/${id}`);

async function finished(client: SluiceClient, runId: string, timeoutMs = 30_000): Promise<RunView> {
  return waitUntil(
    `run ${runId} to finish`,
    async () => {
      const run = await getRun(client, runId);
      return run.status === "queued" || run.status === "running" ? undefined : run;
    },
    timeoutMs,
  );
}

async function runs(client: SluiceClient, workflowId: string): Promise<RunView[]> {
  const page = await client.request<{ data: RunView[] }>("GET", `/v1/workflows/${workflowId}/runs`, {
    query: { limit: 100 },
  });
  return page.data;
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`workflows API on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let client: SluiceClient;
    let receiver: Recorder;

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database, {
        // Components may reach the test's own servers on loopback (a step held until released).
        env: {
          SLUICE_ALLOWED_CIDRS: "127.0.0.0/8",
          SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8",
          SLUICE_RETRY_SCHEDULE: "0,0.2,0.2",
          SLUICE_RUN_RETRY_SCHEDULE: "0,0.2,0.2",
        },
      });
      client = sluice.client;
      receiver = await startRecorder();
    });
    afterAll(async () => {
      await sluice?.close();
      await receiver?.close();
      await database?.cleanup();
    });

    it("runs a three-step HTTP-triggered workflow with expressions and answers with $.respond", async () => {
      const workflow = await deploy(client, {
        name: "order-flow",
        trigger: { http: { customResponse: true } },
        steps: [
          {
            name: "enrich",
            code: code(
              `$.export("$summary", "enriched " + this.order.id);
               return { ...this.order, total: this.order.items.reduce((sum, item) => sum + item.price, 0) };`,
              `{ order: { type: "object" } }`,
            ),
            props: { order: "{{steps.trigger.event.body}}" },
          },
          {
            name: "label",
            code: code(
              `$.export("kind", typeof this.total); return this.greeting;`,
              `{ greeting: { type: "string" }, total: { type: "integer" } }`,
            ),
            props: {
              greeting: "Order {{steps.enrich.$return_value.id}} costs {{steps.enrich.$return_value.total}}",
              total: "{{ steps.enrich.$return_value.total }}",
            },
          },
          {
            // As in issue #6's example (and Pipedream's code steps): no name; the step's is used.
            name: "reply",
            code: `export default { type: "action", async run({ steps, $ }) {
              await $.respond({ status: 201, headers: { "x-order": String(steps.enrich.$return_value.id) },
                body: { message: steps.label.$return_value, kind: steps.label.kind } });
            } }`,
          },
        ],
      });
      expect(workflow.id).toMatch(/^p_/);
      expect(workflow.endpoint_url).toMatch(/\/e\/[0-9a-f]{32}$/);

      const response = await fetch(`${workflow.endpoint_url}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ id: 42, items: [{ price: 3 }, { price: 4 }] }),
      });
      expect(response.status, await response.clone().text()).toBe(201);
      expect(response.headers.get("x-order")).toBe("42");
      // The exactly-one expression kept its type (a number), the mixed one became text.
      expect(await response.json()).toEqual({ message: "Order 42 costs 7", kind: "number" });

      const runId = response.headers.get("x-sluice-run-id") as string;
      const run = await finished(client, runId);
      expect(run.status).toBe("success");
      expect(run.trigger.event).toMatchObject({ method: "POST", body: { id: 42 } });
      expect(run.steps.map((step) => [step.name, step.status])).toEqual([
        ["enrich", "success"],
        ["label", "success"],
        ["reply", "success"],
      ]);
      expect(run.steps[0]?.summary).toBe("enriched 42");
      expect(run.steps[0]?.return_value).toMatchObject({ id: 42, total: 7 });
      expect(run.steps[1]?.exports).toEqual({ kind: "number" });
    });

    it("answers a clear 5xx when a workflow promised a response and gave none, and 200 at once without customResponse", async () => {
      const silent = await deploy(client, {
        name: "silent",
        trigger: { http: { customResponse: true } },
        steps: [{ name: "noop", code: code("return 1;") }],
      });
      const answer = await rawRequest(`${silent.endpoint_url}`, { method: "POST" });
      expect(answer.status).toBe(502);
      expect(answer.body).toMatchObject({ error: { code: "no_response" } });

      const plain = await deploy(client, {
        name: "plain-http",
        trigger: { http: {} },
        steps: [{ name: "work", code: code("return steps.trigger.event.query;") }],
      });
      const response = await fetch(`${plain.endpoint_url}/hook?x=1`);
      expect(response.status).toBe(200);
      const run = await finished(client, response.headers.get("x-sluice-run-id") as string);
      expect(run.steps[0]?.return_value).toEqual({ x: "1" });
    });

    it("ends the whole workflow at $.flow.exit, with the reason recorded", async () => {
      const workflow = await deploy(client, {
        name: "exits",
        steps: [
          {
            name: "check",
            code: code(`if (steps.trigger.event.skip) return $.flow.exit("nothing to do"); return "go";`),
          },
          { name: "after", code: code(`return "ran";`) },
        ],
      });
      const started = await client.request<{ data: RunView }>("POST", `/v1/workflows/${workflow.id}/runs`, {
        body: { event: { skip: true } },
      });
      const run = await finished(client, started.data.id);
      expect(run.status).toBe("exited");
      expect(run.exit).toEqual({ step: "check", reason: "nothing to do" });
      expect(run.steps.map((step) => step.name)).toEqual(["check"]);

      const goes = await client.request<{ data: RunView }>("POST", `/v1/workflows/${workflow.id}/runs`, {
        body: { event: { skip: false } },
      });
      const full = await finished(client, goes.data.id);
      expect(full.status).toBe("success");
      expect(full.steps.map((step) => step.return_value)).toEqual(["go", "ran"]);
    });

    it("fails the run at a throwing step, skips the rest, and delivers its $errors event to a subscribed webhook", async () => {
      const api = new DeliveryApi(client);
      const errors = await startRecorder();
      try {
        const workflow = await deploy(client, {
          name: "fails",
          steps: [
            { name: "first", code: code(`return "ok";`) },
            {
              name: "boom",
              code: code(`throw new Error("card declined for " + steps.trigger.event.order);`),
            },
            { name: "never", code: code(`return "should not run";`) },
          ],
        });
        const webhook = await api.createWebhook({ url: errors.url, name: "errors" });
        await client.data("POST", "/v1/subscriptions", {
          body: { emitter_id: workflow.id, listener_id: webhook.id, event_name: "$errors" },
        });
        const started = await client.request<{ data: RunView }>("POST", `/v1/workflows/${workflow.id}/runs`, {
          body: { event: { order: 7 } },
        });
        const run = await finished(client, started.data.id);
        expect(run.status).toBe("error");
        expect(run.steps.map((step) => [step.name, step.status])).toEqual([
          ["first", "success"],
          ["boom", "error"],
        ]);
        expect(run.error).toMatchObject({ step: "boom", message: "card declined for 7" });
        expect(run.steps[1]?.error?.stack).toContain("card declined for 7");

        const [delivery] = await errors.waitFor(1, 15_000);
        const payload = verifyDelivery(delivery as never, webhook.signing_secret) as unknown as Record<
          string,
          unknown
        >;
        expect(payload).toMatchObject({
          workflow_id: workflow.id,
          run_id: run.id,
          step: "boom",
          error: { message: "card declined for 7" },
        });
        expect(delivery?.headers["x-sluice-channel"]).toBe("$errors");

        const events = await client.request<{ data: { metadata: { name: string } }[] }>(
          "GET",
          `/v1/workflows/${workflow.id}/event_summaries`,
        );
        expect(events.data.map((event) => event.metadata.name)).toEqual(["$errors"]);
      } finally {
        await errors.close();
      }
    });

    it(
      "runs an action that imports an npm package at a pinned version",
      async () => {
        const workflow = await deploy(client, {
          name: "pinned",
          steps: [
            {
              name: "lodash",
              code: code(
                `return { version: _.VERSION, chunks: _.chunk(this.items, 2) };`,
                `{ items: { type: "any" } }`,
                `import _ from "lodash@4.17.20";`,
              ),
              props: { items: "{{steps.trigger.event.items}}" },
            },
          ],
        });
        const started = await client.request<{ data: RunView }>("POST", `/v1/workflows/${workflow.id}/runs`, {
          body: { event: { items: [1, 2, 3] } },
        });
        const run = await finished(client, started.data.id);
        expect(run.steps[0]?.return_value, JSON.stringify(run)).toEqual({
          version: "4.17.20",
          chunks: [[1, 2], [3]],
        });
      },
      NETWORK_TIMEOUT,
    );

    it("replays a run with its trigger event against the workflow as it is now", async () => {
      const document = (greeting: string) => ({
        name: "replayed",
        steps: [{ name: "greet", code: code(`return "${greeting} " + steps.trigger.event.who;`) }],
      });
      const workflow = await deploy(client, document("hello"));
      const started = await client.request<{ data: RunView }>("POST", `/v1/workflows/${workflow.id}/runs`, {
        body: { event: { who: "ada" } },
      });
      const original = await finished(client, started.data.id);
      expect(original.steps[0]?.return_value).toBe("hello ada");

      const updated = await client.data<WorkflowView>("PUT", `/v1/workflows/${workflow.id}`, {
        body: document("bonjour"),
      });
      expect(updated.id).toBe(workflow.id);
      const replay = await client.request<{ data: RunView }>(
        "POST",
        `/v1/workflow_runs/${original.id}/replay`,
      );
      expect(replay.data.replay_of).toBe(original.id);
      const again = await finished(client, replay.data.id);
      expect(again.trigger.event).toEqual({ who: "ada" });
      expect(again.steps[0]?.return_value).toBe("bonjour ada");
      expect((await runs(client, workflow.id)).map((run) => run.id)).toEqual([again.id, original.id]);
    });

    it("stores $.send.emit and $.send.sse events, lists them, and delivers emits to a webhook subscribed to the workflow", async () => {
      const api = new DeliveryApi(client);
      const webhook = await api.createWebhook({ url: receiver.url, name: "emits" });
      const workflow = await deploy(client, {
        name: "emitter-flow",
        steps: [
          {
            name: "send",
            code: code(`$.send.emit({ raw_event: { doubled: steps.trigger.event.n * 2 } });
                        $.send.emit({ raw_event: { note: "side" }, name: "notes" });
                        $.send.sse({ channel: "updates", payload: { live: true } });`),
          },
        ],
      });
      await client.data("POST", "/v1/subscriptions", {
        body: { emitter_id: workflow.id, listener_id: webhook.id },
      });
      const streamed: { metadata: { name: string } }[] = [];
      const stop = new AbortController();
      let opened: () => void = () => {};
      const open = new Promise<void>((resolve) => {
        opened = resolve;
      });
      const following = client
        .follow<{ id: string; metadata: { name: string } }>(
          `/sse/p/${workflow.id}/emits`,
          (item) => streamed.push(item),
          stop.signal,
          { onOpen: () => opened() },
        )
        .catch(() => {});
      await open;
      const started = await client.request<{ data: RunView }>("POST", `/v1/workflows/${workflow.id}/runs`, {
        body: { event: { n: 21 } },
      });
      await finished(client, started.data.id);
      const events = await client.request<{
        data: { event: unknown; metadata: { name: string; emitter_id: string } }[];
      }>("GET", `/v1/workflows/${workflow.id}/event_summaries`);
      expect(events.data.map((event) => [event.metadata.name, event.event])).toEqual([
        ["$sse:updates", { live: true }],
        ["notes", { note: "side" }],
        ["", { doubled: 42 }],
      ]);
      await waitUntil("the workflow's events on its SSE stream", () => streamed.length === 3);
      stop.abort();
      await following;
      expect(streamed.map((item) => item.metadata.name)).toEqual(["", "notes", "$sse:updates"]);
      const delivered = await receiver.waitFor(2, 15_000);
      // The $sse: channel is reserved: a subscription to every channel does not receive it. The
      // run's events and their deliveries are committed; once those settle, no request is to come.
      const settled = await settledDeliveries(api, webhook.id);
      expect(settled.map((delivery) => delivery.status)).toEqual(["delivered", "delivered"]);
      expect(receiver.requests).toHaveLength(2);
      const bodies = delivered.map((request) => verifyDelivery(request, webhook.signing_secret) as unknown);
      expect(bodies).toEqual(expect.arrayContaining([{ doubled: 42 }, { note: "side" }]));
    });

    it("runs when its source emits (a source trigger, with a channel filter)", async () => {
      const source = await deployEmitter(client, "orders-source");
      const workflow = await deploy(client, {
        name: "on-source",
        trigger: { source: source.id, event_name: "paid" },
        steps: [{ name: "see", code: code(`return steps.trigger.event.tag;`) }],
      });
      expect(workflow.trigger).toMatchObject({ type: "source", source_id: source.id, event_name: "paid" });
      await emit(source, { tag: "ignored" });
      await emit(source, { tag: "paid-1", channel: "paid" });
      const [run] = await waitUntil("a run of the source trigger", async () => {
        const list = await runs(client, workflow.id);
        return list.length > 0 && list.every((item) => item.status === "success") ? list : undefined;
      });
      expect(run?.steps[0]?.return_value).toBe("paid-1");
      expect(run?.trigger.context).toMatchObject({ emitter_id: source.id, channel: "paid" });
      // Only the event on the channel ran it.
      expect(await runs(client, workflow.id)).toHaveLength(1);
    });

    it("runs on a timer, and a uses trigger deploys a source for the workflow", async () => {
      const timed = await deploy(client, {
        name: "ticking",
        trigger: { timer: { intervalSeconds: 1 } },
        steps: [{ name: "tick", code: code(`return typeof steps.trigger.event.timestamp;`) }],
      });
      expect(timed.trigger).toMatchObject({ type: "timer", interval_seconds: 1 });
      const [tick] = await waitUntil(
        "a timer run",
        async () => {
          const list = (await runs(client, timed.id)).filter((run) => run.status === "success");
          return list.length > 0 ? list : undefined;
        },
        20_000,
      );
      expect(tick?.steps[0]?.return_value).toBe("number");

      const used = await deploy(client, {
        name: "uses-source",
        trigger: {
          code: `export default { name: "poller", props: { http: { type: "$.interface.http" }, prefix: { type: "string" } },
                   async run(event) { this.$emit({ text: this.prefix + event.body.text }); } };`,
          props: { prefix: ">> " },
        },
        steps: [{ name: "echo", code: code(`return steps.trigger.event.text;`) }],
      });
      const sourceId = used.trigger.source_id as string;
      expect(sourceId).toMatch(/^dc_/);
      const source = await client.data<{ endpoint_url: string }>("GET", `/v1/sources/${sourceId}`);
      await emit({ id: sourceId, endpointUrl: source.endpoint_url }, { text: "hi" } as never);
      const [run] = await waitUntil("a run of the uses trigger", async () => {
        const list = (await runs(client, used.id)).filter((item) => item.status === "success");
        return list.length > 0 ? list : undefined;
      });
      expect(run?.steps[0]?.return_value).toBe(">> hi");

      // The source belongs to the workflow: it goes when the workflow goes, not on its own.
      const refused = await rawRequest(`${sluice.url}/v1/sources/${sourceId}`, {
        method: "DELETE",
        apiKey: sluice.apiKey,
      });
      expect(refused.status).toBe(409);
      expect(refused.body).toMatchObject({ error: { code: "source_owned_by_workflow" } });
      // Deleting the workflow deletes the sources it deployed for itself.
      await client.data("DELETE", `/v1/workflows/${used.id}`);
      await client.data("DELETE", `/v1/workflows/${timed.id}`);
      const gone = await rawRequest(`${sluice.url}/v1/sources/${sourceId}`, { apiKey: sluice.apiKey });
      expect(gone.status).toBe(404);
      expect(
        (await rawRequest(`${sluice.url}/v1/workflows/${timed.id}`, { apiKey: sluice.apiKey })).status,
      ).toBe(404);
    });

    it("runs at most `concurrency` runs of a workflow at once, in the order they came", async () => {
      const timed = async (concurrency: number, sleepMs: number) => {
        const workflow = await deploy(client, {
          name: `slow-${concurrency}`,
          concurrency,
          steps: [
            {
              name: "slow",
              code: code(`const start = Date.now(); await new Promise((r) => setTimeout(r, ${sleepMs}));
                          return { n: steps.trigger.event.n, start, end: Date.now() };`),
            },
          ],
        });
        const started = [];
        for (const n of [1, 2, 3, 4]) {
          started.push(
            await client.request<{ data: RunView }>("POST", `/v1/workflows/${workflow.id}/runs`, {
              body: { event: { n } },
            }),
          );
        }
        const done = [];
        for (const run of started) done.push(await finished(client, run.data.id));
        return done.map((run) => run.steps[0]?.return_value as { n: number; start: number; end: number });
      };
      const serial = await timed(1, 300);
      expect(serial.map((run) => run.n)).toEqual([1, 2, 3, 4]);
      for (let i = 1; i < serial.length; i++) {
        expect(serial[i]?.start).toBeGreaterThanOrEqual(serial[i - 1]?.end ?? 0);
      }
      // Long enough that the runs overlap even when each slot's runner starts cold on a busy machine.
      const parallel = await timed(4, 2000);
      const overlapping = parallel.some((run, i) =>
        parallel.some((other, j) => i !== j && other.start < run.end && run.start < other.end),
      );
      expect(overlapping).toBe(true);
    });

    it("a workflow deleted while its runs are ending keeps nothing of them, and the delete succeeds", async () => {
      const workflow = await deploy(client, {
        name: "deleted-while-running",
        concurrency: 4,
        steps: [
          {
            name: "late",
            code: code(`await new Promise((r) => setTimeout(r, 400));
                        $.send.emit({ raw_event: { n: steps.trigger.event.n } });`),
          },
        ],
      });
      const db = sluice.server.store.db;
      // On PostgreSQL the delete's transaction stays open after its deletes of the runs and events,
      // before the workflow's row goes: the runs end and commit in between.
      const undo = await slowDeletesFrom(database, db, "workflows", 0.8);
      try {
        for (const n of [1, 2, 3, 4]) {
          await client.request("POST", `/v1/workflows/${workflow.id}/runs`, { body: { event: { n } } });
        }
        await waitUntil("the runs to start", async () =>
          (await runs(client, workflow.id)).some((run) => run.status === "running") ? true : undefined,
        );
        await client.request("DELETE", `/v1/workflows/${workflow.id}`);
        const left = async () => {
          const counts = [];
          for (const [table, column] of [
            ["events", "emitter_id"],
            ["workflow_runs", "workflow_id"],
          ] as const) {
            const row = await db
              .selectFrom(table)
              .select(sql<number>`count(*)`.as("n"))
              .where(column, "=", workflow.id)
              .executeTakeFirstOrThrow();
            counts.push({ table, left: Number(row.n) });
          }
          return counts;
        };
        const none = [
          { table: "events", left: 0 },
          { table: "workflow_runs", left: 0 },
        ];
        expect(await left()).toEqual(none);
        // The runs went with their workflow, so nothing shows their end but their length (a 400 ms
        // step): a run that outlived the delete and committed would leave rows within this window.
        await holdsThroughout(
          "nothing left of the runs",
          async () => JSON.stringify(await left()) === JSON.stringify(none),
          1000,
        );
        expect(await left()).toEqual(none);
      } finally {
        await undo();
      }
    });

    it("a run answering its request that waits for its turn when its workflow is deleted answers 502 no_response and does not run", async () => {
      const workflow = await deploy(client, {
        name: "deleted-while-waiting",
        concurrency: 1,
        trigger: { http: { customResponse: true } },
        steps: [
          {
            name: "reply",
            code: code(`const { n, hold } = steps.trigger.event.body;
                        if (hold) await fetch(hold);
                        await $.respond({ status: 200, body: { n } });`),
          },
        ],
      });
      const answer = heldAnswer();
      const holder = await startRecorder(async () => {
        await answer.held;
        return { status: 200 };
      });
      onTestFinished(() => holder.close());
      const send = (body: unknown) =>
        rawRequest(workflow.endpoint_url as string, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify(body),
        });
      const first = send({ n: 1, hold: `${holder.url}/hold` });
      await waitUntil("the first run to hold", async () => (holder.requests.length > 0 ? true : undefined));
      // At concurrency 1 the second waits for the first to end.
      const second = send({ n: 2 });
      const waiting = await waitUntil("the second run queued", async () => {
        const queued = (await runs(client, workflow.id)).filter((run) => run.status === "queued");
        return queued.length === 1 ? queued : undefined;
      });
      expect(waiting).toHaveLength(1);
      await client.request("DELETE", `/v1/workflows/${workflow.id}`);
      answer.release();
      const [one, two] = await Promise.all([first, second]);
      // The first ran and answered; the second never ran.
      expect(one.status).toBe(200);
      expect(two.status).toBe(502);
      expect(two.body).toMatchObject({ error: { code: "no_response" } });
      expect(holder.requests).toHaveLength(1);
    });

    // The first ten runs hold their places until every run is queued, so that more than 1,000
    // wait at once: none of them may be removed before it runs, only finished ones are trimmed.
    it("keeps a workflow's newest 1,000 finished runs, removing older ones as new runs end, and runs every run queued", async () => {
      // HTTP-triggered: its endpoint is not under the API's rate limit, which 1,010 runs would pass.
      const workflow = await deploy(client, {
        name: "many-runs",
        concurrency: 4,
        trigger: { http: {} },
        steps: [
          {
            name: "step",
            code: code(`const { n, hold } = steps.trigger.event.body;
                        if (hold) await fetch(hold);
                        $.send.emit({ raw_event: { n } });
                        return n;`),
          },
        ],
      });
      const answer = heldAnswer();
      const holder = await startRecorder(async () => {
        await answer.held;
        return { status: 200 };
      });
      onTestFinished(() => holder.close());
      const hold = `${holder.url}/hold`;
      // Ten at a time: each ten's runs are queued after the ten before.
      for (let n = 0; n < 1010; n += 10) {
        const answers = await Promise.all(
          Array.from({ length: 10 }, (_, k) =>
            rawRequest(workflow.endpoint_url as string, {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify(n === 0 ? { n: n + k, hold } : { n: n + k }),
            }),
          ),
        );
        expect(answers.map((answer) => answer.status)).toEqual(Array(10).fill(200));
      }
      // The first ones hold: all 1,010 wait at once.
      expect(holder.requests.length).toBeGreaterThan(0);
      answer.release();
      const db = sluice.server.store.db;
      const kept = () =>
        db
          .selectFrom("workflow_runs")
          .select(["status", "trigger"])
          .where("workflow_id", "=", workflow.id)
          .execute();
      const ran = async () =>
        (
          await db
            .selectFrom("events")
            .select((eb) => eb.fn.countAll<number>().as("count"))
            .where("emitter_id", "=", workflow.id)
            .executeTakeFirstOrThrow()
        ).count;
      const ended = await waitUntil(
        "every run to end",
        async () => {
          const rows = await kept();
          return rows.every((row) => row.status === "success") ? rows : undefined;
        },
        90_000,
      );
      // Each run emitted one event as it ran: none was removed before it could.
      expect(Number(await ran())).toBe(1010);
      // The trim after the last run to end left the newest 1,000: all but the first ten.
      expect(ended).toHaveLength(1000);
      const numbers = ended.map(
        (row) => (JSON.parse(row.trigger) as { event: { body: { n: number } } }).event.body.n,
      );
      expect(Math.min(...numbers)).toBe(10);
      expect(Math.max(...numbers)).toBe(1009);
    }, 120_000);

    it("retries a failed run as configured, recording the attempts", async () => {
      const workflow = await deploy(client, {
        name: "flaky",
        retries: 2,
        steps: [{ name: "always", code: code(`throw new Error("down");`) }],
      });
      const started = await client.request<{ data: RunView }>(
        "POST",
        `/v1/workflows/${workflow.id}/runs`,
        {},
      );
      const run = await finished(client, started.data.id);
      expect(run.status).toBe("error");
      expect(run.attempts).toBe(3);
      // One $errors event, for the final failure only.
      const events = await client.request<{ data: unknown[] }>(
        "GET",
        `/v1/workflows/${workflow.id}/event_summaries`,
      );
      expect(events.data).toHaveLength(1);
    });

    it("refuses bad documents with errors that name the step and field", async () => {
      const refuse = async (document: unknown, code: string, message: RegExp) => {
        const response = await rawRequest(`${sluice.url}/v1/workflows`, {
          method: "POST",
          apiKey: sluice.apiKey,
          headers: { "content-type": "application/json" },
          body: JSON.stringify(document),
        });
        expect(response.status, response.text).toBe(400);
        expect(response.body).toMatchObject({ error: { code } });
        expect((response.body as { error: { message: string } }).error.message).toMatch(message);
      };
      await refuse({ name: "x" }, "invalid_workflow", /steps is required/);
      await refuse({ name: "x", steps: [{ name: "a b", code: "x" }] }, "invalid_workflow", /identifier/);
      await refuse(
        {
          name: "x",
          steps: [{ name: "a", code: code("return 1;"), props: { nope: "{{ steps.trigger.event }}" } }],
        },
        "invalid_prop",
        /step 'a'.*nope/,
      );
      await refuse(
        {
          name: "x",
          steps: [
            { name: "a", code: code("return 1;", `{ v: { type: "string" } }`), props: { v: "{{ steps. }}" } },
          ],
        },
        "invalid_expression",
        /step 'a', prop v/,
      );
      await refuse(
        { name: "x", steps: [{ name: "a", uses: "./actions/a.mjs" }] },
        "invalid_workflow",
        /file path/,
      );
      await refuse(
        { name: "x", trigger: { source: "dc_nope" }, steps: [{ name: "a", code: code("") }] },
        "unknown_source",
        /dc_nope/,
      );
      await refuse(
        {
          name: "x",
          steps: [{ name: "a", code: `export default { name: "a source", props: {}, async run() {} }` }],
        },
        "not_an_action",
        /step 'a'/,
      );

      await deploy(client, { name: "taken", steps: [{ name: "a", code: code("return 1;") }] });
      const conflict = await rawRequest(`${sluice.url}/v1/workflows`, {
        method: "POST",
        apiKey: sluice.apiKey,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "taken", steps: [{ name: "a", code: code("return 2;") }] }),
      });
      expect(conflict.status).toBe(409);
      expect(conflict.body).toMatchObject({ error: { code: "workflow_exists" } });
    });

    // The node keeps the workflows its endpoints and runs read (core/workflows/workflow-cache.ts):
    // each change must reach the next request at once on this node, and on another node (PostgreSQL)
    // as soon as the notice of the change arrives.
    it("an endpoint follows its workflow's update, pause, resume and delete at once, on this node and another", async () => {
      const answering = (word: string) => ({
        name: "answering",
        trigger: { http: { customResponse: true } },
        steps: [
          { name: "reply", code: code(`await $.respond({ status: 200, body: { word: "${word}" } });`) },
        ],
      });
      const workflow = await deploy(client, answering("first"));
      const endpointPath = new URL(workflow.endpoint_url ?? "").pathname;
      const nodes = [sluice.url];
      let other: TestServer | undefined;
      if (dialect.name === "postgres") {
        other = await startOtherNode(database);
        nodes.push(other.url);
      }
      try {
        const answer = async (node: string) => {
          const response = await rawRequest(`${node}${endpointPath}`, { method: "POST" });
          return response.status === 200 ? (response.body as { word: string }).word : response.status;
        };
        /** What each node answers: at once on this one, within the notice's moment on the other. */
        const expectAnswers = async (expected: string | number) => {
          expect(await answer(sluice.url)).toBe(expected);
          for (const node of nodes.slice(1)) {
            await expect.poll(() => answer(node), { timeout: 5000, interval: 50 }).toBe(expected);
          }
        };
        await expectAnswers("first");
        await client.data("PUT", `/v1/workflows/${workflow.id}`, { body: answering("second") });
        await expectAnswers("second");
        await client.data("PUT", `/v1/workflows/${workflow.id}`, { body: { active: false } });
        await expectAnswers(404);
        await client.data("PUT", `/v1/workflows/${workflow.id}`, { body: { active: true } });
        await expectAnswers("second");
        await client.data("DELETE", `/v1/workflows/${workflow.id}`);
        await expectAnswers(404);
      } finally {
        await other?.close();
      }
    });

    it("pauses a workflow (its endpoint stops answering) and hides workflows and runs from other accounts", async () => {
      const workflow = await deploy(client, {
        name: "private",
        trigger: { http: {} },
        steps: [{ name: "a", code: code("return 1;") }],
      });
      const paused = await client.data<WorkflowView>("PUT", `/v1/workflows/${workflow.id}`, {
        body: { active: false },
      });
      expect(paused.active).toBe(false);
      expect((await rawRequest(`${workflow.endpoint_url}`, { method: "POST" })).status).toBe(404);
      await client.data("PUT", `/v1/workflows/${workflow.id}`, { body: { active: true } });
      const response = await fetch(`${workflow.endpoint_url}`, { method: "POST" });
      const runId = response.headers.get("x-sluice-run-id") as string;
      await finished(client, runId);

      const other = await sluice.newAccount("other");
      for (const path of [
        `/v1/workflows/${workflow.id}`,
        `/v1/workflows/${workflow.id}/runs`,
        `/v1/workflow_runs/${runId}`,
        `/v1/workflows/${workflow.id}/event_summaries`,
      ]) {
        expect((await rawRequest(`${sluice.url}${path}`, { apiKey: other.apiKey })).status, path).toBe(404);
      }
      const replay = await rawRequest(`${sluice.url}/v1/workflow_runs/${runId}/replay`, {
        method: "POST",
        apiKey: other.apiKey,
      });
      expect(replay.status).toBe(404);
      const list = await other.client.request<{ data: unknown[] }>("GET", "/v1/users/me/workflows");
      expect(list.data).toEqual([]);
    });
  });
}

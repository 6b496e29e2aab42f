/**
 * Webhook delivery from the `sluice` command: subscribing a webhook to a source (by name), the
 * delivery log, a failed delivery's attempts, retry and recover, webhook updates, secret rotation
 * and unsubscribing. The CLI runs as a subprocess against a real server (retry schedule "0,1":
 * two attempts, one second apart) that delivers to a real local receiver.
 */
import fs from "node:fs";
import { Webhook as StandardWebhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, type SluiceClient } from "../../src/client/client.js";
import type {
  CreatedWebhook,
  Delivery,
  DeliveryWithAttempts,
  Source,
  Subscription,
  Webhook,
} from "../../src/client/types.js";
import { type CliResult, runCli } from "../support/cli.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { type RecordedRequest, type Recorder, startRecorder } from "../support/recorder.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";
import { letTimePassUntil } from "../support/wait.js";

/** Emits one event per run, `{n}` on the default channel. */
const TICKER = `
  export default {
    name: "Orders feed",
    props: { db: "$.service.db" },
    async run() {
      const n = (this.db.get("n") ?? 0) + 1;
      this.db.set("n", n);
      this.$emit({ n }, { summary: "tick " + n });
    },
  };`;

/** An HTTP source: emits each request's body. */
const HOOK = `
  export default {
    name: "Inbox",
    props: { http: "$.interface.http" },
    async run(event) { this.$emit(event.body, { summary: "request" }); },
  };`;

/** Emits on two channels per run: "orders" and the default one. */
const TWO_CHANNELS = `
  export default {
    name: "Two channels",
    props: {},
    async run() {
      this.$emit({ kind: "order" }, { name: "orders" });
      this.$emit({ kind: "other" });
    },
  };`;

let database: TestDatabase;
let server: TestServer;
const closers: (() => Promise<unknown>)[] = [];

beforeAll(async () => {
  const sqlite = dialects.find((dialect) => dialect.name === "sqlite");
  if (!sqlite) throw new Error("the sqlite test dialect is missing");
  database = await sqlite.create();
  server = await startTestServer(database, {
    env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8", SLUICE_RETRY_SCHEDULE: "0,1" },
  });
});

afterAll(async () => {
  for (const close of closers.reverse()) await close();
  await server?.close();
  await database?.cleanup();
});

function sluice(apiKey: string, args: string[]): Promise<CliResult> {
  const home = tempDir("sluice-cli-home-");
  closers.push(async () => fs.rmSync(home, { recursive: true, force: true }));
  return runCli(args, { HOME: home, SLUICE_API_KEY: apiKey, SLUICE_BASE_URL: server.url });
}

function parseJson<T>(result: CliResult): T {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
  return JSON.parse(result.stdout) as T;
}

function expectSuccess(result: CliResult): void {
  expect({ code: result.code, stderr: result.stderr }).toEqual({ code: 0, stderr: "" });
}

/** A failure reported as a message: exit status 1, "Error: …" on stderr, no stack, nothing on stdout. */
function expectCleanFailure(result: CliResult, message: RegExp): void {
  expect(result.code).toBe(1);
  expect(result.stdout).toBe("");
  expect(result.stderr).toMatch(/^Error: /);
  expect(result.stderr).toMatch(message);
  expect(result.stderr).not.toMatch(/\n\s+at /);
}

/** A receiver whose answer the test can change between deliveries: set `answer.status`. */
async function receiver(initialStatus = 200): Promise<Recorder & { answer: { status: number } }> {
  const answer = { status: initialStatus };
  const recorder = await startRecorder(() => ({ status: answer.status, body: `answered ${answer.status}` }));
  closers.push(() => recorder.close());
  return Object.assign(recorder, { answer });
}

async function waitUntil<T>(
  what: string,
  probe: () => Promise<T | undefined>,
  timeoutMs = 15_000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Waits until the delivery has the status, and returns it. */
function deliveryIn(
  client: SluiceClient,
  id: string,
  status: Delivery["status"],
): Promise<DeliveryWithAttempts> {
  return waitUntil(`delivery ${id} to be ${status}`, async () => {
    const delivery = await client.getDelivery(id);
    return delivery.status === status ? delivery : undefined;
  });
}

/** Waits until the webhook has `count` deliveries, and returns them newest first. */
function deliveriesOf(client: SluiceClient, webhookId: string, count: number): Promise<Delivery[]> {
  return waitUntil(`${count} deliveries of ${webhookId}`, async () => {
    const page = await client.listDeliveries(webhookId, { limit: 100 });
    return page.data.length >= count ? page.data : undefined;
  });
}

interface Setup {
  apiKey: string;
  client: SluiceClient;
  source: Source;
  webhook: CreatedWebhook;
  recorder: Recorder & { answer: { status: number } };
}

/** A new account with a ticker source, a webhook to a local receiver, and (unless told not to) a subscription. */
async function setUp(
  options: { status?: number; code?: string; name?: string; subscribe?: boolean } = {},
): Promise<Setup> {
  const { apiKey, client } = await server.newAccount();
  const recorder = await receiver(options.status ?? 200);
  const source = await client.deploySource({
    component_code: options.code ?? TICKER,
    name: options.name ?? "orders feed",
  });
  const webhook = await client.createWebhook({ url: `${recorder.url}/hook`, name: "receiver" });
  if (options.subscribe !== false) {
    expectSuccess(
      await sluice(apiKey, ["subscribe", "--emitter", source.name_slug, "--listener", webhook.id, "--json"]),
    );
  }
  return { apiKey, client, source, webhook, recorder };
}

/** Runs the source once and returns the id of the one delivery its event made. */
async function emitAndFindDelivery(setup: Setup, known: number): Promise<Delivery> {
  const run = await setup.client.runSource(setup.source.id);
  expect(run.ok).toBe(true);
  const deliveries = await deliveriesOf(setup.client, setup.webhook.id, known + 1);
  const newest = deliveries[0];
  if (!newest) throw new Error("no delivery");
  expect(newest.event_id).toBe(run.events[0]);
  return newest;
}

/**
 * The requests the receiver has got once every delivery of the webhook is settled (none pending):
 * for checking that nothing more comes. Deliveries commit with their events, so once the events
 * in question are stored, nothing more is due and the count is final.
 */
async function settled(client: SluiceClient, webhookId: string, recorder: Recorder): Promise<number> {
  await waitUntil(`the deliveries of ${webhookId} to settle`, async () => {
    const page = await client.listDeliveries(webhookId, { limit: 100 });
    return page.data.every((delivery) => delivery.status !== "pending") ? true : undefined;
  });
  return recorder.requests.length;
}

function header(request: RecordedRequest, name: string): string {
  const value = request.headers[name];
  return Array.isArray(value) ? value.join(",") : (value ?? "");
}

function verify(secret: string, request: RecordedRequest): unknown {
  return new StandardWebhook(secret).verify(request.body, {
    "webhook-id": header(request, "webhook-id"),
    "webhook-timestamp": header(request, "webhook-timestamp"),
    "webhook-signature": header(request, "webhook-signature"),
  });
}

describe("sluice subscribe and list subscriptions", () => {
  it("subscribe takes a source's name for --emitter and subscribes its dc_ id; subscribing again returns the same subscription", async () => {
    const { apiKey, client, source, webhook } = await setUp({ subscribe: false, name: "Orders Feed" });
    expect(source.name_slug).toBe("orders-feed");

    const first = parseJson<Subscription>(
      await sluice(apiKey, ["subscribe", "--emitter", "orders-feed", "--listener", webhook.id, "--json"]),
    );
    expect(first).toMatchObject({
      emitter_id: source.id,
      listener_id: webhook.id,
      event_name: null,
    });
    expect(first.id).toMatch(/^sub_/);

    const again = parseJson<Subscription>(
      await sluice(apiKey, ["subscribe", "--emitter", source.id, "--listener", webhook.id, "--json"]),
    );
    expect(again.id).toBe(first.id);

    const table = await sluice(apiKey, ["subscribe", "--emitter", "orders-feed", "--listener", webhook.id]);
    expectSuccess(table);
    expect(table.stdout).toContain(first.id);
    expect(table.stdout).toContain(`Events of ${source.id} are delivered to ${webhook.id}.`);

    const page = await client.listSubscriptions();
    expect(page.data.map((subscription) => subscription.id)).toEqual([first.id]);
  });

  it("list subscriptions prints a table and --json prints the API's array; list sources still lists sources", async () => {
    const { apiKey, source, webhook } = await setUp({ subscribe: false });
    const none = await sluice(apiKey, ["list", "subscriptions"]);
    expectSuccess(none);
    expect(none.stdout).toContain("No subscriptions yet");
    expect(parseJson<unknown[]>(await sluice(apiKey, ["list", "subscriptions", "--json"]))).toEqual([]);

    const all = parseJson<Subscription>(
      await sluice(apiKey, ["subscribe", "--emitter", source.name_slug, "--listener", webhook.id, "--json"]),
    );
    const orders = parseJson<Subscription>(
      await sluice(apiKey, [
        "subscribe",
        "--emitter",
        source.name_slug,
        "--listener",
        webhook.id,
        "--event-name",
        "orders",
        "--json",
      ]),
    );
    expect(orders.event_name).toBe("orders");
    expect(orders.id).not.toBe(all.id);

    const listed = parseJson<Subscription[]>(await sluice(apiKey, ["list", "subscriptions", "--json"]));
    expect(listed.map((subscription) => subscription.id).sort()).toEqual([all.id, orders.id].sort());
    expect(listed.find((subscription) => subscription.id === orders.id)).toEqual(orders);

    const table = await sluice(apiKey, ["list", "subscriptions"]);
    expectSuccess(table);
    expect(table.stdout).toMatch(/│ id\s+│ emitter\s+│ listener\s+│ event_name\s+│ created\s+│/);
    expect(table.stdout).toMatch(new RegExp(`│ ${orders.id} │ ${source.id} │ ${webhook.id} │ orders\\s+│`));
    expect(table.stdout).toMatch(
      new RegExp(`│ ${all.id} │ ${source.id} │ ${webhook.id} │ \\(every channel\\) │`),
    );

    const sources = parseJson<Source[]>(await sluice(apiKey, ["list", "sources", "--json"]));
    expect(sources.map((listedSource) => listedSource.id)).toEqual([source.id]);
  });

  it("subscribe with an unknown source name or webhook id prints the API's not_found message", async () => {
    const { apiKey, source, webhook } = await setUp({ subscribe: false });
    expectCleanFailure(
      await sluice(apiKey, ["subscribe", "--emitter", "no-such-source", "--listener", webhook.id]),
      /no-such-source.*\(not_found\)/,
    );
    expectCleanFailure(
      await sluice(apiKey, ["subscribe", "--emitter", source.id, "--listener", "wh_nosuchwebhook"]),
      /No webhook with id 'wh_nosuchwebhook'.*\(not_found\)/,
    );
    expectCleanFailure(
      await sluice(apiKey, ["subscribe", "--emitter", source.id, "--listener", source.id]),
      /listener_id must be a webhook id.*\(invalid_request\)/,
    );
  });
});

describe("delivering a source's events", () => {
  it("an event posted to a subscribed source's endpoint reaches the receiver, signed per Standard Webhooks", async () => {
    const setup = await setUp({ code: HOOK, name: "inbox" });
    const { source, webhook, recorder } = setup;
    expect(source.endpoint_url).toMatch(/\/e\/[0-9a-f]{32}$/);

    const posted = await fetch(source.endpoint_url ?? "", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ order: 42, items: ["a", "b"] }),
    });
    expect(posted.status).toBeLessThan(300);

    const [request] = await recorder.waitFor(1);
    if (!request) throw new Error("no request");
    expect(request.method).toBe("POST");
    expect(request.url).toBe("/hook");
    expect(JSON.parse(request.body)).toEqual({ order: 42, items: ["a", "b"] });
    expect(verify(webhook.signing_secret, request)).toEqual({ order: 42, items: ["a", "b"] });
    expect(header(request, "webhook-signature")).toMatch(/^v1,[A-Za-z0-9+/=]+$/);
    expect(header(request, "x-sluice-emitter-id")).toBe(source.id);
    expect(header(request, "x-sluice-channel")).toBe("");
    expect(header(request, "x-sluice-attempt")).toBe("1");
    expect(() => verify("whsec_AS3KwPxwSE8n1r9h/29/7ZYwafuGI0d3U1tE99SBjsU=", request)).toThrow();
  });

  it("webhooks deliveries shows a delivered event: status, attempts, last status code, latency", async () => {
    const setup = await setUp();
    const delivery = await emitAndFindDelivery(setup, 0);
    await setup.recorder.waitFor(1);
    const delivered = await deliveryIn(setup.client, delivery.id, "delivered");

    const listed = parseJson<Delivery[]>(
      await sluice(setup.apiKey, ["webhooks", "deliveries", setup.webhook.id, "--json"]),
    );
    expect(listed).toHaveLength(1);
    expect(listed[0]).toMatchObject({
      id: delivery.id,
      webhook_id: setup.webhook.id,
      emitter_id: setup.source.id,
      event_id: delivery.event_id,
      status: "delivered",
      attempts: 1,
      last_status_code: 200,
      last_error: null,
      next_attempt_at: null,
    });
    expect(listed[0]?.last_latency_ms).toBe(delivered.last_latency_ms);

    const table = await sluice(setup.apiKey, ["webhooks", "deliveries", setup.webhook.id]);
    expectSuccess(table);
    expect(table.stdout).toMatch(
      /│ id\s+│ event\s+│ status\s+│ attempts\s+│ last status\s+│ latency\s+│ error\s+│ next attempt\s+│/,
    );
    expect(table.stdout).toMatch(
      new RegExp(`│ ${delivery.id} │ ${delivery.event_id}\\s+│ delivered │ 1\\s+│ 200\\s+│ \\d+ ms\\s+│`),
    );

    const failedOnly = await sluice(setup.apiKey, [
      "webhooks",
      "deliveries",
      setup.webhook.id,
      "--status",
      "failed",
    ]);
    expectSuccess(failedOnly);
    expect(failedOnly.stdout).toBe(`No failed deliveries for ${setup.webhook.id}.\n`);
    expect(
      parseJson<Delivery[]>(
        await sluice(setup.apiKey, [
          "webhooks",
          "deliveries",
          setup.webhook.id,
          "--status",
          "delivered",
          "--json",
        ]),
      ).map((listedDelivery) => listedDelivery.id),
    ).toEqual([delivery.id]);
    expectCleanFailure(
      await sluice(setup.apiKey, ["webhooks", "deliveries", setup.webhook.id, "--status", "lost"]),
      /--status takes pending, delivered or failed, got 'lost'/,
    );
  });

  it("a subscription with --event-name gets only that channel's events", async () => {
    const { apiKey, client, source, webhook, recorder } = await setUp({
      code: TWO_CHANNELS,
      subscribe: false,
    });
    expectSuccess(
      await sluice(apiKey, [
        "subscribe",
        "--emitter",
        source.name_slug,
        "--listener",
        webhook.id,
        "--event-name",
        "orders",
      ]),
    );
    const run = await client.runSource(source.id);
    expect(run.events).toHaveLength(2);
    const [request] = await recorder.waitFor(1);
    if (!request) throw new Error("no request");
    expect(header(request, "x-sluice-channel")).toBe("orders");
    expect(JSON.parse(request.body)).toEqual({ kind: "order" });
    expect(await settled(client, webhook.id, recorder)).toBe(1);
    const deliveries = await client.listDeliveries(webhook.id);
    expect(deliveries.data.map((delivery) => delivery.channel)).toEqual(["orders"]);
  });

  it("a receiver answering 500 makes the delivery fail after the schedule; deliveries get shows each attempt; deliveries retry resends it once the receiver answers 200", async () => {
    const setup = await setUp({ status: 500 });
    const delivery = await emitAndFindDelivery(setup, 0);
    const failed = await deliveryIn(setup.client, delivery.id, "failed");
    expect(failed).toMatchObject({ attempts: 2, last_status_code: 500, next_attempt_at: null });
    expect(failed.last_error).toBe("the endpoint answered 500");
    expect(setup.recorder.requests).toHaveLength(2);
    const [first, second] = setup.recorder.requests;
    if (!first || !second) throw new Error("two requests expected");
    expect(header(second, "webhook-id")).toBe(header(first, "webhook-id"));
    expect([header(first, "x-sluice-attempt"), header(second, "x-sluice-attempt")]).toEqual(["1", "2"]);
    // The second attempt waited for the schedule's 1 s, give or take 20 %.
    expect(second.at - first.at).toBeGreaterThanOrEqual(750);

    const got = parseJson<DeliveryWithAttempts>(
      await sluice(setup.apiKey, ["deliveries", "get", delivery.id, "--json"]),
    );
    expect(got).toMatchObject({ id: delivery.id, status: "failed", attempts: 2 });
    expect(got.attempt_log).toHaveLength(2);
    expect(got.attempt_log.map((attempt) => [attempt.attempt, attempt.status_code, attempt.error])).toEqual([
      [1, 500, "the endpoint answered 500"],
      [2, 500, "the endpoint answered 500"],
    ]);
    expect(got.attempt_log[0]?.response_body).toBe("answered 500");

    const table = await sluice(setup.apiKey, ["deliveries", "get", delivery.id]);
    expectSuccess(table);
    expect(table.stdout).toMatch(/│ status\s+│ failed\s+│/);
    expect(table.stdout).toContain("Attempts:");
    expect(table.stdout).toMatch(/│ attempt │ at\s+│ status │ latency\s+│ error\s+│ response\s+│/);
    expect(table.stdout).toMatch(
      /│ 1\s+│ \d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ │ 500\s+│ \d+ ms\s+│ the endpoint answered 500 │ answered 500 │/,
    );
    expect(table.stdout).toMatch(/│ 2\s+│ [^│]+│ 500\s+│/);

    setup.recorder.answer.status = 200;
    const retried = parseJson<Delivery>(
      await sluice(setup.apiKey, ["deliveries", "retry", delivery.id, "--json"]),
    );
    expect(retried.id).toBe(delivery.id);
    const [, , third] = await setup.recorder.waitFor(3);
    if (!third) throw new Error("no third request");
    expect(header(third, "webhook-id")).toBe(header(first, "webhook-id"));
    expect(header(third, "x-sluice-attempt")).toBe("3");
    expect(verify(setup.webhook.signing_secret, third)).toEqual({ n: 1 });
    const delivered = await deliveryIn(setup.client, delivery.id, "delivered");
    expect(delivered).toMatchObject({ attempts: 3, last_status_code: 200, last_error: null });
    expect(delivered.attempt_log.map((attempt) => attempt.status_code)).toEqual([500, 500, 200]);

    // A delivered one may be resent too; the table form says how to see the outcome.
    const again = await sluice(setup.apiKey, ["deliveries", "retry", delivery.id]);
    expectSuccess(again);
    expect(again.stdout).toContain(`Resending delivery ${delivery.id} to ${setup.webhook.id}`);
    await setup.recorder.waitFor(4);
    expect((await deliveryIn(setup.client, delivery.id, "delivered")).attempts).toBe(4);
  });

  it("deliveries retry of a delivery still in flight prints the API's delivery_pending conflict", async () => {
    // A receiver that never answers: the first attempt stays in flight (for up to 15 s).
    const hanging = await startRecorder(() => new Promise<never>(() => {}));
    closers.push(() => hanging.close());
    const { apiKey, client } = await server.newAccount();
    const source = await client.deploySource({ component_code: TICKER, name: "slow" });
    const webhook = await client.createWebhook({ url: `${hanging.url}/slow`, name: "hangs" });
    await client.subscribe({ emitter_id: source.id, listener_id: webhook.id });
    await client.runSource(source.id);
    await hanging.waitFor(1);
    const [delivery] = await deliveriesOf(client, webhook.id, 1);
    if (!delivery) throw new Error("no delivery");
    expect(delivery).toMatchObject({ status: "pending", attempts: 0 });

    expectCleanFailure(
      await sluice(apiKey, ["deliveries", "retry", delivery.id]),
      /Delivery .* is still pending.*\(delivery_pending\)/,
    );
    await hanging.close();
  });

  it("webhooks recover --since resends the failed deliveries created since then, and no older ones", async () => {
    const setup = await setUp({ status: 500 });
    const older = await emitAndFindDelivery(setup, 0);
    await deliveryIn(setup.client, older.id, "failed");

    // The next whole second, so that `older` was created before it.
    const since = Math.ceil((Date.now() + 1) / 1000);
    // Time is the point: `newer` must be created in a later second than `older`.
    await letTimePassUntil(since * 1000);
    const newer = await emitAndFindDelivery(setup, 1);
    await deliveryIn(setup.client, newer.id, "failed");
    expect(setup.recorder.requests).toHaveLength(4);

    setup.recorder.answer.status = 200;
    const recovered = await sluice(setup.apiKey, [
      "webhooks",
      "recover",
      setup.webhook.id,
      "--since",
      String(since),
    ]);
    expectSuccess(recovered);
    expect(recovered.stdout).toBe(
      `Resent 1 failed delivery of ${setup.webhook.id} created since ${new Date(since * 1000).toISOString().replace("T", " ").replace(".000Z", "Z")}.\n`,
    );
    const [, , , , resent] = await setup.recorder.waitFor(5);
    if (!resent) throw new Error("no resent request");
    expect(JSON.parse(resent.body)).toEqual({ n: 2 });
    await deliveryIn(setup.client, newer.id, "delivered");
    expect((await setup.client.getDelivery(older.id)).status).toBe("failed");

    // An ISO 8601 time from before both: only the one still failed is resent.
    const iso = new Date((since - 60) * 1000).toISOString();
    expect(
      parseJson<{ resent: number }>(
        await sluice(setup.apiKey, ["webhooks", "recover", setup.webhook.id, "--since", iso, "--json"]),
      ),
    ).toEqual({ resent: 1 });
    await deliveryIn(setup.client, older.id, "delivered");
    expect(await settled(setup.client, setup.webhook.id, setup.recorder)).toBe(6);

    // Nothing failed since: nothing resent.
    expect(
      parseJson<{ resent: number }>(
        await sluice(setup.apiKey, ["webhooks", "recover", setup.webhook.id, "--since", "0", "--json"]),
      ),
    ).toEqual({ resent: 0 });
  });

  it("a bad --since is a clear error, and the API refuses one too", async () => {
    const { apiKey, client, webhook } = await setUp({ subscribe: false });
    expectCleanFailure(
      await sluice(apiKey, ["webhooks", "recover", webhook.id, "--since", "yesterday"]),
      /--since 'yesterday' is neither epoch seconds nor an ISO 8601 time/,
    );
    expectCleanFailure(
      await sluice(apiKey, ["webhooks", "recover", webhook.id, "--since", "2026-02-30"]),
      /neither epoch seconds nor an ISO 8601 time/,
    );
    expectCleanFailure(
      await sluice(apiKey, ["webhooks", "recover", webhook.id, "--since", "1763683200000"]),
      /looks like epoch milliseconds; give epoch seconds \(1763683200\)/,
    );
    const missing = await sluice(apiKey, ["webhooks", "recover", webhook.id]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/required option '--since <time>' not specified/);

    const refused = await client.recoverWebhook(webhook.id, "yesterday").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect(refused).toMatchObject({ status: 400, code: "invalid_request" });
    expect((refused as ApiError).message).toMatch(/is not epoch seconds or an ISO 8601 time/);
  });
});

describe("sluice webhooks update and rotate-secret", () => {
  it("webhooks update --inactive stops deliveries to it and --active starts them again", async () => {
    const setup = await setUp();
    const inactive = parseJson<Webhook>(
      await sluice(setup.apiKey, ["webhooks", "update", setup.webhook.id, "--inactive", "--json"]),
    );
    expect(inactive).toMatchObject({ id: setup.webhook.id, active: false, disabled_reason: null });

    const run = await setup.client.runSource(setup.source.id);
    expect(run.events).toHaveLength(1);
    expect(await settled(setup.client, setup.webhook.id, setup.recorder)).toBe(0);
    // Nothing is sent while inactive, but the missed event is kept, as a failed delivery.
    const missed = (await setup.client.listDeliveries(setup.webhook.id)).data;
    expect(missed.map((item) => item.status)).toEqual(["failed"]);
    expect(missed[0]?.last_error).toMatch(/disabled when the event was emitted/);

    const active = parseJson<Webhook>(
      await sluice(setup.apiKey, ["webhooks", "update", setup.webhook.id, "--active", "--json"]),
    );
    expect(active.active).toBe(true);
    const delivery = await emitAndFindDelivery(setup, 0);
    await deliveryIn(setup.client, delivery.id, "delivered");
    const [request] = await setup.recorder.waitFor(1);
    expect(JSON.parse(request?.body ?? "")).toEqual({ n: 2 });

    // Recovering sends what it missed while inactive.
    expectSuccess(
      await sluice(setup.apiKey, ["webhooks", "recover", setup.webhook.id, "--since", "2020-01-01"]),
    );
    const requests = await setup.recorder.waitFor(2);
    expect(requests.map((received) => JSON.parse(received.body))).toContainEqual({ n: 1 });
  });

  it("webhooks update sets --rate-limit 5, removes it with none, renames, and refuses bad values", async () => {
    const { apiKey, client, webhook } = await setUp({ subscribe: false });
    const limited = parseJson<Webhook>(
      await sluice(apiKey, [
        "webhooks",
        "update",
        webhook.id,
        "--rate-limit",
        "5",
        "--name",
        "throttled",
        "--json",
      ]),
    );
    expect(limited).toMatchObject({ rate_limit: 5, name: "throttled", url: webhook.url, active: true });
    expect(await client.getWebhook(webhook.id)).toMatchObject({ rate_limit: 5, name: "throttled" });

    const table = await sluice(apiKey, ["webhooks", "update", webhook.id, "--description", "five a second"]);
    expectSuccess(table);
    expect(table.stdout).toMatch(/│ rate_limit\s+│ 5\s+│/);
    expect(table.stdout).toMatch(/│ description\s+│ five a second\s+│/);

    const unlimited = parseJson<Webhook>(
      await sluice(apiKey, ["webhooks", "update", webhook.id, "--rate-limit", "none", "--json"]),
    );
    expect(unlimited.rate_limit).toBeNull();

    expectCleanFailure(
      await sluice(apiKey, ["webhooks", "update", webhook.id, "--rate-limit", "fast"]),
      /--rate-limit takes a number of deliveries per second or 'none', got 'fast'/,
    );
    expectCleanFailure(
      await sluice(apiKey, ["webhooks", "update", webhook.id, "--rate-limit", "0"]),
      /rate_limit must be an integer from 1 to .*\(invalid_request\)/,
    );
    expectCleanFailure(
      await sluice(apiKey, ["webhooks", "update", webhook.id, "--url", "ftp://x"]),
      /\(invalid_url\)/,
    );
    expectCleanFailure(
      await sluice(apiKey, ["webhooks", "update", webhook.id, "--active", "--inactive"]),
      /Give --active or --inactive, not both/,
    );
    expectCleanFailure(await sluice(apiKey, ["webhooks", "update", webhook.id]), /Nothing to change/);
    expect(await client.getWebhook(webhook.id)).toMatchObject({ rate_limit: null, url: webhook.url });
  });

  it("webhooks rotate-secret prints a new whsec_ secret once; deliveries then carry both signatures", async () => {
    const setup = await setUp();
    const printed = await sluice(setup.apiKey, ["webhooks", "rotate-secret", setup.webhook.id]);
    expectSuccess(printed);
    const secrets = printed.stdout.match(/whsec_[A-Za-z0-9+/=]+/g) ?? [];
    expect(secrets).toHaveLength(1);
    const [rotated] = secrets;
    if (!rotated) throw new Error("no secret printed");
    expect(rotated).not.toBe(setup.webhook.signing_secret);
    expect(printed.stdout).toContain("shown only now");

    const json = parseJson<CreatedWebhook>(
      await sluice(setup.apiKey, ["webhooks", "rotate-secret", setup.webhook.id, "--json"]),
    );
    expect(json.id).toBe(setup.webhook.id);
    expect(json.signing_secret).toMatch(/^whsec_/);
    expect(json.signing_secret).not.toBe(rotated);
    expect(await setup.client.getWebhook(setup.webhook.id)).not.toHaveProperty("signing_secret");

    const delivery = await emitAndFindDelivery(setup, 0);
    const [request] = await setup.recorder.waitFor(1);
    if (!request) throw new Error("no request");
    await deliveryIn(setup.client, delivery.id, "delivered");
    // The newest secret and the one before it (`rotated`) both sign for 24 h; the original no longer does.
    expect(header(request, "webhook-signature").split(" ")).toHaveLength(2);
    expect(verify(json.signing_secret, request)).toEqual({ n: 1 });
    expect(verify(rotated, request)).toEqual({ n: 1 });
    expect(() => verify(setup.webhook.signing_secret, request)).toThrow();
  });
});

describe("sluice unsubscribe", () => {
  it("unsubscribe stops deliveries: events emitted afterwards make none", async () => {
    const setup = await setUp();
    const first = await emitAndFindDelivery(setup, 0);
    await deliveryIn(setup.client, first.id, "delivered");

    const removed = await sluice(setup.apiKey, [
      "unsubscribe",
      "--emitter",
      setup.source.name_slug,
      "--listener",
      setup.webhook.id,
    ]);
    expectSuccess(removed);
    expect(removed.stdout).toContain(`are no longer delivered to ${setup.webhook.id}`);
    expect(parseJson<unknown[]>(await sluice(setup.apiKey, ["list", "subscriptions", "--json"]))).toEqual([]);

    const run = await setup.client.runSource(setup.source.id);
    expect(run.events).toHaveLength(1);
    expect(await settled(setup.client, setup.webhook.id, setup.recorder)).toBe(1);
    expect((await setup.client.listDeliveries(setup.webhook.id)).data.map((delivery) => delivery.id)).toEqual(
      [first.id],
    );

    expectCleanFailure(
      await sluice(setup.apiKey, [
        "unsubscribe",
        "--emitter",
        setup.source.id,
        "--listener",
        setup.webhook.id,
      ]),
      /No subscription .*\(not_found\)/,
    );
  });
});

describe("another account's ids", () => {
  it("another account's webhook, delivery and source are not found, and nothing of them changes", async () => {
    const owner = await setUp({ status: 500 });
    const delivery = await emitAndFindDelivery(owner, 0);
    await deliveryIn(owner.client, delivery.id, "failed");
    const stranger = await server.newAccount("stranger");
    const strangersHook = await stranger.client.createWebhook({ url: owner.recorder.url, name: "theirs" });

    const attempts: [string[], RegExp][] = [
      [["webhooks", "deliveries", owner.webhook.id], /No webhook with id/],
      [["webhooks", "recover", owner.webhook.id, "--since", "0"], /No webhook with id/],
      [["webhooks", "update", owner.webhook.id, "--inactive"], /No webhook with id/],
      [["webhooks", "rotate-secret", owner.webhook.id], /No webhook with id/],
      [["deliveries", "get", delivery.id], /No delivery with id/],
      [["deliveries", "retry", delivery.id], /No delivery with id/],
      [["subscribe", "--emitter", owner.source.id, "--listener", strangersHook.id], /No source with id/],
      [
        ["subscribe", "--emitter", owner.source.name_slug, "--listener", strangersHook.id],
        /No source with id/,
      ],
      [["unsubscribe", "--emitter", owner.source.id, "--listener", owner.webhook.id], /No source with id/],
    ];
    for (const [args, message] of attempts) {
      const result = await sluice(stranger.apiKey, args);
      expectCleanFailure(result, message);
      expect(result.stderr).toContain("(not_found)");
    }

    expect(await owner.client.getWebhook(owner.webhook.id)).toMatchObject({ active: true, name: "receiver" });
    expect(await owner.client.getDelivery(delivery.id)).toMatchObject({ status: "failed", attempts: 2 });
    expect((await owner.client.listSubscriptions()).data).toHaveLength(1);
    expect(await settled(owner.client, owner.webhook.id, owner.recorder)).toBe(2);
  });
});

/**
 * The web UI in a real browser (Debian's chromium through playwright-core) against a real server
 * on a temporary SQLite data directory: the SPEC.md flows, bad input, screenshots of every page
 * (1280 and 390 px, light and dark, in test-results/screenshots) and an axe audit of each.
 * It runs once, not per dialect: the UI speaks only the REST API, which the REST suites cover on
 * both dialects.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appsApi } from "../../src/client/apps-client.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { SignInPage } from "./pages/sign-in-page.js";
import { SourcePage } from "./pages/source-page.js";
import { CreateSourcePage, DynamicPropsForm, SourcesPage } from "./pages/sources-page.js";
import { WebhookPage, WebhooksPage } from "./pages/webhook-page.js";
import { WorkflowPage, WorkflowsPage } from "./pages/workflow-page.js";
import { launchBrowser, newContext, screenshotAndAudit } from "./support/browser.js";
import {
  BROKEN_YAML,
  FAILING_WORKFLOW,
  GREETER_SOURCE,
  REGIONS_SOURCE,
  SHEET_SOURCE,
  WEATHER_SOURCE,
} from "./support/fixtures.js";

const sqlite = dialects.find((dialect) => dialect.name === "sqlite");

describe("the web UI in a browser", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let sluice: TestServer;
  /** Serves component code for ?action=create&url=, and 404s elsewhere. */
  let codeServer: Recorder;
  /** The webhook receiver: failing (500) until `receiverUp`. */
  let receiver: Recorder;
  let receiverUp = false;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const audit: string[] = [];

  beforeAll(async () => {
    if (!sqlite) throw new Error("no sqlite dialect");
    database = await sqlite.create();
    sluice = await startTestServer(database, {
      env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8", SLUICE_RETRY_SCHEDULE: "0" },
    });
    codeServer = await startRecorder((request) =>
      request.url === "/greeter.mjs"
        ? { status: 200, body: GREETER_SOURCE, headers: { "content-type": "text/javascript" } }
        : { status: 404, body: "not here" },
    );
    receiver = await startRecorder(() =>
      receiverUp ? { status: 200, body: "thanks" } : { status: 500, body: "receiver is down" },
    );
    await sluice.client.publishComponent({ component_code: GREETER_SOURCE });
    await sluice.client.publishComponent({ component_code: REGIONS_SOURCE });
    await sluice.client.publishComponent({ component_code: SHEET_SOURCE });
    await sluice.client.publishComponent({ component_code: WEATHER_SOURCE });
    browser = await launchBrowser();
    context = await newContext(browser, sluice.url);
    page = await context.newPage();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await sluice?.close();
    await codeServer?.close();
    await receiver?.close();
    await database?.cleanup();
  });

  async function sourceCount(): Promise<number> {
    return (await sluice.client.listSources({ limit: 100 })).page_info.total_count;
  }

  it("an invalid key at sign-in shows a message at the key field and opens no session", async () => {
    const signIn = new SignInPage(page);
    await signIn.goto();
    audit.push(...(await screenshotAndAudit(page, "sign-in")));
    await signIn.signIn("sk_this_is_not_a_key");
    await signIn.error().waitFor();
    expect(await signIn.error().textContent()).toContain("not valid");
    expect((await context.cookies()).some((cookie) => cookie.name === "sluice_session")).toBe(false);
  });

  it("a page opened without a session goes to sign-in and comes back after it; the cookie is httpOnly", async () => {
    await page.goto("/webhooks?status=failed");
    await page.waitForURL(/\/signin\?next=/);
    await new SignInPage(page).signIn(sluice.apiKey);
    await page.waitForURL(/\/webhooks\?status=failed$/);
    const cookie = (await context.cookies()).find((candidate) => candidate.name === "sluice_session");
    expect(cookie).toMatchObject({ httpOnly: true, sameSite: "Strict" });
    expect(cookie?.value).not.toContain(sluice.apiKey);
    const stored = await page.evaluate(
      "JSON.stringify({ ...localStorage }) + JSON.stringify({ ...sessionStorage })",
    );
    expect(stored).not.toContain(sluice.apiKey);
  });

  it("the components page lists published components and their versions, and deploys one", async () => {
    await page.goto("/components");
    const row = page.getByRole("row").filter({ hasText: "e2e-greeter" });
    await row.waitFor();
    expect(await row.textContent()).toContain("0.1.0");
    audit.push(...(await screenshotAndAudit(page, "components")));
    await page.keyboard.press("/");
    await page.keyboard.type("nothing-like-this");
    await page.getByText("No component on this page matches the search.").waitFor();
    await page.goto("/components?q=greeter");
    await page.getByRole("link", { name: "Deploy e2e-greeter" }).click();
    await page.waitForURL(/action=create&key=e2e-greeter/);
    await new CreateSourcePage(page).waitForForm();
  });

  it("deploys from ?action=create&key= with a form of every static prop type", async () => {
    const create = new CreateSourcePage(page);
    await create.gotoKey("e2e-greeter");
    await create.waitForForm();
    audit.push(...(await screenshotAndAudit(page, "source-create-form")));
    await page.getByLabel("Name", { exact: true }).fill("greeter-from-key");
    await create.fill("Greeting", "Hello");
    await create.fill("Token", "s3cret-token");
    await create.fill("Count", "3");
    await page.getByLabel("Loud").check();
    await page.getByLabel("Color").selectOption("green");
    await create.fill("Settings", '{"mode": "fast"}');
    await create.fill("Tags", '["a", "b"]');
    await create.deploy();
    await page.waitForURL(/\/sources\/dc_/);
    const id = new SourcePage(page).id();
    const source = await sluice.client.getSource(id);
    expect(source.name).toBe("greeter-from-key");
    expect(source.configured_props).toMatchObject({
      greeting: "Hello",
      count: 3,
      loud: true,
      color: "green",
      settings: { mode: "fast" },
      tags: ["a", "b"],
    });
    // The secret is stored but never shown back.
    expect(JSON.stringify(source.configured_props)).not.toContain("s3cret-token");
  });

  it("remote options (searched, three pages) and an app prop connected through the keys form deploy", async () => {
    const create = new CreateSourcePage(page);
    const form = new DynamicPropsForm(page);
    await create.gotoKey("e2e-regions");
    await create.waitForForm();
    await page.getByLabel("Name", { exact: true }).fill("regions");

    // An app nobody registered: free key/value fields; the new account is selected.
    await form.connectNew("e2e-vault", "e2e vault", { token: "vault-s3cret" });
    const vault = page.getByLabel("Vault", { exact: true });
    await expect.poll(() => vault.inputValue()).toMatch(/^apn_/);
    const accountId = await vault.inputValue();
    const accounts = await sluice.client.request<{ data: { id: string; app: string; name: string }[] }>(
      "GET",
      "/v1/connected_accounts",
      { query: { app: "e2e-vault" } },
    );
    expect(accounts.data).toEqual([
      expect.objectContaining({ id: accountId, app: "e2e-vault", name: "e2e vault" }),
    ]);

    // The first page loads at once; the search narrows; Load more follows prevContext to the end.
    await expect.poll(() => form.optionsOf("Region")).toEqual(["Amsterdam", "Berlin", "Bordeaux"]);
    await form.search("Region", "b");
    await expect.poll(() => form.optionsOf("Region")).toEqual(["Berlin", "Bordeaux", "Boston"]);
    await form.loadMore().click();
    await expect
      .poll(() => form.optionsOf("Region"))
      .toEqual(["Berlin", "Bordeaux", "Boston", "Brussels", "Budapest", "Bogota"]);
    await form.loadMore().click();
    await expect.poll(() => form.optionsOf("Region")).toHaveLength(7);
    await form.settled();
    expect(await form.loadMore().count()).toBe(0);
    await page.getByLabel("Region", { exact: true }).selectOption({ label: "Bern" });
    audit.push(...(await screenshotAndAudit(page, "source-create-dynamic")));

    await create.deploy();
    await page.waitForURL(/\/sources\/dc_/);
    const source = await sluice.client.getSource(new SourcePage(page).id());
    expect(source.configured_props).toMatchObject({ region: "bern", vault: { authProvisionId: accountId } });
    expect(JSON.stringify(source)).not.toContain("vault-s3cret");
  });

  it("an app prop of a registered app: Connect new shows its fields, and the server's check at the form", async () => {
    await appsApi(sluice.client).registerApp({
      slug: "e2e-weather",
      name: "E2E Weather",
      auth_type: "keys",
      fields: [
        { name: "api_key", label: "API key", secret: true },
        { name: "units", label: "Units", optional: true },
      ],
    });
    const create = new CreateSourcePage(page);
    await create.gotoKey("e2e-weather");
    await create.waitForForm();
    await page.getByRole("button", { name: "Connect new e2e-weather account" }).click();
    await page.getByRole("group", { name: "New E2E Weather account" }).waitFor();
    await page.getByLabel("Account name").fill("home");
    await page.getByLabel("Units").fill("metric");
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    await page.getByRole("alert").filter({ hasText: "needs the field 'api_key'" }).waitFor();
    expect(await page.getByLabel("API key").getAttribute("type")).toBe("password");
    audit.push(...(await screenshotAndAudit(page, "source-create-connect")));
    await page.getByLabel("API key").fill("w-s3cret");
    await page.getByRole("button", { name: "Connect", exact: true }).click();
    const weather = page.getByLabel("Weather", { exact: true });
    await expect.poll(() => weather.inputValue()).toMatch(/^apn_/);
    const accountId = await weather.inputValue();
    await create.deploy();
    await page.waitForURL(/\/sources\/dc_/);
    const source = await sluice.client.getSource(new SourcePage(page).id());
    expect(source.configured_props).toMatchObject({
      weather: { authProvisionId: accountId },
    });
    expect(JSON.stringify(source)).not.toContain("w-s3cret");
  });

  it("reloadProps: the props the component adds appear and deploy with the dyp_ id; its ConfigurationError shows at the prop", async () => {
    const create = new CreateSourcePage(page);
    await create.gotoKey("e2e-sheet");
    await create.waitForForm();
    await page.getByLabel("Name", { exact: true }).fill("sheet");
    await create.fill("Header row", "name,email");
    await page.getByLabel("EMAIL", { exact: true }).waitFor();
    await create.fill("Header row", "");
    await expect
      .poll(() => create.messageOf("Header row"))
      .toContain("The sheet has no header row: add one in row 1");
    await create.fill("Header row", "name,email");
    await expect.poll(() => create.messageOf("Header row")).not.toContain("header row");
    await create.fill("NAME", "Ada");
    await create.fill("EMAIL", "ada@example.com");
    await create.deploy();
    await page.waitForURL(/\/sources\/dc_/);
    const source = await sluice.client.getSource(new SourcePage(page).id());
    expect(source.configured_props).toMatchObject({
      headerRow: "name,email",
      name: "Ada",
      email: "ada@example.com",
    });
  });

  it("bad prop values (invalid JSON, over 64 KB, out of range) show at their prop and deploy nothing", async () => {
    const before = await sourceCount();
    const create = new CreateSourcePage(page);
    await create.gotoKey("e2e-greeter");
    await create.waitForForm();
    await create.fill("Greeting", "x".repeat(65 * 1024));
    await create.fill("Count", "11");
    await create.fill("Settings", "{not json");
    await create.deploy();
    await page.locator("#prop-settings-error").waitFor();
    expect(await create.messageOf("Settings")).toContain("Invalid JSON");
    expect(await create.messageOf("Greeting")).toContain("64 KB");
    expect(await create.messageOf("Count")).toContain("At most 10");
    audit.push(...(await screenshotAndAudit(page, "source-create-errors")));
    expect(await sourceCount()).toBe(before);
  });

  it("a component URL that 404s says so at the URL field and creates nothing", async () => {
    const before = await sourceCount();
    const create = new CreateSourcePage(page);
    await create.gotoUrl(`${codeServer.url}/missing.mjs`);
    await page.locator("#origin-url-msg.field-error").waitFor();
    expect(await create.messageOf("Component URL")).toMatch(/404/);
    expect(await sourceCount()).toBe(before);
  });

  let urlSourceId = "";

  it("deploys from ?action=create&url= (a URL served by the test)", async () => {
    const create = new CreateSourcePage(page);
    await create.gotoUrl(`${codeServer.url}/greeter.mjs`);
    await create.waitForForm();
    await page.getByLabel("Name", { exact: true }).fill("greeter-from-url");
    await create.fill("Greeting", "Hi");
    await create.deploy();
    await page.waitForURL(/\/sources\/dc_/);
    urlSourceId = new SourcePage(page).id();
    expect((await sluice.client.getSource(urlSourceId)).configured_props).toMatchObject({
      greeting: "Hi",
      count: 1,
    });
  });

  it("an event sent to the endpoint appears live on the Events tab, without a reload", async () => {
    const sourcePage = new SourcePage(page);
    await page.goto(`/sources/${urlSourceId}`);
    await sourcePage.liveBadge().waitFor();
    const endpoint = (await sluice.client.getSource(urlSourceId)).endpoint_url ?? "";
    const navigations: string[] = [];
    page.on("framenavigated", (frame) => navigations.push(frame.url()));
    const sent = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "order 42 shipped", items: [{ sku: "A-1", qty: 2 }] }),
    });
    expect(sent.status).toBe(200);
    await sourcePage.events().filter({ hasText: "Hi: order 42 shipped" }).waitFor();
    await sourcePage.inspector().getByText('"order 42 shipped"').waitFor();
    expect(navigations).toEqual([]);
    await sourcePage.inspector().getByRole("button", { name: "Copy JSON" }).click();
    expect(await page.evaluate("navigator.clipboard.readText()")).toContain("order 42 shipped");
    // Search within the payloads.
    await page.keyboard.press("/");
    await page.keyboard.type("no such thing");
    await page.getByText("No event matches the search.").waitFor();
    await page.getByLabel("Search events").fill("A-1");
    await sourcePage.events().first().waitFor();
    audit.push(...(await screenshotAndAudit(page, "source-events")));
    await sourcePage.openTab("Logs");
    audit.push(...(await screenshotAndAudit(page, "source-logs")));
  });

  it("changing a prop on the Configuration tab keeps the dc_ id", async () => {
    const sourcePage = new SourcePage(page);
    await page.goto(`/sources/${urlSourceId}?tab=configuration`);
    const greeting = page.getByLabel("Greeting", { exact: true });
    await greeting.waitFor();
    expect(await greeting.inputValue()).toBe("Hi");
    await greeting.fill("Howdy");
    await page.getByRole("button", { name: "Update" }).click();
    await page.getByText(`Updated. The source keeps its id, ${urlSourceId}.`).waitFor();
    expect(sourcePage.id()).toBe(urlSourceId);
    const source = await sluice.client.getSource(urlSourceId);
    expect(source.id).toBe(urlSourceId);
    expect(source.configured_props).toMatchObject({ greeting: "Howdy" });
    audit.push(...(await screenshotAndAudit(page, "source-configuration")));
  });

  it("the sources list is searchable with /, and deletes a source after a confirmation", async () => {
    const sources = new SourcesPage(page);
    await sources.goto();
    await sources.row("greeter-from-key").waitFor();
    // Name, component and version, state, endpoint and the last event's time.
    const fromUrl = await sources.row("greeter-from-url").textContent();
    expect(fromUrl).toContain("e2e-greeter@0.1.0");
    expect(fromUrl).toContain("active");
    expect(fromUrl).not.toContain("none yet");
    expect(await sources.row("greeter-from-key").textContent()).toContain("none yet");
    audit.push(...(await screenshotAndAudit(page, "sources")));
    await sources.search("from-url");
    await page.waitForURL(/q=from-url/);
    expect(await sources.row("greeter-from-key").count()).toBe(0);
    await sources.row("greeter-from-url").waitFor();
    await page.goto("/sources");
    const before = await sourceCount();
    await sources.delete("greeter-from-key");
    await sources.row("greeter-from-key").waitFor({ state: "detached" });
    expect(await sourceCount()).toBe(before - 1);
  });

  it("a webhook: created with its secret shown once; a failed delivery is logged, then resent once the receiver recovers", async () => {
    const webhooks = new WebhooksPage(page);
    await webhooks.goto();
    const secret = await webhooks.create("orders-hook", `${receiver.url}/hook`);
    expect(secret).toMatch(/^whsec_/);
    audit.push(...(await screenshotAndAudit(page, "webhooks")));
    const webhook = (await sluice.client.listWebhooks()).data.find(
      (candidate) => candidate.name === "orders-hook",
    );
    if (!webhook) throw new Error("the webhook was not created");
    // Reloading the list never shows the secret again.
    await page.reload();
    await page.getByRole("link", { name: "orders-hook" }).waitFor();
    expect(await page.content()).not.toContain(secret);

    // Subscribe on the source's Subscriptions tab.
    await page.goto(`/sources/${urlSourceId}?tab=subscriptions`);
    await page.getByLabel("Send events to").selectOption(webhook.id);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByRole("link", { name: "orders-hook" }).waitFor();
    audit.push(...(await screenshotAndAudit(page, "source-subscriptions")));

    const endpoint = (await sluice.client.getSource(urlSourceId)).endpoint_url ?? "";
    await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"message":"to deliver"}',
    });
    await receiver.waitFor(1);

    const webhookPage = new WebhookPage(page);
    await page.goto(`/webhooks/${webhook.id}`);
    await webhookPage.filterStatus("failed");
    await page.waitForURL(/status=failed/);
    const failed = webhookPage.deliveries().filter({ hasText: "failed" });
    await failed.first().waitFor({ timeout: 20_000 });
    expect(await failed.first().textContent()).toContain("500");
    audit.push(...(await screenshotAndAudit(page, "webhook-deliveries")));

    receiverUp = true;
    await failed.first().getByRole("button", { name: "Resend" }).click();
    await webhookPage.filterStatus("delivered");
    await webhookPage.deliveries().filter({ hasText: "delivered" }).first().waitFor({ timeout: 20_000 });
    const deliveries = await sluice.client.listDeliveries(webhook.id);
    expect(deliveries.data[0]).toMatchObject({ status: "delivered", last_status_code: 200 });

    // Recover: resend every failed delivery since a time.
    receiverUp = false;
    const arrived = receiver.requests.length;
    await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"message":"while down"}',
    });
    await receiver.waitFor(arrived + 1);
    await webhookPage.filterStatus("failed");
    await webhookPage.deliveries().filter({ hasText: "failed" }).first().waitFor({ timeout: 20_000 });
    receiverUp = true;
    const anHourAgo = await page.evaluate(
      "(() => { const d = new Date(Date.now() - 3600000); d.setMinutes(d.getMinutes() - d.getTimezoneOffset()); return d.toISOString().slice(0, 16); })()",
    );
    await page.getByLabel("Resend failed since").fill(String(anHourAgo));
    await page.getByRole("button", { name: "Recover" }).click();
    await page.getByText("1 failed delivery queued again").waitFor();
    await receiver.waitFor(arrived + 2);

    // Rotate the secret (shown once), set a rate limit, disable and enable.
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = (await page.locator("code.secret").textContent()) ?? "";
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByLabel("Rate limit (per second)").fill("5");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("button", { name: "Disable" }).click();
    await page.getByRole("button", { name: "Enable" }).waitFor();
    expect(await sluice.client.getWebhook(webhook.id)).toMatchObject({ rate_limit: 5, active: false });
    await page.getByRole("button", { name: "Enable" }).click();
    await page.getByRole("button", { name: "Disable" }).waitFor();
    expect((await sluice.client.getWebhook(webhook.id)).active).toBe(true);
  });

  it("a YAML syntax error shows at the document and deploys nothing", async () => {
    const workflows = new WorkflowsPage(page);
    await workflows.goto();
    await workflows.deploy(BROKEN_YAML);
    await workflows.error().waitFor();
    expect(await workflows.error().textContent()).toContain("YAML syntax error");
    expect((await sluice.client.listWorkflows()).page_info.total_count).toBe(0);
  });

  it("a failed workflow run shows its step error with the stack, and replays", async () => {
    const workflows = new WorkflowsPage(page);
    await workflows.goto();
    audit.push(...(await screenshotAndAudit(page, "workflows")));
    await workflows.deploy(FAILING_WORKFLOW);
    await page.waitForURL(/\/workflows\/p_/);
    const id = new URL(page.url()).pathname.split("/").pop() ?? "";
    await sluice.client.runWorkflow(id, { order: 42 });
    const workflowPage = new WorkflowPage(page);
    const run = workflowPage.run();
    await run.getByText("the order total is missing").first().waitFor({ timeout: 30_000 });
    const stepError = run.getByRole("region", { name: "Error of step explode" });
    await stepError.waitFor();
    expect(await stepError.textContent()).toContain("Error");
    audit.push(...(await screenshotAndAudit(page, "workflow-run")));

    await run.getByRole("button", { name: "Replay" }).click();
    await workflowPage.runs().filter({ hasText: "replay" }).first().waitFor();
    const runs = await sluice.client.listWorkflowRuns(id);
    expect(runs.data.some((candidate) => candidate.replay_of !== null)).toBe(true);

    // "Run with this event": the editor is pre-filled with the run's trigger event.
    const editor = run.getByLabel("Run with this event (JSON)");
    expect(JSON.parse(await editor.inputValue())).toEqual({ order: 42 });
    await editor.fill('{"order": 43}');
    await run.getByRole("button", { name: "Run with this event" }).click();
    await expect
      .poll(async () => (await sluice.client.listWorkflowRuns(id)).data.map((item) => item.trigger.event), {
        timeout: 20_000,
      })
      .toContainEqual({ order: 43 });

    await page.goto(`/workflows/${id}?tab=document`);
    await page.getByLabel("Document (YAML)").waitFor();
    audit.push(...(await screenshotAndAudit(page, "workflow-document")));
  });

  it("API keys: created and shown once, revoked; the accounts page is an admin's", async () => {
    await page.goto("/keys");
    await page.getByLabel("Name").fill("laptop");
    await page.getByRole("button", { name: "Create key" }).click();
    const key = (await page.locator("code.secret").textContent()) ?? "";
    expect(key).toMatch(/^sk_/);
    audit.push(...(await screenshotAndAudit(page, "keys")));
    const row = page.getByRole("row").filter({ hasText: "laptop" });
    await row.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Yes, revoke" }).click();
    await row.waitFor({ state: "detached" });
    await expect(sluice.clientWith(key).me()).rejects.toMatchObject({ status: 401 });

    await page.goto("/accounts");
    await page.getByRole("heading", { name: "Accounts" }).waitFor();
    audit.push(...(await screenshotAndAudit(page, "accounts")));
    const other = await sluice.newAccount("not-an-admin");
    const second = await newContext(browser, sluice.url);
    const otherPage = await second.newPage();
    await otherPage.goto("/signin");
    await new SignInPage(otherPage).signIn(other.apiKey);
    await otherPage.getByRole("heading", { name: "Sources" }).waitFor();
    expect(await otherPage.getByRole("link", { name: "Accounts" }).count()).toBe(0);
    await otherPage.goto("/accounts");
    await otherPage.getByRole("heading", { name: "Not found" }).waitFor();
    await second.close();
  });

  it("signing out ends the session: the next page goes back to sign-in", async () => {
    await page.goto("/sources");
    await page.getByRole("button", { name: "Sign out" }).click();
    await page.waitForURL(/\/signin/);
    await page.goto("/sources");
    await page.waitForURL(/\/signin\?next=%2Fsources/);
  });

  it("no page has a serious or critical accessibility violation", () => {
    expect(audit.join("\n")).toBe("");
  });
});

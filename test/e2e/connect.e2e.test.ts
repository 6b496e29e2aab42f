/**
 * The connect link page in a real browser (Debian's chromium), driven from a product's page on
 * another origin that uses `@pipedream/sdk/browser`'s frontend client with connect tokens from the
 * product's server (the SDK's server client): it opens `connect_link_url`, the end user fills the
 * keys form, and the product's page receives `{type: "success", authProvisionId}`. An OAuth app
 * too: the page opens the provider's sign-in (oauth2-mock-server on loopback) in a popup and the
 * product's page receives the same message when the callback has connected. Also the SDK's
 * own `connectAccount` (its iframe on `frontendHost`, routed to this server), an expired token's
 * refusal, and screenshots with an axe audit of the page. Runs once, on SQLite: the page speaks
 * only the REST API, which the Connect suites cover on both dialects.
 */
import { PipedreamClient } from "@pipedream/sdk";
import { build } from "esbuild";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appsApi } from "../../src/client/apps-client.js";
import { type ConnectSetUp, setUpConnectProject } from "../support/connect-project.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { type OAuthProvider, startOAuthProvider } from "../support/oauth-provider.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { ConnectIframe, ConnectLinkPage } from "./pages/connect-page.js";
import { launchBrowser, newContext, screenshotAndAudit } from "./support/browser.js";

const sqlite = dialects.find((dialect) => dialect.name === "sqlite");
/** The SDK's iframe loads https://<frontendHost>/_static/connect.html; the browser routes that host here. */
const FRONTEND_HOST = "connect.sluice.test";

/** What the product's page runs: the SDK's frontend client, with tokens from the product's server. */
const PRODUCT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Product</title></head>
<body><h1>Product</h1><script src="/sdk.js"></script><script>
  window.messages = [];
  window.addEventListener("message", (event) => window.messages.push(event.data));
  window.frontendClient = (externalUserId) =>
    PipedreamBrowser.createFrontendClient({
      baseUrl: window.SLUICE_URL,
      externalUserId,
      projectEnvironment: "development",
      frontendHost: "${FRONTEND_HOST}",
      tokenCallback: async ({ externalUserId }) => {
        const answer = await (await fetch("/token?external_user_id=" + encodeURIComponent(externalUserId))).json();
        return { token: answer.token, expiresAt: new Date(answer.expiresAt), connectLinkUrl: answer.connectLinkUrl };
      },
    });
</script></body></html>`;

describe("the connect link page in a browser", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let sluice: TestServer;
  let connect: ConnectSetUp;
  let backend: PipedreamClient;
  /** The product: its page, the SDK bundle and its token route (its server side). */
  let product: Recorder;
  let provider: OAuthProvider;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const audit: string[] = [];

  beforeAll(async () => {
    if (!sqlite) throw new Error("no sqlite dialect");
    database = await sqlite.create();
    // The OAuth provider is on loopback, which Sluice's outbound requests may reach only when told.
    sluice = await startTestServer(database, { env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8" } });
    connect = await setUpConnectProject(sluice);
    provider = await startOAuthProvider();
    await appsApi(connect.owner.client).registerApp({
      slug: "mockprovider",
      name: "Mock Provider",
      auth_type: "oauth",
      fields: [{ name: "region", label: "Region", optional: true }],
      oauth: provider.appSettings() as never,
    });
    backend = new PipedreamClient({
      baseUrl: sluice.url,
      projectId: connect.project.id,
      clientId: connect.clientId,
      clientSecret: connect.clientSecret,
      projectEnvironment: "development",
    });
    // The product's page loads the SDK's browser build, as a bundler would ship it.
    const bundle = await build({
      stdin: { contents: 'export * from "@pipedream/sdk/browser";', resolveDir: process.cwd() },
      bundle: true,
      format: "iife",
      globalName: "PipedreamBrowser",
      platform: "browser",
      write: false,
      logLevel: "silent",
    });
    const sdk = bundle.outputFiles[0]?.text ?? "";
    product = await startRecorder(async (request) => {
      const at = new URL(request.url, "http://product");
      if (at.pathname === "/sdk.js")
        return { status: 200, body: sdk, headers: { "content-type": "text/javascript" } };
      if (at.pathname === "/token") {
        const token = await backend.tokens.create({
          externalUserId: at.searchParams.get("external_user_id") ?? "",
        });
        return {
          status: 200,
          body: JSON.stringify({
            token: token.token,
            expiresAt: token.expiresAt,
            connectLinkUrl: token.connectLinkUrl,
          }),
          headers: { "content-type": "application/json" },
        };
      }
      return {
        status: 200,
        body: PRODUCT_PAGE.replace(
          "<script src",
          `<script>window.SLUICE_URL = ${JSON.stringify(sluice.url)};</script><script src`,
        ),
        headers: { "content-type": "text/html" },
      };
    });
    browser = await launchBrowser();
    context = await newContext(browser, product.url);
    // The SDK's iframe is https://connect.sluice.test/_static/connect.html: served by this Sluice.
    await context.route(`https://${FRONTEND_HOST}/**`, async (route) => {
      const target = new URL(route.request().url());
      const response = await route.fetch({ url: `${sluice.url}${target.pathname}${target.search}` });
      await route.fulfill({ response });
    });
    page = await context.newPage();
    await page.goto("/");
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await product?.close();
    await provider?.close();
    await sluice?.close();
    await database?.cleanup();
  });

  it("opens connect_link_url from the product's page, connects a keys app, and posts the authProvisionId to the opener", async () => {
    const before = await page.evaluate(async () => {
      const client = (
        globalThis as unknown as {
          frontendClient(id: string): { accounts: { list(): Promise<{ data: unknown[] }> } };
        }
      ).frontendClient("user-e2e");
      return (await client.accounts.list()).data.length;
    });
    expect(before).toBe(0);

    const link = (await backend.tokens.create({ externalUserId: "user-e2e" })).connectLinkUrl;
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      page.evaluate(
        (url) =>
          void (globalThis as unknown as { open(url: string, name: string): unknown }).open(url, "connect"),
        `${link}&app=connect_vault`,
      ),
    ]);
    const connectPage = new ConnectLinkPage(popup);
    await connectPage.heading().filter({ hasText: "Connect Connect Vault" }).waitFor();
    audit.push(...(await screenshotAndAudit(popup, "connect-link")));
    await connectPage.fill("User", "erin");
    await connectPage.connect();
    await expect.poll(() => connectPage.alert().textContent()).toContain("needs the field 'rooms'");
    await connectPage.fill("Rooms", "general,ops");
    await connectPage.connect();
    await connectPage.connected().waitFor();
    audit.push(...(await screenshotAndAudit(popup, "connect-link-done")));

    const messages = (await page.evaluate("window.messages")) as { type: string; authProvisionId?: string }[];
    const success = messages.find((message) => message.type === "success");
    expect(success?.authProvisionId).toMatch(/^apn_/);
    await connectPage.close();
    // postMessage reaches the opener as a task of its own: it may come after the click returns.
    await expect.poll(() => page.evaluate("window.messages.map((m) => m.type)")).toContain("close");

    // The SDK's browser client (a fresh token: the one used is spent) and its server client see it.
    const listed = await page.evaluate(async () => {
      const client = (
        globalThis as unknown as {
          frontendClient(id: string): {
            accounts: { list(): Promise<{ data: { id: string; externalId: string }[] }> };
          };
        }
      ).frontendClient("user-e2e");
      return (await client.accounts.list()).data;
    });
    expect(listed).toEqual([
      expect.objectContaining({ id: success?.authProvisionId, externalId: "user-e2e" }),
    ]);
    const account = await backend.accounts.retrieve(success?.authProvisionId ?? "", {
      includeCredentials: true,
    });
    expect(account.credentials).toEqual({ user: "erin", rooms: "general,ops" });
  });

  it("connects an OAuth app: the page opens the provider's sign-in in a popup, and the opener receives the authProvisionId", async () => {
    await page.evaluate("window.messages = []");
    const link = (await backend.tokens.create({ externalUserId: "user-oauth" })).connectLinkUrl;
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      page.evaluate(
        (url) =>
          void (globalThis as unknown as { open(url: string, name: string): unknown }).open(url, "oauth"),
        `${link}&app=mockprovider`,
      ),
    ]);
    const connectPage = new ConnectLinkPage(popup);
    await connectPage.heading().filter({ hasText: "Connect Mock Provider" }).waitFor();
    audit.push(...(await screenshotAndAudit(popup, "connect-link-oauth")));
    await connectPage.fill("Region (optional)", "eu");
    const [signIn] = await Promise.all([
      popup.waitForEvent("popup"),
      popup.getByRole("button", { name: "Continue to Mock Provider" }).click(),
    ]);
    await connectPage.connected().waitFor();
    expect(await connectPage.connected().textContent()).toContain("Mock Provider is connected");
    // The callback page closes itself once it has told the link page.
    await expect.poll(() => signIn.isClosed()).toBe(true);

    const messages = (await page.evaluate("window.messages")) as { type: string; authProvisionId?: string }[];
    const success = messages.find((message) => message.type === "success");
    expect(success?.authProvisionId).toMatch(/^apn_/);
    const account = await backend.accounts.retrieve(success?.authProvisionId ?? "", {
      includeCredentials: true,
    });
    expect(account).toMatchObject({ externalId: "user-oauth", app: { nameSlug: "mockprovider" } });
    // The provider's access token, sealed with the region given on the page (the SDK renames keys).
    const credentials = Object.values(account.credentials ?? {});
    expect(credentials).toContain("eu");
    expect(credentials.some((value) => provider.issued.includes(String(value)))).toBe(true);
    await popup.close();
  });

  it("the SDK's connectAccount opens the page in its iframe and reports success with the account id", async () => {
    const result = page.evaluate(
      () =>
        new Promise<string>((resolve, reject) => {
          const client = (
            globalThis as unknown as {
              frontendClient(id: string): { connectAccount(opts: unknown): Promise<void> };
            }
          ).frontendClient("user-iframe");
          void client.connectAccount({
            app: "connect_vault",
            onSuccess: ({ id }: { id: string }) => resolve(id),
            onError: (error: Error) => reject(error),
          });
        }),
    );
    const iframe = new ConnectIframe(page);
    const frame = iframe.frame();
    await frame.getByRole("heading", { name: "Connect Connect Vault" }).waitFor();
    await frame.getByLabel("User", { exact: true }).fill("iris");
    await frame.getByLabel("Rooms", { exact: true }).fill("iframe");
    await frame.getByRole("button", { name: "Connect" }).click();
    const id = await result;
    expect(id).toMatch(/^apn_/);
    // Closing the page closes the SDK's iframe.
    await iframe.close();
    const accounts = await backend.accounts.list({ externalUserId: "user-iframe" });
    expect(accounts.data.map((item) => item.id)).toEqual([id]);
  });

  it("the SDK's connectAccount connects an OAuth app: the sign-in popup opens from its iframe", async () => {
    const result = page.evaluate(
      () =>
        new Promise<string>((resolve, reject) => {
          const client = (
            globalThis as unknown as {
              frontendClient(id: string): { connectAccount(opts: unknown): Promise<void> };
            }
          ).frontendClient("user-iframe-oauth");
          void client.connectAccount({
            app: "mockprovider",
            onSuccess: ({ id }: { id: string }) => resolve(id),
            onError: (error: Error) => reject(error),
          });
        }),
    );
    const iframe = new ConnectIframe(page);
    const frame = iframe.frame();
    await frame.getByRole("heading", { name: "Connect Mock Provider" }).waitFor();
    await Promise.all([
      context.waitForEvent("page"),
      frame.getByRole("button", { name: "Continue to Mock Provider" }).click(),
    ]);
    const id = await result;
    expect(id).toMatch(/^apn_/);
    await iframe.close();
    const accounts = await backend.accounts.list({ externalUserId: "user-iframe-oauth" });
    expect(accounts.data.map((item) => item.id)).toEqual([id]);
  });

  it("an expired connect token cannot connect: the page says so and tells the opener", async () => {
    const token = await backend.tokens.create({ externalUserId: "user-late", expiresIn: 1 });
    // The token lives a second: wait until the server refuses it (the connect page's own check).
    await expect
      .poll(
        async () => {
          const checked = await fetch(`${sluice.url}/v1/connect/tokens/${token.token}/validate`);
          return ((await checked.json()) as { success: boolean }).success;
        },
        { timeout: 10_000 },
      )
      .toBe(false);
    await page.evaluate("window.messages = []");
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      page.evaluate(
        (url) =>
          void (globalThis as unknown as { open(url: string, name: string): unknown }).open(url, "late"),
        `${token.connectLinkUrl}&app=connect_vault`,
      ),
    ]);
    const connectPage = new ConnectLinkPage(popup);
    await connectPage.heading().filter({ hasText: "Could not connect" }).waitFor();
    expect(await connectPage.alert().textContent()).toContain("expired");
    expect(await popup.getByLabel("User", { exact: true }).count()).toBe(0);
    const messages = (await page.evaluate("window.messages")) as { type: string; error?: string }[];
    expect(messages).toEqual([expect.objectContaining({ type: "error" })]);
    expect((await backend.accounts.list({ externalUserId: "user-late" })).data).toEqual([]);
    await popup.close();
  });

  it("has no serious accessibility violations", () => {
    expect(audit).toEqual([]);
  });
});

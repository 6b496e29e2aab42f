/**
 * The Apps page in a real browser against a real server on SQLite: connected accounts with their
 * app and health, connecting one with a registered app's keys form, renaming, reconnecting (a keys
 * account's fields entered again; an OAuth account whose refresh token was revoked, through the
 * provider, oauth2-mock-server on loopback, in a popup: the same apn_ id, healthy again), the list
 * paged on the server, and deleting (an account a source uses is refused with a clear message,
 * then deleted anyway). Screenshots and an axe audit, with the confirmation dialog open too.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appsApi } from "../../src/client/apps-client.js";
import { followAuthorize, type OAuthProvider, startOAuthProvider } from "../support/oauth-provider.js";
import type { TestServer } from "../support/server.js";
import { AppsPage } from "./pages/apps-page.js";
import { screenshotAndAudit } from "./support/browser.js";
import { WEATHER_SOURCE } from "./support/fixtures.js";
import { expectShowsNow } from "./support/shown-time.js";
import { startUiTest, type UiTest } from "./support/ui-test.js";

/** An action that needs its app prop's credentials: the length of e2e-weather's api_key. */
const KEY_LENGTH_ACTION = `export default {
  name: "key length", type: "action",
  props: { weather: { type: "app", app: "e2e-weather" } },
  async run() { return { keyLength: String(this.weather.$auth.api_key).length }; },
};`;

/** An action with an OAuth app prop: running it refreshes a token about to expire. */
const PROVIDER_ACTION = `export default {
  name: "touch provider", type: "action",
  props: { provider: { type: "app", app: "mockprovider" } },
  async run() { return { hasToken: typeof this.provider.$auth.oauth_access_token === "string" }; },
};`;

describe("the Apps page in a browser", { timeout: 120_000 }, () => {
  let ui: UiTest;
  let sluice: TestServer;
  let provider: OAuthProvider;
  let page: Page;
  let usedId = "";
  let sourceId = "";
  const audit: string[] = [];

  beforeAll(async () => {
    provider = await startOAuthProvider();
    // The OAuth provider is on loopback, which Sluice's outbound requests may reach only when told.
    ui = await startUiTest({ env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8" } });
    ({ sluice, page } = ui);
    const apps = appsApi(sluice.client);
    await apps.registerApp({
      slug: "mockprovider",
      name: "Mock Provider",
      auth_type: "oauth",
      oauth: provider.appSettings() as never,
    });
    await apps.registerApp({
      slug: "e2e-weather",
      name: "E2E Weather",
      auth_type: "keys",
      fields: [
        { name: "api_key", label: "API key", secret: true },
        { name: "units", label: "Units", optional: true },
      ],
    });
    const used = await apps.createConnectedAccount({
      app: "e2e-weather",
      name: "home",
      fields: { api_key: "k1" },
    });
    usedId = used.id;
    sourceId = (
      await sluice.client.deploySource({
        component_code: WEATHER_SOURCE,
        configured_props: { weather: { authProvisionId: used.id } },
      })
    ).id;
  }, 120_000);

  afterAll(async () => {
    await ui?.close();
    await provider?.close();
  });

  it("the nav's Apps link lists the connected accounts with their app and health", async () => {
    await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Apps" }).click();
    await page.waitForURL(/\/apps$/);
    const apps = new AppsPage(page);
    const home = apps.row("home");
    await home.waitFor();
    const text = await home.textContent();
    expect(text).toContain("e2e-weather");
    expect(text).toContain(usedId);
    // Connected in beforeAll, moments ago.
    expectShowsNow(text ?? "");
    await home.getByText("healthy", { exact: true }).waitFor();
    audit.push(...(await screenshotAndAudit(page, "apps")));
  });

  it("connects an account with the app's keys form; a missing field is said at the form", async () => {
    const apps = new AppsPage(page);
    await apps.startConnect("e2e-weather");
    await page.getByRole("group", { name: "New E2E Weather account" }).waitFor();
    await apps.fill("Account name", "office");
    await apps.fill("Units", "metric");
    await apps.connect();
    await page.getByRole("alert").filter({ hasText: "needs the field 'api_key'" }).waitFor();
    audit.push(...(await screenshotAndAudit(page, "apps-connect")));
    await apps.fill("API key", "k2-s3cret");
    await apps.connect();
    await page.getByRole("status").filter({ hasText: "Connected: apn_" }).waitFor();
    await apps.row("office").waitFor();
    const listed = await appsApi(sluice.client).listConnectedAccounts({ app: "e2e-weather" });
    expect(listed.data.map((account) => account.name).sort()).toEqual(["home", "office"]);
    expect(await page.content()).not.toContain("k2-s3cret");
  });

  it("renames an account, filters by app in the URL", async () => {
    const apps = new AppsPage(page);
    await apps.rename("office", "office-2");
    await apps.row("office-2").waitFor();
    const listed = await appsApi(sluice.client).listConnectedAccounts({ app: "e2e-weather" });
    expect(listed.data.map((account) => account.name).sort()).toEqual(["home", "office-2"]);
    await page.getByLabel("App", { exact: true }).last().selectOption("e2e-weather");
    await page.waitForURL(/\/apps\?app=e2e-weather$/);
    await apps.row("home").waitFor();
    await apps.goto("?app=nobody-uses-this");
    await page.getByText("No nobody-uses-this account connected.").waitFor();
  });

  it("reconnects a keys account with its fields entered again: the same apn_ id, the new key used", async () => {
    const apps = new AppsPage(page);
    const rotating = await appsApi(sluice.client).createConnectedAccount({
      app: "e2e-weather",
      name: "rotating",
      fields: { api_key: "old" },
    });
    await apps.goto();
    await apps.startReconnect("rotating");
    audit.push(...(await screenshotAndAudit(page, "apps-reconnect")));
    const form = apps.reconnectForm("rotating");
    await form.getByRole("button", { name: "Reconnect", exact: true }).click();
    await form.getByRole("alert").filter({ hasText: "needs the field 'api_key'" }).waitFor();
    await apps.fill("API key", "new-key-s3cret");
    await form.getByRole("button", { name: "Reconnect", exact: true }).click();
    await form.waitFor({ state: "detached" });
    await apps.row("rotating").getByRole("status").filter({ hasText: "Reconnected." }).waitFor();
    const run = await sluice.client.runAction({
      component_code: KEY_LENGTH_ACTION,
      configured_props: { weather: { authProvisionId: rotating.id } },
    });
    expect(run.return_value).toEqual({ keyLength: "new-key-s3cret".length });
    expect(await page.content()).not.toContain("new-key-s3cret");
    await appsApi(sluice.client).deleteConnectedAccount(rotating.id);
  });

  it("reconnects an OAuth account whose refresh token was revoked: the provider in a popup, then healthy with the same apn_ id", async () => {
    const api = appsApi(sluice.client);
    // A token that expires within the refresh margin, so the next run refreshes it, and is refused.
    provider.expiresIn = 30;
    const started = await api.startOAuthConnection({ app: "mockprovider", name: "work" });
    const { authProvisionId = "" } = await followAuthorize(started.authorize_url);
    provider.expiresIn = 3600;
    provider.revokeRefreshTokens();
    const run = await sluice.client.runAction({
      component_code: PROVIDER_ACTION,
      configured_props: { provider: { authProvisionId } },
    });
    expect(run.ok).toBe(false);
    expect(await api.getConnectedAccount(authProvisionId)).toMatchObject({ healthy: false });

    const apps = new AppsPage(page);
    await apps.goto("?app=mockprovider");
    await apps.row("work").getByText("unhealthy", { exact: true }).waitFor();
    expect(await apps.row("work").textContent()).toContain("invalid_grant");
    await apps.startReconnect("work");
    const [popup] = await Promise.all([
      page.waitForEvent("popup"),
      page.getByRole("button", { name: "Reconnect with Mock Provider" }).click(),
    ]);
    // The callback page tells this page and closes itself.
    await expect.poll(() => popup.isClosed(), { timeout: 20_000 }).toBe(true);
    await apps.reconnectForm("work").waitFor({ state: "detached" });
    const row = apps.row("work");
    await row.getByText("healthy", { exact: true }).waitFor();
    expect(await row.textContent()).toContain(authProvisionId);
    expect(await api.getConnectedAccount(authProvisionId)).toMatchObject({ healthy: true, error: null });
    expect((await api.listConnectedAccounts({ app: "mockprovider" })).data).toHaveLength(1);
    const healed = await sluice.client.runAction({
      component_code: PROVIDER_ACTION,
      configured_props: { provider: { authProvisionId } },
    });
    expect(healed.ok, JSON.stringify(healed.failure)).toBe(true);
  });

  it("deleting an account in use says which source uses it and keeps it; Delete anyway deletes it", async () => {
    const apps = new AppsPage(page);
    await apps.goto();
    await apps.askDelete("office-2");
    audit.push(...(await screenshotAndAudit(page, "apps-delete-dialog")));
    await apps.confirm();
    await apps.row("office-2").waitFor({ state: "detached" });

    await apps.askDelete("home");
    await apps.confirm();
    const alert = apps.alertOf("home");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("In use, not deleted");
    expect(await alert.textContent()).toContain(sourceId);
    expect((await appsApi(sluice.client).getConnectedAccount(usedId)).id).toBe(usedId);
    audit.push(...(await screenshotAndAudit(page, "apps-in-use")));
    await alert.getByRole("button", { name: "Delete anyway" }).click();
    await apps.confirm("Yes, delete anyway");
    await apps.row("home").waitFor({ state: "detached" });
    await expect(appsApi(sluice.client).getConnectedAccount(usedId)).rejects.toMatchObject({ status: 404 });
  });

  it("pages the list on the server: 50 at a time, the cursor in the URL", async () => {
    const api = appsApi(sluice.client);
    await api.registerApp({ slug: "e2e-bulk", auth_type: "keys", fields: [{ name: "token" }] });
    for (let index = 0; index <= 50; index++) {
      await api.createConnectedAccount({
        app: "e2e-bulk",
        name: `bulk-${String(index).padStart(2, "0")}`,
        fields: { token: "t" },
      });
    }
    const apps = new AppsPage(page);
    await apps.goto("?app=e2e-bulk");
    await page.getByText("50 shown of 51").waitFor();
    await apps.row("bulk-50").waitFor();
    expect(await apps.row("bulk-00").count()).toBe(0);
    await page.getByRole("button", { name: "Next page" }).click();
    await page.waitForURL(/\/apps\?app=e2e-bulk&after=/);
    await apps.row("bulk-00").waitFor();
    await page.getByText("1 shown of 51").waitFor();
    await page.getByRole("button", { name: "First page" }).click();
    await apps.row("bulk-50").waitFor();
  });

  it("no page has a serious or critical accessibility violation", () => {
    expect(audit.join("\n")).toBe("");
  });
});

/**
 * The Apps page in a real browser against a real server on SQLite: connected accounts with their
 * app and health, connecting one with a registered app's keys form, renaming, and deleting (an
 * account a source uses is refused with a clear message, then deleted anyway). Screenshots and an
 * axe audit, with the confirmation dialog open too. The OAuth popup is the app prop's flow,
 * covered by the REST OAuth suites and the Connect page's browser test.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appsApi } from "../../src/client/apps-client.js";
import type { TestServer } from "../support/server.js";
import { AppsPage } from "./pages/apps-page.js";
import { screenshotAndAudit } from "./support/browser.js";
import { WEATHER_SOURCE } from "./support/fixtures.js";
import { startUiTest, type UiTest } from "./support/ui-test.js";

describe("the Apps page in a browser", { timeout: 120_000 }, () => {
  let ui: UiTest;
  let sluice: TestServer;
  let page: Page;
  let usedId = "";
  let sourceId = "";
  const audit: string[] = [];

  beforeAll(async () => {
    ui = await startUiTest();
    ({ sluice, page } = ui);
    const apps = appsApi(sluice.client);
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

  it("no page has a serious or critical accessibility violation", () => {
    expect(audit.join("\n")).toBe("");
  });
});

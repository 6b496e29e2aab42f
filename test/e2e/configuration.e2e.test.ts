/**
 * The configuration form beyond static props, in a real browser against a real server on SQLite:
 * a component with additionalProps and no reloadProps prop (its added props appear as the form
 * shows, on the create page and on a deployed source's Configuration tab) beside an app prop and
 * a remote-options prop. Runs once, not per dialect: the UI speaks only the REST API.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { SignInPage } from "./pages/sign-in-page.js";
import { SourcePage } from "./pages/source-page.js";
import { CreateSourcePage, DynamicPropsForm } from "./pages/sources-page.js";
import { launchBrowser, newContext, screenshotAndAudit } from "./support/browser.js";
import { DISPATCH_SOURCE } from "./support/fixtures.js";

const sqlite = dialects.find((dialect) => dialect.name === "sqlite");

describe("the configuration form in a browser", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let sluice: TestServer;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  const audit: string[] = [];

  beforeAll(async () => {
    if (!sqlite) throw new Error("no sqlite dialect");
    database = await sqlite.create();
    sluice = await startTestServer(database);
    await sluice.client.publishComponent({ component_code: DISPATCH_SOURCE });
    browser = await launchBrowser();
    context = await newContext(browser, sluice.url);
    page = await context.newPage();
    await new SignInPage(page).goto("/sources");
    await new SignInPage(page).signIn(sluice.apiKey);
    await page.getByRole("heading", { name: "Sources" }).waitFor();
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await sluice?.close();
    await database?.cleanup();
  });

  let sourceId = "";
  let accountId = "";

  it("additionalProps without a reloadProps prop: the added props show on the create page and deploy", async () => {
    const create = new CreateSourcePage(page);
    const form = new DynamicPropsForm(page);
    await create.gotoKey("e2e-dispatch");
    await create.waitForForm();
    await page.getByLabel("Channel", { exact: true }).waitFor();
    await page.getByLabel("Name", { exact: true }).fill("dispatch");
    await form.connectNew("e2e-vault", "ops vault", { token: "vault-s3cret" });
    const vault = page.getByLabel("Vault", { exact: true });
    await expect.poll(() => vault.inputValue()).toMatch(/^apn_/);
    accountId = await vault.inputValue();
    await expect.poll(() => form.optionsOf("Region")).toEqual(["NORTH", "SOUTH", "EAST", "WEST"]);
    await page.getByLabel("Region", { exact: true }).selectOption({ label: "SOUTH" });
    await create.fill("Channel", "ops");
    await create.fill("Retries", "9");
    await create.deploy();
    await expect.poll(() => create.messageOf("Retries")).toContain("At most 5");
    await create.fill("Retries", "2");
    await create.deploy();
    await page.waitForURL(/\/sources\/dc_/);
    sourceId = new SourcePage(page).id();
    const source = await sluice.client.getSource(sourceId);
    expect(source.configured_props).toMatchObject({
      vault: { authProvisionId: accountId },
      region: "south",
      channel: "ops",
      retries: 2,
    });
  });

  it("the Configuration tab shows the app prop, the remote option and the added props, and updates them in place", async () => {
    const sourcePage = new SourcePage(page);
    await page.goto(`/sources/${sourceId}?tab=configuration`);
    const channel = page.getByLabel("Channel", { exact: true });
    await channel.waitFor();
    expect(await channel.inputValue()).toBe("ops");
    expect(await page.getByLabel("Retries", { exact: true }).inputValue()).toBe("2");
    expect(await page.getByLabel("Vault", { exact: true }).inputValue()).toBe(accountId);
    const region = page.getByLabel("Region", { exact: true });
    await expect.poll(() => region.locator("option:checked").textContent()).toBe("SOUTH");
    audit.push(...(await screenshotAndAudit(page, "source-configuration-dynamic")));

    await region.selectOption({ label: "WEST" });
    await channel.fill("alerts");
    await page.getByLabel("Retries", { exact: true }).fill("");
    await page.getByRole("button", { name: "Update" }).click();
    await page.getByText(`Updated. The source keeps its id, ${sourceId}.`).waitFor();
    expect(sourcePage.id()).toBe(sourceId);
    const source = await sluice.client.getSource(sourceId);
    expect(source.configured_props).toMatchObject({
      vault: { authProvisionId: accountId },
      region: "west",
      channel: "alerts",
    });
    expect(source.configured_props.retries ?? null).toBeNull();
    // After the update the tab still shows the added props, with the new values.
    await expect.poll(() => page.getByLabel("Channel", { exact: true }).inputValue()).toBe("alerts");
  });

  it("no page has a serious or critical accessibility violation", () => {
    expect(audit.join("\n")).toBe("");
  });
});

/**
 * The configuration form beyond static props, in a real browser against a real server on SQLite:
 * a component with additionalProps and no reloadProps prop (its added props appear as the form
 * shows, on the create page and on a deployed source's Configuration tab) beside an app prop and
 * a remote-options prop; data_store (picked or created) and http_request (the request editor) props. Runs once, not per dialect: the UI speaks only the REST API.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../support/server.js";
import { SourcePage } from "./pages/source-page.js";
import { CreateSourcePage, DynamicPropsForm } from "./pages/sources-page.js";
import { screenshotAndAudit } from "./support/browser.js";
import { DISPATCH_SOURCE, NOTIFY_SOURCE } from "./support/fixtures.js";
import { startUiTest, type UiTest } from "./support/ui-test.js";

describe("the configuration form in a browser", { timeout: 120_000 }, () => {
  let ui: UiTest;
  let sluice: TestServer;
  let page: Page;
  const audit: string[] = [];

  beforeAll(async () => {
    ui = await startUiTest({ publish: [DISPATCH_SOURCE, NOTIFY_SOURCE] });
    ({ sluice, page } = ui);
  }, 120_000);

  afterAll(async () => {
    await ui?.close();
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

  it("a data_store prop (a new store made from the form) and an http_request prop deploy, and show again on the Configuration tab", async () => {
    const create = new CreateSourcePage(page);
    await create.gotoKey("e2e-notify");
    await create.waitForForm();
    await page.getByLabel("Name", { exact: true }).fill("notify");

    await page.getByRole("button", { name: "New data store" }).click();
    await page.getByLabel("New data store name for Orders").fill("e2e-orders");
    await page.getByRole("button", { name: "Create data store" }).click();
    const orders = page.getByLabel("Orders", { exact: true });
    await expect.poll(() => orders.inputValue()).toMatch(/^ds_/);
    const storeId = await orders.inputValue();
    const stores = await sluice.client.request<{ data: { id: string; name: string }[] }>(
      "GET",
      "/v1/data_stores",
    );
    expect(stores.data).toEqual([expect.objectContaining({ id: storeId, name: "e2e-orders" })]);

    const request = page.getByRole("group", { name: "Request" });
    expect(await request.getByLabel("Method").inputValue()).toBe("POST");
    await request.getByLabel("URL").fill("not a url");
    await create.deploy();
    await page.locator("#prop-request-error").filter({ hasText: "absolute URL" }).waitFor();
    await request.getByLabel("URL").fill("https://api.example.com/notify");
    await request.getByLabel("Method").selectOption("PUT");
    await request.getByRole("button", { name: "Add a param" }).click();
    await request.getByLabel("Param 1 name").fill("page");
    await request.getByLabel("Param 1 value").fill("2");
    await request.getByRole("button", { name: "Add a header" }).click();
    await request.getByLabel("Header 1 name").fill("x-team");
    await request.getByLabel("Header 1 value").fill("ops");
    await request.getByLabel("Body", { exact: true }).fill('{"hello": "world"}');
    audit.push(...(await screenshotAndAudit(page, "source-create-store-request")));
    await create.deploy();
    await page.waitForURL(/\/sources\/dc_/);
    const id = new SourcePage(page).id();
    const source = await sluice.client.getSource(id);
    expect(source.configured_props).toMatchObject({
      orders: storeId,
      request: {
        method: "PUT",
        url: "https://api.example.com/notify",
        params: [{ name: "page", value: "2" }],
        headers: [{ name: "x-team", value: "ops" }],
        body: { type: "raw", contentType: "application/json", raw: '{"hello": "world"}' },
      },
    });

    await page.goto(`/sources/${id}?tab=configuration`);
    const shown = page.getByRole("group", { name: "Request" });
    await expect.poll(() => shown.getByLabel("URL").inputValue()).toBe("https://api.example.com/notify");
    expect(await shown.getByLabel("Method").inputValue()).toBe("PUT");
    expect(await shown.getByLabel("Header 1 value").inputValue()).toBe("ops");
    await expect.poll(() => page.getByLabel("Orders", { exact: true }).inputValue()).toBe(storeId);
    await shown.getByRole("button", { name: "Remove param 1" }).click();
    await page.getByRole("button", { name: "Update" }).click();
    await page.getByText(`Updated. The source keeps its id, ${id}.`).waitFor();
    const updated = await sluice.client.getSource(id);
    expect(updated.configured_props).toMatchObject({
      orders: storeId,
      request: { method: "PUT", params: [] },
    });
  });

  it("no page has a serious or critical accessibility violation", () => {
    expect(audit.join("\n")).toBe("");
  });
});

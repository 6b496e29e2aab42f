/**
 * Creating a source in a real browser: from the components page, from `?action=create&key=` with
 * every static prop type, remote options and app props (Connect new), reloadProps, from
 * `?action=create&url=` (a URL served by the test); bad prop values and a URL that 404s show at
 * their field and create nothing.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { appsApi } from "../../src/client/apps-client.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import type { TestServer } from "../support/server.js";
import { SourcePage } from "./pages/source-page.js";
import { CreateSourcePage, DynamicPropsForm } from "./pages/sources-page.js";
import { screenshotAndAudit } from "./support/browser.js";
import { GREETER_SOURCE, REGIONS_SOURCE, SHEET_SOURCE, WEATHER_SOURCE } from "./support/fixtures.js";
import { startUiTest, type UiTest } from "./support/ui-test.js";

describe("creating a source in a browser", { timeout: 120_000 }, () => {
  let ui: UiTest;
  let sluice: TestServer;
  let page: Page;
  /** Serves component code for ?action=create&url=, and 404s elsewhere. */
  let codeServer: Recorder;
  const audit: string[] = [];

  beforeAll(async () => {
    codeServer = await startRecorder((request) =>
      request.url === "/greeter.mjs"
        ? { status: 200, body: GREETER_SOURCE, headers: { "content-type": "text/javascript" } }
        : { status: 404, body: "not here" },
    );
    ui = await startUiTest({
      env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8" },
      publish: [GREETER_SOURCE, REGIONS_SOURCE, SHEET_SOURCE, WEATHER_SOURCE],
    });
    ({ sluice, page } = ui);
  }, 120_000);

  afterAll(async () => {
    await codeServer?.close();
    await ui?.close();
  });

  async function sourceCount(): Promise<number> {
    return (await sluice.client.listSources({ limit: 100 })).page_info.total_count;
  }

  it("the components page lists published components and their versions, searches on the server, and deploys one", async () => {
    await page.goto("/components");
    const row = page.getByRole("row").filter({ hasText: "e2e-greeter" });
    await row.waitFor();
    expect(await row.textContent()).toContain("0.1.0");
    audit.push(...(await screenshotAndAudit(page, "components")));
    await page.keyboard.press("/");
    await page.keyboard.type("nothing-like-this");
    await page.waitForURL(/q=nothing-like-this/);
    await page.getByText("No component matches the search.").waitFor();
    // Searched on the server (GET /v1/components?q=): the count is of the matches, not of a page.
    await page.getByRole("searchbox", { name: "Search components" }).fill("greeter");
    await page.waitForURL(/q=greeter/);
    await page.getByText("1 shown of 1").waitFor();
    await page.getByRole("row").filter({ hasText: "e2e-weather" }).waitFor({ state: "detached" });
    await page.getByRole("link", { name: "All versions of e2e-greeter" }).click();
    await page.waitForURL(/\/components\?key=e2e-greeter$/);
    expect(await page.getByRole("row").filter({ hasText: "e2e-greeter" }).textContent()).toContain("0.1.0");
    await page.goto("/components?q=greeter");
    await page.getByText("1 shown of 1").waitFor();
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

  it("the create page before a component is loaded offers its origins, each labelled", async () => {
    await page.goto("/sources?action=create");
    await page.getByRole("group", { name: "Where the component comes from" }).waitFor();
    await page.getByLabel("Component code").waitFor();
    audit.push(...(await screenshotAndAudit(page, "source-create-origin")));
    await page.getByLabel("Upload a file").check();
    await page.getByLabel("Component file").waitFor();
    audit.push(...(await screenshotAndAudit(page, "source-create-origin-file")));
  });

  it("a component URL that 404s says so at the URL field and creates nothing", async () => {
    const before = await sourceCount();
    const create = new CreateSourcePage(page);
    await create.gotoUrl(`${codeServer.url}/missing.mjs`);
    await page.locator("#origin-url-msg.field-error").waitFor();
    expect(await create.messageOf("Component URL")).toMatch(/404/);
    audit.push(...(await screenshotAndAudit(page, "source-create-url-404")));
    expect(await sourceCount()).toBe(before);
  });

  it("deploys from ?action=create&url= (a URL served by the test)", async () => {
    const create = new CreateSourcePage(page);
    await create.gotoUrl(`${codeServer.url}/greeter.mjs`);
    await create.waitForForm();
    await page.getByLabel("Name", { exact: true }).fill("greeter-from-url");
    await create.fill("Greeting", "Hi");
    await create.deploy();
    await page.waitForURL(/\/sources\/dc_/);
    const urlSourceId = new SourcePage(page).id();
    expect((await sluice.client.getSource(urlSourceId)).configured_props).toMatchObject({
      greeting: "Hi",
      count: 1,
    });
  });

  it("no page has a serious or critical accessibility violation", () => {
    expect(audit.join("\n")).toBe("");
  });
});

/**
 * Deploying a public component from the web UI (issue 13) in a real browser (Debian's chromium
 * through playwright-core) against a real server on SQLite: account A publishes a source in the
 * public registry; account B opens `/sources?action=create&key=<A's key>`, fills the form and
 * deploys its own copy. When B has a component of its own under the same key, the link takes B's,
 * as `sluice deploy <key>` does. The Components page lists the public registry and its versions.
 * Runs once, not per dialect: the page speaks only the REST API, whose registry routes the REST
 * and CLI suites cover.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SluiceClient } from "../../src/client/client.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { SignInPage } from "./pages/sign-in-page.js";
import { SourcePage } from "./pages/source-page.js";
import { CreateSourcePage } from "./pages/sources-page.js";
import { launchBrowser, newContext, screenshotAndAudit } from "./support/browser.js";

const sqlite = dialects.find((dialect) => dialect.name === "sqlite");

const KEY = "e2e_board-new-note";

/** A public HTTP source; `label` tells whose copy the form shows. */
const noteSource = (label: string) => `export default {
  key: "${KEY}",
  name: "New note",
  description: "Emits each note posted to the board",
  version: "0.1.0",
  type: "source",
  props: {
    http: { type: "$.interface.http" },
    board: { type: "string", label: "${label}" },
  },
  async run(event) { this.$emit({ board: this.board, note: event.body }); },
};
`;

describe("deploying a public component from the web UI", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let sluice: TestServer;
  let publisher: { id: string; client: SluiceClient };
  let deployer: { id: string; apiKey: string; client: SluiceClient };
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    if (!sqlite) throw new Error("no sqlite dialect");
    database = await sqlite.create();
    sluice = await startTestServer(database);
    publisher = await sluice.newAccount("publisher");
    deployer = await sluice.newAccount("deployer");
    await publisher.client.publishPublic({ component_code: noteSource("Board (public)") });
    browser = await launchBrowser();
    context = await newContext(browser, sluice.url);
    page = await context.newPage();
    await new SignInPage(page).goto("/sources");
    await new SignInPage(page).signIn(deployer.apiKey);
    await page.waitForURL(/\/sources$/);
  }, 120_000);

  afterAll(async () => {
    await context?.close();
    await browser?.close();
    await sluice?.close();
    await database?.cleanup();
  });

  it("another account opens ?action=create&key= with the public key and deploys its own copy", async () => {
    const create = new CreateSourcePage(page);
    await create.gotoKey(KEY);
    await create.waitForForm();
    await page.getByLabel("Name", { exact: true }).fill("notes-from-public");
    await create.fill("Board (public)", "kitchen");
    await create.deploy();
    await page.waitForURL(/\/sources\/dc_/);

    const source = await deployer.client.getSource(new SourcePage(page).id());
    expect(source).toMatchObject({
      name: "notes-from-public",
      component_key: KEY,
      component_version: "0.1.0",
      configured_props: { board: "kitchen" },
    });
    // The deploy runs the deployer's own copy, not the publisher's saved component.
    const published = await sluice.client.getPublic(KEY);
    expect(source.component_id).not.toBe(published.id);
    expect((await deployer.client.getComponent(source.component_id)).key).toBe(KEY);
  });

  it("the account's own component under the same key comes first", async () => {
    await deployer.client.saveComponent({ component_code: noteSource("Board (own)") });
    const create = new CreateSourcePage(page);
    await create.gotoKey(KEY);
    await create.waitForForm();
    expect(await page.getByLabel("Board (public)", { exact: true }).count()).toBe(0);
    await page.getByLabel("Name", { exact: true }).fill("notes-from-own");
    await create.fill("Board (own)", "garden");
    await create.deploy();
    await page.waitForURL(/\/sources\/dc_/);
    const source = await deployer.client.getSource(new SourcePage(page).id());
    expect(source).toMatchObject({ name: "notes-from-own", configured_props: { board: "garden" } });
    const component = await deployer.client.getComponent(source.component_id);
    expect(component.configurable_props.map((prop) => prop.label)).toContain("Board (own)");
  });

  it("a key in neither registry shows why at the key field, and deploys nothing", async () => {
    const before = (await deployer.client.listSources({ limit: 100 })).page_info.total_count;
    const create = new CreateSourcePage(page);
    await create.gotoKey("e2e_board-no-such-thing");
    const alert = page.getByRole("alert");
    await alert.waitFor();
    expect(await alert.textContent()).toContain("in this account or in the public registry");
    expect((await deployer.client.listSources({ limit: 100 })).page_info.total_count).toBe(before);
  });

  it("the Components page lists the public registry beside the account's own, shows a public key's versions, and deploys from it", async () => {
    await publisher.client.publishPublic({
      component_code: noteSource("Board (public)").replace('"0.1.0"', '"0.2.0"'),
    });
    await page.goto("/components?registry=public");
    const row = page.getByRole("row").filter({ hasText: KEY });
    await row.waitFor();
    expect(await row.textContent()).toMatch(/public.*0\.2\.0 \(latest\)/);
    expect(await screenshotAndAudit(page, "components-public")).toEqual([]);

    // The account has published nothing of its own.
    await page.getByRole("radio", { name: "Mine" }).check();
    await page.waitForURL(/registry=private/);
    await page.getByText("No published components yet.").waitFor();
    await page.getByRole("radio", { name: "Public registry" }).check();
    await page.waitForURL(/registry=public/);

    await page.getByRole("link", { name: `All versions of ${KEY}` }).click();
    await page.waitForURL(new RegExp(`/components\\?key=${KEY}&registry=public$`));
    await page.getByText("in the public registry").waitFor();
    expect(await page.getByRole("row").filter({ hasText: KEY }).textContent()).toContain("0.2.0, 0.1.0");
    await page.getByRole("link", { name: `Deploy ${KEY}` }).click();
    await page.waitForURL(new RegExp(`action=create&key=${KEY}`));
    await new CreateSourcePage(page).waitForForm();
  });
});

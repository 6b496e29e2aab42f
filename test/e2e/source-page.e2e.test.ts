/**
 * A source's page and the sources list in a real browser: an event sent to the endpoint appears
 * live on the Events tab with the time it arrived (inspector, copy, search), the Logs tab shows
 * the lines the source logged, a prop changed on the Configuration tab keeps the dc_ id, and the
 * list (its state, last event's time, searchable with /) deletes after a confirmation.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../support/server.js";
import { SourcePage } from "./pages/source-page.js";
import { SourcesPage } from "./pages/sources-page.js";
import { screenshotAndAudit } from "./support/browser.js";
import { GREETER_SOURCE } from "./support/fixtures.js";
import { expectShowsNow } from "./support/shown-time.js";
import { startUiTest, type UiTest } from "./support/ui-test.js";

describe("a source's page and the sources list in a browser", { timeout: 120_000 }, () => {
  let ui: UiTest;
  let sluice: TestServer;
  let page: Page;
  let urlSourceId = "";
  const audit: string[] = [];

  beforeAll(async () => {
    ui = await startUiTest({ publish: [GREETER_SOURCE] });
    ({ sluice, page } = ui);
    await sluice.client.deploySource({
      key: "e2e-greeter",
      name: "greeter-from-key",
      configured_props: { greeting: "Hello" },
    });
    urlSourceId = (
      await sluice.client.deploySource({
        key: "e2e-greeter",
        name: "greeter-from-url",
        configured_props: { greeting: "Hi" },
      })
    ).id;
  }, 120_000);

  afterAll(async () => {
    await ui?.close();
  });

  async function sourceCount(): Promise<number> {
    return (await sluice.client.listSources({ limit: 100 })).page_info.total_count;
  }

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
    const event = sourcePage.events().filter({ hasText: "Hi: order 42 shipped" });
    await event.waitFor();
    expectShowsNow((await event.textContent()) ?? "");
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
  });

  it("the Logs tab shows the lines the source logged, with their time, and new ones live", async () => {
    const sourcePage = new SourcePage(page);
    await page.goto(`/sources/${urlSourceId}`);
    await sourcePage.openTab("Logs");
    const logged = sourcePage.logLines().filter({ hasText: "greeted order 42 shipped" });
    await logged.waitFor();
    expectShowsNow((await logged.textContent()) ?? "");
    const endpoint = (await sluice.client.getSource(urlSourceId)).endpoint_url ?? "";
    const sent = await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ message: "order 43 packed" }),
    });
    expect(sent.status).toBe(200);
    await sourcePage.logLines().filter({ hasText: "greeted order 43 packed" }).waitFor();
    expect(await sourcePage.logLines().first().textContent()).toContain("greeted order 43 packed");
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
    const fromUrl = (await sources.row("greeter-from-url").textContent()) ?? "";
    expect(await sources.cell("greeter-from-url", "e2e-greeter@0.1.0").count()).toBe(1);
    expect(await sources.cell("greeter-from-url", "active").count()).toBe(1);
    expect(fromUrl).not.toContain("none yet");
    expectShowsNow(fromUrl);
    expect(await sources.cell("greeter-from-key", "active").count()).toBe(1);
    expect(await sources.cell("greeter-from-key", "none yet").count()).toBe(1);
    audit.push(...(await screenshotAndAudit(page, "sources")));
    await sources.search("from-url");
    await page.waitForURL(/q=from-url/);
    // Searched on the server: the other source goes, and the count is of the matches.
    await sources.row("greeter-from-key").waitFor({ state: "detached" });
    await page.getByText("1 shown of 1").waitFor();
    await sources.row("greeter-from-url").waitFor();
    await page.goto("/sources");
    const before = await sourceCount();
    await sources.delete("greeter-from-key");
    await sources.row("greeter-from-key").waitFor({ state: "detached" });
    expect(await sourceCount()).toBe(before - 1);
  });

  it("no page has a serious or critical accessibility violation", () => {
    expect(audit.join("\n")).toBe("");
  });
});

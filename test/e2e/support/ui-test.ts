/**
 * What every browser test file starts with: a real server on a temporary SQLite data directory,
 * the components it publishes, Debian's chromium with one page, and (unless told otherwise) a
 * session signed in with the admin's key. Each file runs once, not per dialect: the UI speaks
 * only the REST API, which the REST suites cover on both dialects.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { dialects, type TestDatabase } from "../../support/dialects.js";
import { startTestServer, type TestServer } from "../../support/server.js";
import { SignInPage } from "../pages/sign-in-page.js";
import { launchBrowser, newContext } from "./browser.js";

export interface UiTest {
  readonly database: TestDatabase;
  readonly sluice: TestServer;
  readonly browser: Browser;
  readonly context: BrowserContext;
  readonly page: Page;
  close(): Promise<void>;
}

export async function startUiTest(
  options: { env?: Record<string, string>; publish?: readonly string[]; signedIn?: boolean } = {},
): Promise<UiTest> {
  const sqlite = dialects.find((dialect) => dialect.name === "sqlite");
  if (!sqlite) throw new Error("no sqlite dialect");
  const database = await sqlite.create();
  const sluice = await startTestServer(database, options.env ? { env: options.env } : {});
  for (const code of options.publish ?? []) await sluice.client.publishComponent({ component_code: code });
  const browser = await launchBrowser();
  const context = await newContext(browser, sluice.url);
  const page = await context.newPage();
  if (options.signedIn !== false) {
    const signIn = new SignInPage(page);
    await signIn.goto("/sources");
    await signIn.signIn(sluice.apiKey);
    await page.getByRole("heading", { name: "Sources" }).waitFor();
  }
  return {
    database,
    sluice,
    browser,
    context,
    page,
    async close() {
      await context.close();
      await browser.close();
      await sluice.close();
      await database.cleanup();
    },
  };
}

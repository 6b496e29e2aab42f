/**
 * Sign-in, sessions and API keys in a real browser: an invalid key, a page opened without a
 * session and back after sign-in (an httpOnly cookie, nothing in storage), API keys shown once and
 * revoked, the admin's accounts page, and signing out.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../support/server.js";
import { SignInPage } from "./pages/sign-in-page.js";
import { newContext, screenshotAndAudit } from "./support/browser.js";
import { startUiTest, type UiTest } from "./support/ui-test.js";

describe("sign-in, sessions and API keys in a browser", { timeout: 120_000 }, () => {
  let ui: UiTest;
  let sluice: TestServer;
  let page: Page;
  let browser: Browser;
  let context: BrowserContext;
  const audit: string[] = [];

  beforeAll(async () => {
    ui = await startUiTest({ signedIn: false });
    ({ sluice, page, browser, context } = ui);
  }, 120_000);

  afterAll(async () => {
    await ui?.close();
  });

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

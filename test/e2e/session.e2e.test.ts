/**
 * Sign-in, sessions and API keys in a real browser: an invalid key, a page opened without a
 * session and back after sign-in (an httpOnly cookie, nothing in storage), API keys shown once and
 * revoked, the admin's accounts page (an account created there, its key shown once), a form submitted after its session ended on the server
 * (its key revoked, or signed out through the API: an update, a new key, a component loaded on
 * the create page) going to sign-in and back, and signing out.
 */
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { TestServer } from "../support/server.js";
import { SignInPage } from "./pages/sign-in-page.js";
import { newContext, screenshotAndAudit } from "./support/browser.js";
import { GREETER_SOURCE } from "./support/fixtures.js";
import { expectShowsNow } from "./support/shown-time.js";
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
    // Created now, never used.
    expectShowsNow((await row.textContent()) ?? "");
    await row.getByRole("button", { name: "Revoke" }).click();
    await page.getByRole("dialog").getByRole("button", { name: "Yes, revoke" }).click();
    await row.waitFor({ state: "detached" });
    await expect(sluice.clientWith(key).me()).rejects.toMatchObject({ status: 401 });

    await page.goto("/accounts");
    await page.getByRole("heading", { name: "Accounts" }).waitFor();
    await page.getByLabel("Account name").fill("made-in-the-ui");
    await page.getByRole("button", { name: "Create account" }).click();
    const created = page.getByRole("status").filter({ hasText: "Account made-in-the-ui" });
    await created.waitFor();
    const accountKey = (await created.locator("code.secret").textContent()) ?? "";
    expect(accountKey).toMatch(/^sk_/);
    const madeInUi = await sluice.clientWith(accountKey).me();
    expect(madeInUi.name).toBe("made-in-the-ui");
    expect(await created.textContent()).toContain(madeInUi.id);
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

  it("a form submitted after its session ended goes to sign-in, and signing in comes back to the page", async () => {
    const source = await sluice.client.deploySource({
      component_code: GREETER_SOURCE,
      configured_props: { greeting: "Hi" },
    });
    const key = await sluice.client.createApiKey("short-lived");
    const second = await newContext(browser, sluice.url);
    const other = await second.newPage();
    const signIn = new SignInPage(other);
    const configuration = `/sources/${source.id}?tab=configuration`;
    await signIn.goto(configuration);
    await signIn.signIn(key.api_key);
    await other.getByLabel("Greeting", { exact: true }).fill("Hello again");
    // The key is revoked while the form is open: Update is refused, and the page goes to sign-in.
    await sluice.client.revokeApiKey(key.id);
    await other.getByRole("button", { name: "Update" }).click();
    await other.waitForURL(/\/signin\?next=/);
    await signIn.signIn(sluice.apiKey);
    await other.waitForURL((url) => url.pathname + url.search === configuration);
    await other.getByLabel("Greeting", { exact: true }).waitFor();
    expect((await sluice.client.getSource(source.id)).configured_props.greeting).toBe("Hi");

    // Signed out through the API while the keys form is open: Create key goes to sign-in, then back.
    await other.goto("/keys");
    await other.getByLabel("Name").fill("never-made");
    const endSession = async () => {
      const cookie = (await second.cookies()).find((candidate) => candidate.name === "sluice_session");
      const ended = await fetch(`${sluice.url}/v1/sessions/current`, {
        method: "DELETE",
        headers: { cookie: `sluice_session=${cookie?.value ?? ""}`, "x-sluice-csrf": "1" },
      });
      expect(ended.status).toBe(204);
    };
    await endSession();
    await other.getByRole("button", { name: "Create key" }).click();
    await other.waitForURL(/\/signin\?next=%2Fkeys$/);
    await signIn.signIn(sluice.apiKey);
    await other.waitForURL(/\/keys$/);
    await other.getByLabel("Name").waitFor();
    expect((await sluice.client.listApiKeys()).map((listed) => listed.name)).not.toContain("never-made");

    // And while code is pasted on the create page: Continue goes to sign-in, then back.
    await other.goto("/sources?action=create");
    await other.getByLabel("Component code").fill(GREETER_SOURCE);
    await endSession();
    await other.getByRole("button", { name: "Continue" }).click();
    await other.waitForURL(/\/signin\?next=%2Fsources%3Faction%3Dcreate$/);
    await signIn.signIn(sluice.apiKey);
    await other.waitForURL(/\/sources\?action=create$/);
    await other.getByLabel("Component code").waitFor();
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

/** Page object: the connect link page, /_static/connect.html?token=ctok_…&app=… */
import type { Page } from "playwright-core";

export class ConnectLinkPage {
  constructor(private readonly page: Page) {}

  heading() {
    return this.page.getByRole("heading", { level: 1 });
  }

  async fill(label: string, value: string): Promise<void> {
    await this.page.getByLabel(label, { exact: true }).fill(value);
  }

  async connect(): Promise<void> {
    await this.page.getByRole("button", { name: "Connect" }).click();
  }

  alert() {
    return this.page.getByRole("alert");
  }

  /** The confirmation shown once the account is connected. */
  connected() {
    return this.page.getByRole("status");
  }

  /**
   * Presses Close, which closes the window. The window can close before Playwright has finished
   * the click, which then fails with "Target page … has been closed": that failure is the click
   * having worked. Resolves once the window is closed.
   */
  async close(): Promise<void> {
    const closed = this.page.waitForEvent("close");
    await this.page
      .getByRole("button", { name: "Close" })
      .click()
      .catch((error: unknown) => {
        if (!this.page.isClosed()) throw error;
      });
    await closed;
  }
}

/** Page object: the SDK's Connect iframe (`connectAccount`) on the product's page. */
export class ConnectIframe {
  constructor(private readonly page: Page) {}

  private element() {
    return this.page.locator("iframe[title='Pipedream Connect']");
  }

  /** The connect link page inside the iframe. */
  frame() {
    return this.page.frameLocator("iframe[title='Pipedream Connect']");
  }

  /**
   * Presses Close in the page, which has the SDK remove the iframe. The iframe can go before
   * Playwright has finished the click, which then fails or never ends (seen once in CI: a 15 s
   * time-out "performing click action"): its going is the click having worked. Resolves once the
   * iframe is gone; fails if the click failed with the iframe still there, or it never goes.
   */
  async close(): Promise<void> {
    const iframe = this.element();
    const gone = iframe.waitFor({ state: "detached" });
    // Awaited below; handled here too, so that it failing after a failed click is not unhandled.
    gone.catch(() => {});
    const clicked = this.frame()
      .getByRole("button", { name: "Close" })
      .click()
      .catch(async (error: unknown) => {
        if ((await iframe.count()) > 0) throw error;
      });
    await Promise.race([clicked, gone]);
    await gone;
  }
}

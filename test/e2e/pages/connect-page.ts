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

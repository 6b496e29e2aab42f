/** Page object: /sources/{id} and its tabs. */
import type { Page } from "playwright-core";

export class SourcePage {
  constructor(private readonly page: Page) {}

  async openTab(name: "Events" | "Logs" | "Configuration" | "Subscriptions"): Promise<void> {
    await this.page.getByRole("tab", { name }).click();
  }

  /** The id in the address bar. */
  id(): string {
    return new URL(this.page.url()).pathname.split("/").pop() ?? "";
  }

  events() {
    return this.page.getByRole("list", { name: "Events" }).getByRole("listitem");
  }

  /** The Logs tab's lines, newest first. */
  logLines() {
    return this.page.getByRole("list", { name: "Log lines" }).getByRole("listitem");
  }

  liveBadge() {
    return this.page.getByRole("status").filter({ hasText: "Live" });
  }

  inspector() {
    return this.page.getByRole("article", { name: "Event" });
  }
}

/** Page objects: /webhooks and /webhooks/{id}. */
import type { Page } from "playwright-core";

export class WebhooksPage {
  constructor(private readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/webhooks");
    await this.page.getByRole("heading", { name: "Webhooks" }).waitFor();
  }

  async create(name: string, url: string): Promise<string> {
    await this.page.getByLabel("Name").fill(name);
    await this.page.getByLabel("URL").fill(url);
    await this.page.getByRole("button", { name: "Create webhook" }).click();
    const secret = this.page.locator("code.secret");
    await secret.waitFor();
    return (await secret.textContent()) ?? "";
  }

  async open(name: string): Promise<void> {
    await this.page.getByRole("link", { name, exact: true }).click();
    await this.page.getByRole("heading", { name: "Deliveries" }).waitFor();
  }
}

export class WebhookPage {
  constructor(private readonly page: Page) {}

  async filterStatus(status: "all" | "pending" | "delivered" | "failed"): Promise<void> {
    await this.page.getByLabel("Status").selectOption(status);
  }

  deliveries() {
    return this.page.getByRole("table", { name: "Deliveries" }).getByRole("row");
  }

  /** The deliveries whose status reads exactly `status` ("failed", not "not failed"). */
  deliveriesWith(status: "pending" | "delivered" | "failed") {
    return this.deliveries().filter({ has: this.page.getByRole("cell", { name: status, exact: true }) });
  }
}

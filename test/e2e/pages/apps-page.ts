/** Page object: /apps, the connected accounts and "Connect an account". */
import type { Page } from "playwright-core";

export class AppsPage {
  constructor(private readonly page: Page) {}

  async goto(query = ""): Promise<void> {
    await this.page.goto(`/apps${query}`);
    await this.page.getByRole("heading", { name: "Apps and connected accounts" }).waitFor();
  }

  accounts() {
    return this.page.getByRole("table", { name: "Connected accounts" }).getByRole("row");
  }

  row(name: string) {
    return this.accounts().filter({ hasText: name });
  }

  /** Opens the app's connect form (its fields, or key/value rows for an app nobody registered). */
  async startConnect(app: string): Promise<void> {
    await this.page.getByLabel("App", { exact: true }).first().fill(app);
    await this.page.getByRole("button", { name: "Continue" }).click();
  }

  async fill(label: string, value: string): Promise<void> {
    await this.page.getByLabel(label, { exact: true }).fill(value);
  }

  async connect(): Promise<void> {
    await this.page.getByRole("button", { name: "Connect", exact: true }).click();
  }

  async rename(name: string, to: string): Promise<void> {
    await this.row(name)
      .getByRole("button", { name: `Rename ${name}` })
      .click();
    await this.page.getByLabel(`New name for ${name}`).fill(to);
    await this.page.getByRole("button", { name: "Save" }).click();
  }

  /** Opens the row's reconnect form: the app's fields again, or its OAuth sign-in. */
  async startReconnect(name: string): Promise<void> {
    await this.row(name)
      .getByRole("button", { name: `Reconnect ${name}` })
      .click();
    await this.reconnectForm(name).waitFor();
  }

  reconnectForm(name: string) {
    return this.page.getByRole("group", { name: `Reconnect ${name}` });
  }

  /** Clicks Delete on the row; the confirmation dialog is then open. */
  async askDelete(name: string): Promise<void> {
    await this.row(name).getByRole("button", { name: "Delete", exact: true }).click();
  }

  async confirm(label = "Yes, delete"): Promise<void> {
    await this.page.getByRole("dialog").getByRole("button", { name: label }).click();
  }

  alertOf(name: string) {
    return this.row(name).getByRole("alert");
  }
}

/** Page objects: /sources (the list) and /sources?action=create (the create form). */
import type { Page } from "playwright-core";

export class SourcesPage {
  constructor(private readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/sources");
    await this.page.getByRole("heading", { name: "Sources" }).waitFor();
  }

  row(name: string) {
    return this.page.getByRole("row").filter({ has: this.page.getByRole("link", { name, exact: true }) });
  }

  /** The cell of the source's row that reads exactly `text` (none when it only contains it). */
  cell(name: string, text: string) {
    return this.row(name).getByRole("cell", { name: text, exact: true });
  }

  async search(text: string): Promise<void> {
    await this.page.keyboard.press("/");
    await this.page.keyboard.type(text);
  }

  async delete(name: string): Promise<void> {
    await this.row(name).getByRole("button", { name: "Delete" }).click();
    await this.page.getByRole("dialog").getByRole("button", { name: "Yes, delete" }).click();
  }
}

export class CreateSourcePage {
  constructor(private readonly page: Page) {}

  async gotoKey(key: string): Promise<void> {
    await this.page.goto(`/sources?action=create&key=${encodeURIComponent(key)}`);
  }

  async gotoUrl(url: string): Promise<void> {
    await this.page.goto(`/sources?action=create&url=${encodeURIComponent(url)}`);
  }

  /** The props form, once the component is loaded. */
  async waitForForm(): Promise<void> {
    await this.page.getByRole("button", { name: "Deploy" }).waitFor();
  }

  async fill(label: string, value: string): Promise<void> {
    await this.page.getByLabel(label, { exact: true }).fill(value);
  }

  async deploy(): Promise<void> {
    await this.page.getByRole("button", { name: "Deploy" }).click();
  }

  /** The message that the input labelled `label` points to with aria-describedby. */
  async messageOf(label: string): Promise<string> {
    const input = this.page.getByLabel(label, { exact: true });
    const id = await input.getAttribute("aria-describedby");
    return (await this.page.locator(`[id="${id}"]`).textContent()) ?? "";
  }
}

/** Page object: the create form's remote options and app props. */
export class DynamicPropsForm {
  constructor(private readonly page: Page) {}

  async search(label: string, text: string): Promise<void> {
    await this.page.getByLabel(`Search ${label}`).fill(text);
  }

  /** The labels of the options of the select labelled `label`, without its placeholder. */
  async optionsOf(label: string): Promise<string[]> {
    const texts = await this.page.getByLabel(label, { exact: true }).locator("option").allTextContents();
    return texts.slice(1);
  }

  loadMore() {
    return this.page.getByRole("button", { name: "Load more" });
  }

  /** Waits until no options are loading. */
  async settled(): Promise<void> {
    await this.page.getByRole("status").filter({ hasText: "Loading options" }).waitFor({ state: "detached" });
  }

  async connectNew(app: string, name: string, fields: Record<string, string>): Promise<void> {
    await this.page.getByRole("button", { name: `Connect new ${app} account` }).click();
    await this.page.getByLabel("Account name").fill(name);
    const entries = Object.entries(fields);
    for (const [index, [key, value]] of entries.entries()) {
      if (index > 0) await this.page.getByRole("button", { name: "Add a field" }).click();
      await this.page.getByLabel(`Key ${index + 1}`).fill(key);
      await this.page.getByLabel(`Value ${index + 1}`).fill(value);
    }
    await this.page.getByRole("button", { name: "Connect", exact: true }).click();
  }
}

/** Page objects: /workflows and /workflows/{id}. */
import type { Page } from "playwright-core";

export class WorkflowsPage {
  constructor(private readonly page: Page) {}

  async goto(): Promise<void> {
    await this.page.goto("/workflows");
    await this.page.getByRole("heading", { name: "Workflows" }).waitFor();
  }

  async deploy(yaml: string): Promise<void> {
    await this.page.getByLabel("Workflow document (YAML)").fill(yaml);
    await this.page.getByRole("button", { name: "Deploy workflow" }).click();
  }

  error() {
    return this.page.locator("#document-msg.field-error");
  }
}

export class WorkflowPage {
  constructor(private readonly page: Page) {}

  async openTab(name: "Runs" | "Document"): Promise<void> {
    await this.page.getByRole("tab", { name }).click();
  }

  /** The Document tab's editor, holding the workflow as YAML. */
  document() {
    return this.page.getByLabel("Document (YAML)");
  }

  runs() {
    return this.page.getByRole("list", { name: "Runs" }).getByRole("listitem");
  }

  run() {
    return this.page.getByRole("article", { name: "Run" });
  }
}

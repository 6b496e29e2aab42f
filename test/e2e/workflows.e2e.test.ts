/**
 * Workflows in a real browser: a YAML syntax error shows at the document and deploys nothing; a
 * failed run shows in the list with its time and status, its step error with the stack, replays,
 * and runs again with an edited event; the Document tab shows the deployed workflow as YAML.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse } from "yaml";
import type { TestServer } from "../support/server.js";
import { WorkflowPage, WorkflowsPage } from "./pages/workflow-page.js";
import { screenshotAndAudit } from "./support/browser.js";
import { BROKEN_YAML, FAILING_WORKFLOW } from "./support/fixtures.js";
import { expectShowsNow } from "./support/shown-time.js";
import { startUiTest, type UiTest } from "./support/ui-test.js";

describe("workflows in a browser", { timeout: 120_000 }, () => {
  let ui: UiTest;
  let sluice: TestServer;
  let page: Page;
  const audit: string[] = [];

  beforeAll(async () => {
    ui = await startUiTest();
    ({ sluice, page } = ui);
  }, 120_000);

  afterAll(async () => {
    await ui?.close();
  });

  it("a YAML syntax error shows at the document and deploys nothing", async () => {
    const workflows = new WorkflowsPage(page);
    await workflows.goto();
    await workflows.deploy(BROKEN_YAML);
    await workflows.error().waitFor();
    expect(await workflows.error().textContent()).toContain("YAML syntax error");
    expect((await sluice.client.listWorkflows()).page_info.total_count).toBe(0);
  });

  it("a failed workflow run shows its step error with the stack, and replays", async () => {
    const workflows = new WorkflowsPage(page);
    await workflows.goto();
    audit.push(...(await screenshotAndAudit(page, "workflows")));
    await workflows.deploy(FAILING_WORKFLOW);
    await page.waitForURL(/\/workflows\/p_/);
    const id = new URL(page.url()).pathname.split("/").pop() ?? "";
    await sluice.client.runWorkflow(id, { order: 42 });
    const workflowPage = new WorkflowPage(page);
    const run = workflowPage.run();
    await run.getByText("the order total is missing").first().waitFor({ timeout: 30_000 });
    const stepError = run.getByRole("region", { name: "Error of step explode" });
    await stepError.waitFor();
    expect(await stepError.textContent()).toContain("Error");
    const listed = workflowPage.runs();
    expect(await listed.count()).toBe(1);
    expectShowsNow((await listed.first().textContent()) ?? "");
    expect(await listed.first().getByText("error", { exact: true }).count()).toBe(1);
    audit.push(...(await screenshotAndAudit(page, "workflow-run")));

    await run.getByRole("button", { name: "Replay" }).click();
    await workflowPage.runs().filter({ hasText: "replay" }).first().waitFor();
    const runs = await sluice.client.listWorkflowRuns(id);
    expect(runs.data.some((candidate) => candidate.replay_of !== null)).toBe(true);

    // "Run with this event": the editor is pre-filled with the run's trigger event.
    const editor = run.getByLabel("Run with this event (JSON)");
    expect(JSON.parse(await editor.inputValue())).toEqual({ order: 42 });
    await editor.fill('{"order": 43}');
    await run.getByRole("button", { name: "Run with this event" }).click();
    await expect
      .poll(async () => (await sluice.client.listWorkflowRuns(id)).data.map((item) => item.trigger.event), {
        timeout: 20_000,
      })
      .toContainEqual({ order: 43 });

    await page.goto(`/workflows/${id}`);
    await workflowPage.openTab("Document");
    await page.waitForURL(/tab=document/);
    const shown = parse(await workflowPage.document().inputValue()) as {
      name: string;
      trigger: unknown;
      steps: { name: string; component_id: string }[];
    };
    const deployed = await sluice.client.getWorkflow(id);
    expect(shown.name).toBe("e2e-failing");
    expect(shown.trigger).toEqual({ http: { customResponse: false } });
    expect(shown.steps.map((step) => step.name)).toEqual(["prepare", "explode"]);
    expect(shown.steps.map((step) => step.component_id)).toEqual(
      deployed.steps.map((step) => step.component_id),
    );
    audit.push(...(await screenshotAndAudit(page, "workflow-document")));
  });

  it("no page has a serious or critical accessibility violation", () => {
    expect(audit.join("\n")).toBe("");
  });
});

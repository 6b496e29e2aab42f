/**
 * Webhooks in a real browser: created with the signing secret shown once, subscribed on a source's
 * Subscriptions tab, a failed delivery in the log resent once the receiver recovers, recover since
 * a time, rotate the secret, the rate limit, disable and enable.
 */
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Recorder, startRecorder } from "../support/recorder.js";
import type { TestServer } from "../support/server.js";
import { WebhookPage, WebhooksPage } from "./pages/webhook-page.js";
import { screenshotAndAudit } from "./support/browser.js";
import { GREETER_SOURCE } from "./support/fixtures.js";
import { expectShowsNow } from "./support/shown-time.js";
import { startUiTest, type UiTest } from "./support/ui-test.js";

describe("webhooks in a browser", { timeout: 120_000 }, () => {
  let ui: UiTest;
  let sluice: TestServer;
  let page: Page;
  /** The webhook receiver: failing (500) until `receiverUp`. */
  let receiver: Recorder;
  let receiverUp = false;
  let urlSourceId = "";
  const audit: string[] = [];

  beforeAll(async () => {
    receiver = await startRecorder(() =>
      receiverUp ? { status: 200, body: "thanks" } : { status: 500, body: "receiver is down" },
    );
    ui = await startUiTest({
      env: { SLUICE_ALLOWED_CIDRS: "127.0.0.0/8", SLUICE_RETRY_SCHEDULE: "0" },
      publish: [GREETER_SOURCE],
    });
    ({ sluice, page } = ui);
    urlSourceId = (
      await sluice.client.deploySource({
        key: "e2e-greeter",
        name: "greeter",
        configured_props: { greeting: "Hi" },
      })
    ).id;
  }, 120_000);

  afterAll(async () => {
    await receiver?.close();
    await ui?.close();
  });

  it("a webhook: created with its secret shown once; a failed delivery is logged, then resent once the receiver recovers", async () => {
    const webhooks = new WebhooksPage(page);
    await webhooks.goto();
    const secret = await webhooks.create("orders-hook", `${receiver.url}/hook`);
    expect(secret).toMatch(/^whsec_/);
    audit.push(...(await screenshotAndAudit(page, "webhooks")));
    const webhook = (await sluice.client.listWebhooks()).data.find(
      (candidate) => candidate.name === "orders-hook",
    );
    if (!webhook) throw new Error("the webhook was not created");
    // Reloading the list never shows the secret again.
    await page.reload();
    await page.getByRole("link", { name: "orders-hook" }).waitFor();
    expect(await page.content()).not.toContain(secret);

    // Subscribe on the source's Subscriptions tab.
    await page.goto(`/sources/${urlSourceId}?tab=subscriptions`);
    await page.getByLabel("Send events to").selectOption(webhook.id);
    await page.getByRole("button", { name: "Subscribe" }).click();
    await page.getByRole("link", { name: "orders-hook" }).waitFor();
    audit.push(...(await screenshotAndAudit(page, "source-subscriptions")));

    const endpoint = (await sluice.client.getSource(urlSourceId)).endpoint_url ?? "";
    await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"message":"to deliver"}',
    });
    await receiver.waitFor(1);

    const webhookPage = new WebhookPage(page);
    await page.goto(`/webhooks/${webhook.id}`);
    await webhookPage.filterStatus("failed");
    await page.waitForURL(/status=failed/);
    const failed = webhookPage.deliveriesWith("failed");
    await failed.first().waitFor({ timeout: 20_000 });
    expect(await failed.first().getByRole("cell", { name: "500", exact: true }).count()).toBe(1);
    expectShowsNow((await failed.first().textContent()) ?? "");
    audit.push(...(await screenshotAndAudit(page, "webhook-deliveries")));

    receiverUp = true;
    await failed.first().getByRole("button", { name: "Resend" }).click();
    await webhookPage.filterStatus("delivered");
    await webhookPage.deliveriesWith("delivered").first().waitFor({ timeout: 20_000 });
    const deliveries = await sluice.client.listDeliveries(webhook.id);
    expect(deliveries.data[0]).toMatchObject({ status: "delivered", last_status_code: 200 });

    // Recover: resend every failed delivery since a time.
    receiverUp = false;
    const arrived = receiver.requests.length;
    await fetch(endpoint, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: '{"message":"while down"}',
    });
    await receiver.waitFor(arrived + 1);
    await webhookPage.filterStatus("failed");
    await webhookPage.deliveriesWith("failed").first().waitFor({ timeout: 20_000 });
    receiverUp = true;
    const anHourAgo = await page.evaluate(
      "(() => { const d = new Date(Date.now() - 3600000); d.setMinutes(d.getMinutes() - d.getTimezoneOffset()); return d.toISOString().slice(0, 16); })()",
    );
    await page.getByLabel("Resend failed since").fill(String(anHourAgo));
    await page.getByRole("button", { name: "Recover" }).click();
    await page.getByText("1 failed delivery queued again").waitFor();
    await receiver.waitFor(arrived + 2);

    // Rotate the secret (shown once), set a rate limit, disable and enable.
    await page.getByRole("button", { name: "Rotate secret" }).click();
    const rotated = (await page.locator("code.secret").textContent()) ?? "";
    expect(rotated).toMatch(/^whsec_/);
    expect(rotated).not.toBe(secret);
    await page.getByLabel("Rate limit (per second)").fill("5");
    await page.getByRole("button", { name: "Save" }).click();
    await page.getByRole("button", { name: "Disable" }).click();
    await page.getByRole("button", { name: "Enable" }).waitFor();
    expect(await sluice.client.getWebhook(webhook.id)).toMatchObject({ rate_limit: 5, active: false });
    await page.getByRole("button", { name: "Enable" }).click();
    await page.getByRole("button", { name: "Disable" }).waitFor();
    expect((await sluice.client.getWebhook(webhook.id)).active).toBe(true);
  });

  it("no page has a serious or critical accessibility violation", () => {
    expect(audit.join("\n")).toBe("");
  });
});

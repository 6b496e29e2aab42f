/**
 * The browser for the end-to-end tests: Debian's chromium (apt-get install chromium; .ci/run
 * installs it), driven by playwright-core. Browsers are never downloaded.
 */
import fs from "node:fs";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import { type Browser, type BrowserContext, chromium, type Page } from "playwright-core";

export const CHROMIUM = "/usr/bin/chromium";
/** Git-ignored; CI keeps it as test output. */
export const SCREENSHOT_DIR = path.resolve("test-results/screenshots");

export async function launchBrowser(): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) {
    throw new Error(
      `The end-to-end tests need Debian's chromium at ${CHROMIUM}: apt-get install -y chromium`,
    );
  }
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
  });
}

/**
 * A page in English on UTC, so the times the UI shows (toLocaleString) read the same on every
 * machine, and shown-time.ts can read them back.
 */
export async function newContext(browser: Browser, baseURL: string): Promise<BrowserContext> {
  const context = await browser.newContext({
    baseURL,
    viewport: { width: 1280, height: 800 },
    locale: "en-US",
    timezoneId: "UTC",
  });
  await context.grantPermissions(["clipboard-read", "clipboard-write"], { origin: baseURL });
  context.setDefaultTimeout(15_000);
  return context;
}

const VARIANTS = [
  { width: 1280, height: 800, scheme: "light" },
  { width: 1280, height: 800, scheme: "dark" },
  { width: 390, height: 844, scheme: "light" },
  { width: 390, height: 844, scheme: "dark" },
] as const;

/**
 * Saves the page at 1280 and 390 px, light and dark, and runs axe at 1280 in both schemes.
 * Returns the serious or critical violations (none expected).
 */
export async function screenshotAndAudit(page: Page, name: string): Promise<string[]> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  const problems: string[] = [];
  for (const variant of VARIANTS) {
    await page.setViewportSize({ width: variant.width, height: variant.height });
    await page.emulateMedia({ colorScheme: variant.scheme });
    await page.screenshot({
      path: path.join(SCREENSHOT_DIR, `${name}-${variant.width}-${variant.scheme}.png`),
      fullPage: true,
    });
    if (variant.width === 1280) {
      const results = await new AxeBuilder({ page }).analyze();
      for (const violation of results.violations) {
        if (violation.impact === "serious" || violation.impact === "critical") {
          const where = violation.nodes.map((node) => node.target.join(" ")).join(", ");
          problems.push(`${name} (${variant.scheme}): ${violation.id}: ${violation.help} at ${where}`);
        }
      }
    }
  }
  await page.setViewportSize({ width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: "light" });
  return problems;
}

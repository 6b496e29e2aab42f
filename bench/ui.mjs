/**
 * Web UI figures (issue 12), recorded, never asserted: the first page's gzipped JavaScript, and
 * the time Debian's chromium takes to render the sources page of an account with 1,000 sources
 * and the Events tab of a source with 100 events of 10 KB each. Run after `npm run build`:
 *   node bench/ui.mjs
 */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { gzipSync } from "node:zlib";
import { chromium } from "playwright-core";
import { ROOT, startSluice } from "./lib/sluice.mjs";

const SOURCE = `export default {
  name: "bench source",
  props: { http: { type: "$.interface.http" } },
  async run(event) { this.$emit(event.body, { summary: "event " + event.body.n }); },
};`;

function firstPageJavaScript() {
  const index = fs.readFileSync(path.join(ROOT, "dist/ui/index.html"), "utf8");
  const scripts = [...index.matchAll(/src="\/(assets\/[^"]+\.js)"/g)].map((match) => match[1]);
  let raw = 0;
  let gzipped = 0;
  for (const script of scripts) {
    const bytes = fs.readFileSync(path.join(ROOT, "dist/ui", script));
    raw += bytes.length;
    gzipped += gzipSync(bytes, { level: 9 }).length;
  }
  return { raw, gzipped };
}

async function inBatches(count, size, task) {
  for (let start = 0; start < count; start += size) {
    await Promise.all(Array.from({ length: Math.min(size, count - start) }, (_, i) => task(start + i)));
  }
}

async function median(runs, measure) {
  const times = [];
  for (let i = 0; i < runs; i++) times.push(await measure());
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-bench-ui-"));
const sluice = await startSluice({ tmp, label: "ui" });
const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  headless: true,
  args: ["--headless", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"],
});
try {
  const size = firstPageJavaScript();
  const component = await sluice.api("POST", "/v1/components", { component_code: SOURCE });
  const deployStarted = Date.now();
  await inBatches(1000, 8, (i) =>
    sluice.api("POST", "/v1/sources", { component_id: component.id, name: `source-${i}` }),
  );
  const deploySeconds = (Date.now() - deployStarted) / 1000;
  const heavy = await sluice.api("POST", "/v1/sources", { component_id: component.id, name: "heavy" });
  const padding = "x".repeat(10 * 1024);
  await inBatches(100, 4, (n) =>
    fetch(heavy.endpoint_url, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ n, padding }),
    }),
  );

  const context = await browser.newContext({ baseURL: sluice.url, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto("/signin");
  await page.getByLabel("API key").fill(sluice.apiKey);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/sources$/);

  const sourcesMs = await median(5, async () => {
    const started = Date.now();
    await page.goto("/sources", { waitUntil: "commit" });
    await page.getByRole("row").nth(50).waitFor();
    return Date.now() - started;
  });
  const eventsMs = await median(5, async () => {
    const started = Date.now();
    await page.goto(`/sources/${heavy.id}`, { waitUntil: "commit" });
    await page.getByRole("list", { name: "Events" }).getByRole("listitem").nth(99).waitFor();
    return Date.now() - started;
  });
  const result = {
    date: new Date().toISOString(),
    first_page_js_bytes: size.raw,
    first_page_js_gzip_bytes: size.gzipped,
    deploy_1000_sources_s: deploySeconds,
    sources_page_1000_sources_ms: sourcesMs,
    events_tab_100x10kb_ms: eventsMs,
  };
  console.log(JSON.stringify(result, null, 2));
  await context.close();
} finally {
  await browser.close();
  await sluice.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
}

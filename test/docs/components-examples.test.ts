/** The examples of docs/components.md deploy and behave as the page says. */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { projectRoot } from "../support/cli.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { waitUntil } from "../support/wait.js";

/** The page's JavaScript examples, by the file name on their first line (`// echo.mjs`). */
function examples(): Map<string, string> {
  const page = fs.readFileSync(path.join(projectRoot, "docs", "components.md"), "utf8");
  const found = new Map<string, string>();
  for (const match of page.matchAll(/```js\n\/\/ ([\w-]+\.mjs)\n([\s\S]*?)```/g)) {
    found.set(match[1] as string, match[2] as string);
  }
  return found;
}

describe("docs/components.md examples", () => {
  let database: TestDatabase;
  let sluice: TestServer;
  const code = examples();

  beforeAll(async () => {
    database = await (dialects[0] as NonNullable<(typeof dialects)[0]>).create();
    sluice = await startTestServer(database);
  });
  afterAll(async () => {
    await sluice?.close();
    await database?.cleanup();
  });

  it("the page has the examples this test runs", () => {
    expect([...code.keys()]).toEqual(expect.arrayContaining(["echo.mjs", "heartbeat.mjs"]));
  });

  it("echo.mjs answers its caller and emits the request body", async () => {
    const source = await sluice.client.deploySource({
      component_code: code.get("echo.mjs") ?? "",
      configured_props: { greeting: "hi" },
    });
    const endpoint = new URL(source.endpoint_url ?? "");
    const response = await fetch(`${sluice.url}${endpoint.pathname}/orders?x=1`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ id: 7 }),
    });
    expect(await response.json()).toEqual({ greeting: "hi", count: 1 });
    // respond() answers at once; the invocation's events are committed when run has finished.
    const [event] = await waitUntil("the invocation's event", async () => {
      const page = await sluice.client.listEvents(source.id, { expand: "event" });
      return page.data.length > 0 ? page.data : undefined;
    });
    expect(event?.event).toEqual({ id: 7 });
    expect(event?.metadata).toMatchObject({ id: "1", summary: "request 1" });
  });

  it("heartbeat.mjs beats on its schedule and counts in its db", async () => {
    const source = await sluice.client.deploySource({
      component_code: code.get("heartbeat.mjs") ?? "",
      configured_props: { timer: { intervalSeconds: 1 } },
    });
    const events = await waitUntil(
      "two beats",
      async () => {
        const page = await sluice.client.listEvents(source.id, { expand: "event" });
        return page.data.length >= 2 ? page.data.reverse() : undefined;
      },
      10_000,
      100,
    );
    expect(events.length).toBeGreaterThanOrEqual(2);
    expect(events.map((item) => item.metadata.summary).slice(0, 2)).toEqual(["beat 1", "beat 2"]);
    await sluice.client.deleteSource(source.id);
  });
});

/**
 * Sources share runners through the public surface: the sources one account deploys from the
 * same code run in one process, each with its own module state and PD_COMPONENT; another
 * account's copy of the same code runs in a process of its own. A source that brings the shared
 * process down fails alone with its reason, and a sibling caught in flight fails with a message
 * naming it, then runs again. SQLite only: the runners do not depend on the database.
 */
import { beforeAll, describe, expect, it } from "vitest";
import type { SluiceClient } from "../../src/client/client.js";
import { type TestServer, useSqliteServer } from "../support/server.js";

/** Counts its runs in module state; sleeps or loops on request. */
const CODE = `let runs = 0;
export default {
  name: "shared",
  props: { mode: { type: "string", optional: true } },
  async run() {
    runs++;
    if (this.mode === "loop") for (;;) {}
    if (this.mode === "sleep") await new Promise((resolve) => setTimeout(resolve, 4000));
    this.$emit({ runs, pid: process.pid, me: process.env.PD_COMPONENT });
  },
};`;

interface Emitted {
  runs: number;
  pid: number;
  me: string;
}

describe("sources sharing a runner", { timeout: 60_000 }, () => {
  const server = useSqliteServer();
  let sluice: TestServer;
  let other: { client: SluiceClient };

  beforeAll(async () => {
    sluice = server.sluice;
    other = await sluice.newAccount("other");
  });

  async function runOnce(client: SluiceClient, id: string): Promise<Emitted> {
    const run = await client.runSource(id);
    expect(run.failure).toBeNull();
    const [event] = (await client.listEvents(id, { expand: "event", limit: 1 })).data;
    return event?.event as Emitted;
  }

  it("one account's sources of one code share a process, each with its own module state; another account's do not", async () => {
    const first = await sluice.client.deploySource({ component_code: CODE, name: "first" });
    const second = await sluice.client.deploySource({ component_code: CODE, name: "second" });
    const theirs = await other.client.deploySource({ component_code: CODE, name: "theirs" });
    const a1 = await runOnce(sluice.client, first.id);
    const a2 = await runOnce(sluice.client, first.id);
    const b1 = await runOnce(sluice.client, second.id);
    const c1 = await runOnce(other.client, theirs.id);
    expect([a1.runs, a2.runs, b1.runs, c1.runs]).toEqual([1, 2, 1, 1]);
    expect([a1.me, b1.me, c1.me]).toEqual([first.id, second.id, theirs.id]);
    expect(b1.pid).toBe(a1.pid);
    expect(c1.pid).not.toBe(a1.pid);

    // An update starts the source from fresh module state, as a redeploy does.
    await sluice.client.updateSource(first.id, { configured_props: { mode: "fast" } });
    expect((await runOnce(sluice.client, first.id)).runs).toBe(1);
    expect((await runOnce(sluice.client, second.id)).runs).toBe(2);
  });

  it("a looping source times out alone with its reason; a sibling in flight fails naming it, and both run again", async () => {
    const sleeper = await sluice.client.deploySource({
      component_code: CODE,
      name: "sleeper",
      configured_props: { mode: "sleep" },
    });
    const looper = await sluice.client.deploySource({
      component_code: CODE,
      name: "looper",
      configured_props: { mode: "loop" },
      timeout_seconds: 1,
    });
    const sleeping = sluice.client.runSource(sleeper.id);
    const looped = await sluice.client.runSource(looper.id);
    expect(looped.failure).toMatchObject({ reason: "timeout", message: "timed out after 1 s" });
    const caught = await sleeping;
    expect(caught.ok).toBe(false);
    expect(caught.failure).toMatchObject({
      reason: "crash",
      message: `the runner was restarted: an invocation of ${looper.id}, which shared it, timed out after 1 s`,
    });
    const logs = (await sluice.client.listLogs(sleeper.id, { limit: 100 })).data;
    expect(logs.some((line) => line.message.includes(`an invocation of ${looper.id}`))).toBe(true);

    await sluice.client.updateSource(sleeper.id, { configured_props: {} });
    expect((await runOnce(sluice.client, sleeper.id)).runs).toBe(1);
  });
});

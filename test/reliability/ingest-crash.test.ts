/**
 * The server is killed (SIGKILL) in the middle of a full-speed ingest, on each database. A source
 * endpoint answers 200 only once the event is committed, so every event whose request got a 200
 * is stored after a restart, exactly once. Requests cut off by the kill may or may not be stored
 * (their commit may have landed before the answer went out), but never twice. The figures
 * (acknowledged, stored, stored without an answer, duplicates) are printed for bench/RESULTS.md.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { SluiceClient } from "../../src/client/client.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { startEmitLoop } from "../support/emit-loop.js";
import { RELIABILITY_API_KEY, serverEnvironment } from "../support/server-env.js";
import { killAllServerProcesses, startServerProcess, stopServerProcess } from "../support/server-process.js";
import { storedEvents } from "../support/stored-events.js";
import { EMITTER_SOURCE, waitUntil } from "../support/webhook-delivery.js";

/** Concurrent callers: enough that commits queue up and go together (group commit). */
const CALLERS = 32;
/** Events acknowledged before the kill: well into full speed, past the first group commits. */
const ACKNOWLEDGED_BEFORE_KILL = 1500;

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`a crash during full-speed ingest on ${dialect.name}`, () => {
    let database: TestDatabase;

    beforeAll(async () => {
      database = await dialect.create();
    });
    afterEach(async () => {
      await killAllServerProcesses();
    });
    afterAll(async () => {
      await database?.cleanup();
    });

    it("every event answered 200 is stored after a SIGKILL and a restart, and none is stored twice", async () => {
      const env = serverEnvironment(database);
      const first = await startServerProcess(env);
      const client = new SluiceClient({ baseUrl: first.url, apiKey: RELIABILITY_API_KEY });
      // Room for every event: the default retention (10,000) could trim what the test counts.
      const deployed = await client.deploySource({
        component_code: EMITTER_SOURCE,
        name: "ingest-crash",
        max_events: 1_000_000,
      });
      if (!deployed.endpoint_url) throw new Error("the source has no endpoint");
      const source = { id: deployed.id, endpointUrl: deployed.endpoint_url };

      const loop = startEmitLoop(source, { tag: "ingest-crash", callers: CALLERS });
      const started = Date.now();
      await waitUntil(
        `${ACKNOWLEDGED_BEFORE_KILL} events acknowledged`,
        () => loop.accepted().length >= ACKNOWLEDGED_BEFORE_KILL,
        120_000,
        5,
      );
      const rate = (loop.accepted().length / (Date.now() - started)) * 1000;
      first.server.child.kill("SIGKILL");
      expect((await first.server.exited).signal).toBe("SIGKILL");
      await loop.stop();

      const acknowledged = new Set(loop.accepted());
      // Before the kill every request succeeded: the only other outcome is the cut connection.
      expect(loop.answers.filter((answer) => answer.status !== 200 && answer.status !== 0)).toEqual([]);
      const cut = loop.answers.filter((answer) => answer.status === 0).length;

      const second = await startServerProcess(env);
      const again = new SluiceClient({ baseUrl: second.url, apiKey: RELIABILITY_API_KEY });
      const stored = (await storedEvents(again, source.id)).map((event) => event.payload.n);
      const distinct = new Set(stored);
      const lost = [...acknowledged].filter((n) => !distinct.has(n));
      const unanswered = [...distinct].filter((n) => !acknowledged.has(n));
      const duplicates = stored.length - distinct.size;
      console.log(
        `[${dialect.name}] SIGKILL during ingest (${CALLERS} callers, ${rate.toFixed(0)} events/s acknowledged): ` +
          `acknowledged ${acknowledged.size}, cut off by the kill ${cut}, stored ${stored.length} (${distinct.size} distinct), ` +
          `stored without an answer ${unanswered.length}, lost ${lost.length}, duplicates ${duplicates}`,
      );
      expect(lost).toEqual([]);
      expect(duplicates).toBe(0);
      // Only requests in flight at the kill can be stored without their answer.
      expect(unanswered.length).toBeLessThanOrEqual(CALLERS);
      // The restarted server takes events again.
      const after = await fetch(`${second.url}${new URL(source.endpointUrl).pathname}`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ tag: "after", start: -1 }),
      });
      expect(after.status).toBe(200);
      expect((await stopServerProcess(second.server)).code).toBe(0);
    }, 240_000);
  });
}

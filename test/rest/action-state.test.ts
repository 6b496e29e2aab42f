/**
 * `$.service.db` in actions (issue 45), as Pipedream's registry actions use it: a workflow's step
 * keeps its state across runs, apart from every other step and workflow; what a step set is kept
 * even when the step then fails; the state goes with its workflow. An action run on its own
 * (`POST /v1/actions/run`) keeps one per account and component key. `this.$checkpoint` is the
 * db's "$checkpoint" key, as Pipedream's step-level state.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SluiceClient } from "../../src/client/client.js";
import type { ActionRunResult, WorkflowRun } from "../../src/client/types.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { waitUntil } from "../support/webhook-delivery.js";

/** Counts its runs in `$.service.db`, and returns the count. */
const COUNTER = (key: string) => `export default {
  key: "${key}", name: "Counter", version: "0.0.1", type: "action",
  props: { db: "$.service.db" },
  async run() {
    const count = (this.db.get("count") ?? 0) + 1;
    this.db.set("count", count);
    return count;
  },
};`;

/** Sets its state, then fails the first time only. */
const FAILS_ONCE = `export default {
  type: "action",
  props: { db: "$.service.db" },
  async run() {
    const tries = this.db.get("tries") ?? 0;
    this.db.set("tries", tries + 1);
    if (tries === 0) throw new Error("the first try fails");
    return tries;
  },
};`;

/** Step-level state the legacy way: `this.$checkpoint` read, then written with `this.db.set`. */
const CHECKPOINT = `export default {
  type: "action",
  props: { db: "$.service.db" },
  async run({ steps }) {
    const seen = this.$checkpoint ?? [];
    this.db.set("$checkpoint", [...seen, steps.trigger.event.item]);
    return seen;
  },
};`;

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`$.service.db in actions on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let client: SluiceClient;

    beforeAll(async () => {
      database = await dialect.create();
      sluice = await startTestServer(database);
      client = sluice.client;
    });
    afterAll(async () => {
      await sluice?.close();
      await database?.cleanup();
    });

    const deploy = (document: unknown) =>
      client.data<{ id: string }>("POST", "/v1/workflows", { body: document });

    /** Runs the workflow with `event` and waits for the run to end. */
    async function runOnce(workflowId: string, event: unknown = {}): Promise<WorkflowRun> {
      const queued = await client.data<{ id: string }>("POST", `/v1/workflows/${workflowId}/runs`, {
        body: { event },
      });
      return waitUntil(`run ${queued.id} to end`, async () => {
        const run = await client.data<WorkflowRun>("GET", `/v1/workflow_runs/${queued.id}`);
        return run.status === "queued" || run.status === "running" ? undefined : run;
      });
    }

    it("keeps a step's state across runs, apart from other steps and workflows, and drops it with the workflow", async () => {
      const twoSteps = await deploy({
        name: "counts-twice",
        steps: [
          { name: "first", code: COUNTER("counter") },
          { name: "second", code: COUNTER("counter") },
        ],
      });
      for (const expected of [1, 2, 3]) {
        const run = await runOnce(twoSteps.id);
        expect(run.status).toBe("success");
        expect(run.steps.map((step) => step.return_value)).toEqual([expected, expected]);
      }
      const other = await deploy({
        name: "counts-once",
        steps: [{ name: "first", code: COUNTER("counter") }],
      });
      expect((await runOnce(other.id)).steps[0]?.return_value).toBe(1);

      const rowsOf = async (workflowId: string) =>
        Number(
          (
            await sluice.server.store.db
              .selectFrom("workflow_step_state")
              .select(sql<number>`count(*)`.as("n"))
              .where("workflow_id", "=", workflowId)
              .executeTakeFirstOrThrow()
          ).n,
        );
      expect(await rowsOf(twoSteps.id)).toBe(2);
      await client.request("DELETE", `/v1/workflows/${twoSteps.id}`);
      expect(await rowsOf(twoSteps.id)).toBe(0);
      expect(await rowsOf(other.id)).toBe(1);
    });

    it("keeps what a step set when the step then fails", async () => {
      const workflow = await deploy({ name: "fails-once", steps: [{ name: "flaky", code: FAILS_ONCE }] });
      const first = await runOnce(workflow.id);
      expect(first.status).toBe("error");
      expect(first.error?.message).toContain("the first try fails");
      const second = await runOnce(workflow.id);
      expect(second.status).toBe("success");
      expect(second.steps[0]?.return_value).toBe(1);
    });

    it("reads the db's $checkpoint key as this.$checkpoint", async () => {
      const workflow = await deploy({ name: "checkpoints", steps: [{ name: "seen", code: CHECKPOINT }] });
      expect((await runOnce(workflow.id, { item: "a" })).steps[0]?.return_value).toEqual([]);
      expect((await runOnce(workflow.id, { item: "b" })).steps[0]?.return_value).toEqual(["a"]);
      expect((await runOnce(workflow.id, { item: "c" })).steps[0]?.return_value).toEqual(["a", "b"]);
    });

    it("keeps an action run on its own per account and component key", async () => {
      const run = (as: SluiceClient, key: string) =>
        as.data<ActionRunResult>("POST", "/v1/actions/run", { body: { component_code: COUNTER(key) } });
      expect((await run(client, "tally")).return_value).toBe(1);
      expect((await run(client, "tally")).return_value).toBe(2);
      expect((await run(client, "another-tally")).return_value).toBe(1);
      const other = await sluice.newAccount("state-other");
      expect((await run(other.client, "tally")).return_value).toBe(1);
      expect((await run(client, "tally")).return_value).toBe(3);
    });
  });
}

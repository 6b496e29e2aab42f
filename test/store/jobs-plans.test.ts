/**
 * The jobs statements' plans on PostgreSQL once ANALYZE has seen one group's backlog: the
 * hand-off to a group's next job, run with a plan kept for every group (store/prepared.ts),
 * reads that group's jobs (`jobs_group_due`), not the due jobs of every group in order (which
 * read the backlog whole for a healthy webhook: migration 0020). A generic plan is what a named
 * statement settles on, so the test asks for one.
 */
import { sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import type { Store } from "../../src/store/store.js";
import { dialects, postgresUrl, type TestDatabase } from "../support/dialects.js";
import { storeForSuite } from "../support/suite-store.js";

const postgres = dialects.find((dialect) => dialect.name === "postgres");

/** Every index a JSON plan reads, wherever it is in the tree. */
function indexesIn(plan: unknown): string[] {
  if (Array.isArray(plan)) return plan.flatMap(indexesIn);
  if (plan === null || typeof plan !== "object") return [];
  const node = plan as Record<string, unknown>;
  const own = typeof node["Index Name"] === "string" ? [node["Index Name"] as string] : [];
  return [...own, ...Object.values(node).flatMap(indexesIn)];
}

describe.skipIf(postgresUrl === undefined)("the jobs statements' plans on postgres", () => {
  let database: TestDatabase;
  let store: Store;
  storeForSuite(postgres as NonNullable<typeof postgres>, (opened, on) => {
    store = opened;
    database = on;
  });

  it("hands a group's place to its next job from the group's own jobs, past another group's analyzed backlog", async () => {
    const queue = "plans";
    const now = Date.now();
    const backlog = Array.from({ length: 20_000 }, (_, n) => ({
      queue,
      payload: n,
      runAt: now - 100_000 + n,
      groupKey: "backlog",
    }));
    await store.jobs.enqueueMany(store.db, backlog);
    await store.jobs.enqueueMany(store.db, [
      { queue, payload: "next", runAt: now - 10, groupKey: "healthy" },
    ]);
    const finished = await store.jobs.enqueue(store.db, {
      queue,
      payload: "finished",
      runAt: now - 20,
      groupKey: "healthy",
      claim: { leaseToken: "token-finished", leaseMs: 60_000 },
    });
    await sql`analyze jobs`.execute(store.db);

    const write = store.jobs.takeNextWrite(
      {
        id: finished as string,
        leaseToken: "token-finished",
        queue,
        payload: "finished",
        uniqueKey: null,
        groupKey: "healthy",
        runAt: now - 20,
        attempts: 1,
        lockedUntil: now + 60_000,
        lastError: null,
      },
      60_000,
      now,
    );
    const compiled = write.compiled?.(store.db, "postgres");
    if (!compiled) throw new Error("the hand-off's statement is prepared: it has a compiled form");
    const { sql: text, parameters } = compiled;
    const client = new pg.Client({ connectionString: database.databaseUrl });
    await client.connect();
    try {
      await client.query("set plan_cache_mode = force_generic_plan");
      await client.query(`prepare take_next as ${text}`);
      const values = parameters.map((value) =>
        typeof value === "string" ? client.escapeLiteral(value) : String(value),
      );
      await client.query("begin");
      const { rows } = await client.query(`explain (format json) execute take_next(${values.join(", ")})`);
      await client.query("rollback");
      const indexes = indexesIn(rows[0]["QUERY PLAN"]);
      expect(indexes).toContain("jobs_group_due");
      expect(indexes).not.toContain("jobs_due_in_order");
    } finally {
      await client.end();
    }
  });
});

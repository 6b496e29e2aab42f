/**
 * The jobs statements' plans on PostgreSQL beside one group's backlog. The hand-off to a group's
 * next job, run with a plan kept for every group (store/prepared.ts), reads that group's jobs
 * (`jobs_group_due`) once ANALYZE has seen the backlog, not the due jobs of every group in order
 * (which read the backlog whole for a healthy webhook: migration 0020). The probe of the next due
 * time reads the due jobs' index in order, whether ANALYZE last saw only leased jobs or the
 * backlog, in a plan made for its values and in a generic one. A generic plan is what a named
 * statement settles on; the first runs on each connection are planned for their values.
 */
import { type CompiledQuery, sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { nextDue } from "../../src/store/jobs/next-due.js";
import { takeNextWrite } from "../../src/store/jobs/take-next.js";
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

type PlanMode = "force_custom_plan" | "force_generic_plan";

/**
 * `statement` prepared on a connection of its own, and the indexes its plan reads in a
 * `plan_cache_mode` (made for the values, or generic). Plain EXPLAIN: nothing is run.
 */
async function preparedPlans(database: TestDatabase, statement: CompiledQuery) {
  const client = new pg.Client({ connectionString: database.databaseUrl });
  await client.connect();
  await client.query(`prepare probed as ${statement.sql}`);
  const values = statement.parameters.map((value) =>
    typeof value === "string" ? client.escapeLiteral(value) : String(value),
  );
  return {
    client,
    async indexes(mode: PlanMode): Promise<string[]> {
      await client.query(`set plan_cache_mode = ${mode}`);
      const { rows } = await client.query(`explain (format json) execute probed(${values.join(", ")})`);
      return indexesIn(rows[0]["QUERY PLAN"]);
    },
    close: () => client.end(),
  };
}

/** Eight jobs of `groupKey` due 200 s ago and leased for a minute (a webhook's deliveries in flight); their ids. */
async function jobsInFlight(store: Store, queue: string, groupKey: string, now: number): Promise<string[]> {
  const ids: string[] = [];
  for (let n = 0; n < 8; n++) {
    const id = await store.jobs.enqueue({
      queue,
      payload: `leased-${n}`,
      runAt: now - 200_000 + n,
      groupKey,
      claim: { leaseToken: `token-${n}`, leaseMs: 60_000 },
    });
    ids.push(id as string);
  }
  return ids;
}

/**
 * The indexes of the generic plan of the hand-off from `finished` (a job of `groupKey` leased
 * with `leaseToken`, due at `runAt`) to its group's next job: the plan a named statement settles on.
 */
async function handOffPlan(
  store: Store,
  database: TestDatabase,
  finished: { id: string; leaseToken: string; queue: string; groupKey: string; runAt: number; now: number },
): Promise<string[]> {
  const { id, leaseToken, queue, groupKey, runAt, now } = finished;
  const write = takeNextWrite(
    store.capabilities,
    {
      id,
      leaseToken,
      queue,
      payload: "finished",
      uniqueKey: null,
      groupKey,
      runAt,
      attempts: 1,
      lockedUntil: now + 60_000,
      lastError: null,
    },
    60_000,
    now,
  );
  const compiled = write.compiled?.(store.db, "postgres");
  if (!compiled) throw new Error("the hand-off's statement is prepared: it has a compiled form");
  const plans = await preparedPlans(database, compiled);
  try {
    return await plans.indexes("force_generic_plan");
  } finally {
    await plans.close();
  }
}

/**
 * A describe block on a PostgreSQL store (and `jobs` table) of its own, never analyzed until a test
 * does: `opened()` gives the store and its database inside the block's tests.
 */
function describeOnOwnStore(
  name: string,
  body: (opened: () => { readonly store: Store; readonly database: TestDatabase }) => void,
): void {
  describe.skipIf(postgresUrl === undefined)(name, () => {
    let suite: { store: Store; database: TestDatabase } | undefined;
    storeForSuite(postgres as NonNullable<typeof postgres>, (store, database) => {
      suite = { store, database };
    });
    body(() => {
      if (!suite) throw new Error("the suite's store is not open");
      return suite;
    });
  });
}

describeOnOwnStore("the jobs statements' plans on postgres", (opened) => {
  it("hands a group's place to its next job from the group's own jobs, past another group's analyzed backlog", async () => {
    const { store, database } = opened();
    const queue = "plans";
    const now = Date.now();
    const backlog = Array.from({ length: 20_000 }, (_, n) => ({
      queue,
      payload: n,
      runAt: now - 100_000 + n,
      groupKey: "backlog",
    }));
    await store.jobs.enqueueMany(backlog);
    await store.jobs.enqueueMany([{ queue, payload: "next", runAt: now - 10, groupKey: "healthy" }]);
    const finished = await store.jobs.enqueue({
      queue,
      payload: "finished",
      runAt: now - 20,
      groupKey: "healthy",
      claim: { leaseToken: "token-finished", leaseMs: 60_000 },
    });
    await sql`analyze jobs`.execute(store.db);

    const indexes = await handOffPlan(store, database, {
      id: finished as string,
      leaseToken: "token-finished",
      queue,
      groupKey: "healthy",
      runAt: now - 20,
      now,
    });
    expect(indexes).toContain("jobs_group_due");
    expect(indexes).not.toContain("jobs_due_in_order");
  });
});

describeOnOwnStore("the hand-off's plan on a young queue on postgres", (opened) => {
  it("hands a group's place to its next job from the group's own jobs on a queue never analyzed", async () => {
    const { store, database } = opened();
    // As a new deployment's queue is when each connection settles on the hand-off's plan: a
    // webhook's 8 deliveries in flight and a few hundred waiting, the table never analyzed. A
    // plan that read the queue's free jobs from jobs_leased and sorted them, estimated to cost the
    // same, read a whole backlog a hand-off once one formed (migration 0021, bench/RESULTS.md).
    const queue = "young";
    const now = Date.now();
    const leased = await jobsInFlight(store, queue, "hook", now);
    await store.jobs.enqueueMany(
      Array.from({ length: 500 }, (_, n) => ({
        queue,
        payload: n,
        runAt: now - 100_000 + n,
        groupKey: "hook",
      })),
    );
    const indexes = await handOffPlan(store, database, {
      id: leased[0] as string,
      leaseToken: "token-0",
      queue,
      groupKey: "hook",
      runAt: now - 200_000,
      now,
    });
    expect(indexes).toContain("jobs_group_due");
    expect(indexes).not.toContain("jobs_leased");
  });
});

describeOnOwnStore("the next-due probe's plans on postgres", (opened) => {
  it("finds the next due time by reading the due jobs in order, whether ANALYZE last saw only leased jobs or a backlog", async () => {
    const { store, database } = opened();
    // The table (this suite's own) as a busy queue often is when it is analyzed: every job in it leased.
    const queue = "probe";
    const now = Date.now();
    await jobsInFlight(store, queue, "backlog", now);
    await sql`analyze jobs`.execute(store.db);
    // Then a backlog forms behind the leased jobs.
    const backlog = Array.from({ length: 20_000 }, (_, n) => ({
      queue,
      payload: n,
      runAt: now - 100_000 + n,
      groupKey: "backlog",
    }));
    await store.jobs.enqueueMany(backlog);
    expect(await store.jobs.nextRunAt(queue)).toBe(now - 100_000);

    const prepared = await preparedPlans(database, nextDue.compile(store.db, "postgres", { queue }));
    try {
      /** The indexes of the plan made for the values and of the generic plan. */
      const plans = async () => ({
        force_custom_plan: await prepared.indexes("force_custom_plan"),
        force_generic_plan: await prepared.indexes("force_generic_plan"),
      });
      const inOrder = {
        force_custom_plan: ["jobs_due_in_order", "jobs_leased"],
        force_generic_plan: ["jobs_due_in_order", "jobs_leased"],
      };
      expect(await plans()).toEqual(inOrder);
      // And once ANALYZE has seen the backlog.
      await prepared.client.query("analyze jobs");
      expect(await plans()).toEqual(inOrder);
    } finally {
      await prepared.close();
    }
  });
});

/**
 * Prepared statements (store/prepared.ts): built and compiled once per shape of their values,
 * then run with each call's values, on every dialect. What the statement does must be what the
 * same builder does when Kysely builds it every time.
 */
import { CompiledQuery, sql } from "kysely";
import { describe, expect, it } from "vitest";
import { combinedWrites, combinedWritesThen } from "../../src/store/combined-writes.js";
import { prepared } from "../../src/store/prepared.js";
import type { Store } from "../../src/store/store.js";
import { insertWrites, writeTogether } from "../../src/store/write-together.js";
import { dialects, isAvailable } from "../support/dialects.js";
import { storeForSuite } from "../support/suite-store.js";

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`prepared statements on ${dialect.name}`, () => {
    let store: Store;
    storeForSuite(dialect, (opened) => {
      store = opened;
    });

    const slots = async (...keys: string[]) =>
      (await store.db.selectFrom("rate_slots").select(["key", "next_at"]).where("key", "in", keys).execute())
        .map((row) => ({ key: row.key, next_at: Number(row.next_at) }))
        .sort((a, b) => a.key.localeCompare(b.key));

    it("runs each call with its own values, building a shape once", async () => {
      let builds = 0;
      // A value the builder uses twice lands in both places; a constant stays a constant.
      const both = prepared((creator, slot: { key: string; at: number }) => {
        builds++;
        return creator
          .updateTable("rate_slots")
          .set({ next_at: slot.at })
          .where("key", "=", slot.key)
          .where("next_at", "<", slot.at)
          .where("next_at", ">", 0)
          .returning(["key", "next_at"]);
      });
      await store.db.insertInto("rate_slots").values({ key: "p1", next_at: 5 }).execute();
      await store.db.insertInto("rate_slots").values({ key: "p2", next_at: 50 }).execute();
      expect(await both.execute(store, { key: "p1", at: 10 })).toEqual([{ key: "p1", next_at: 10 }]);
      // p2 is at 50: not below 20, so nothing changes.
      expect(await both.execute(store, { key: "p2", at: 20 })).toEqual([]);
      expect(await both.execute(store, { key: "p2", at: 60 })).toEqual([{ key: "p2", next_at: 60 }]);
      expect(builds).toBe(1);
      expect(await slots("p1", "p2")).toEqual([
        { key: "p1", next_at: 10 },
        { key: "p2", next_at: 60 },
      ]);
    });

    it("builds again for another shape: rows of an insert, and columns left undefined", async () => {
      const before = await store.db.selectFrom("jobs").select("id").where("queue", "=", "prepared").execute();
      expect(before).toEqual([]);
      const job = (id: string, groupKey?: string) => ({
        id,
        queue: "prepared",
        unique_key: null,
        group_key: groupKey,
        payload: JSON.stringify({ id }),
        state: "queued" as const,
        run_at: 1,
        attempts: 0,
        created_at: 1,
      });
      await writeTogether(store, insertWrites("jobs", [job("j1", "g"), job("j2", "g")]));
      await writeTogether(store, insertWrites("jobs", [job("j3", "h"), job("j4"), job("j5", "h")]));
      await writeTogether(store, insertWrites("jobs", [job("j6")]));
      const rows = await store.db
        .selectFrom("jobs")
        .select(["id", "group_key", "payload"])
        .where("queue", "=", "prepared")
        .orderBy("id")
        .execute();
      expect(rows).toEqual([
        { id: "j1", group_key: "g", payload: '{"id":"j1"}' },
        { id: "j2", group_key: "g", payload: '{"id":"j2"}' },
        { id: "j3", group_key: "h", payload: '{"id":"j3"}' },
        { id: "j4", group_key: null, payload: '{"id":"j4"}' },
        { id: "j5", group_key: "h", payload: '{"id":"j5"}' },
        { id: "j6", group_key: null, payload: '{"id":"j6"}' },
      ]);
    });

    it("writes prepared writes together as one statement, each with its own values", async () => {
      await store.jobs.enqueue({ queue: "prepared-together", payload: "held" });
      const [held] = await store.jobs.claimDue({ queue: "prepared-together", limit: 1, leaseMs: 60_000 });
      if (!held) throw new Error("nothing claimed");
      const job = (id: string) => ({
        id,
        queue: "prepared-together",
        unique_key: null,
        group_key: "t",
        payload: JSON.stringify(id),
        state: "queued" as const,
        run_at: 2,
        attempts: 0,
        created_at: 2,
      });
      // On PostgreSQL one statement of WITHs joined from the writes' compiled texts.
      await writeTogether(store, [
        ...insertWrites("jobs", [job("t1"), job("t2")]),
        store.jobs.endWrite(held, undefined),
        ...insertWrites("jobs", [job("t3")]),
      ]);
      const rows = await store.db
        .selectFrom("jobs")
        .select(["id", "payload"])
        .where("queue", "=", "prepared-together")
        .orderBy("id")
        .execute();
      expect(rows).toEqual([
        { id: "t1", payload: '"t1"' },
        { id: "t2", payload: '"t2"' },
        { id: "t3", payload: '"t3"' },
      ]);
    });

    it("refuses a builder that puts a value in its SQL text", () => {
      const literal = prepared((creator, slot: { key: string }) =>
        creator.selectFrom("rate_slots").select("key").where("key", "=", sql.lit(slot.key)),
      );
      expect(() => literal.compile(store.db, store.capabilities.name, { key: "p1" })).toThrow(
        /put one of its values in its SQL text/,
      );
    });
  });
}

describe("prepared writes joined for PostgreSQL", () => {
  it("numbers each write's placeholders on after the previous one's", () => {
    const joined = combinedWrites([
      CompiledQuery.raw('insert into "a" ("x", "y") values ($1, $2)', ["x", 1]),
      CompiledQuery.raw('delete from "b" where "id" = $1', ["b"]),
    ]);
    expect(joined?.sql).toBe(
      'with "write_0" as (insert into "a" ("x", "y") values ($1, $2)), "write_1" as (delete from "b" where "id" = $3) select 1 as "written"',
    );
    expect(joined?.parameters).toEqual(["x", 1, "b"]);
  });

  it("joins writes, then a returning statement and the select that reads it", () => {
    const joined = combinedWritesThen(
      [CompiledQuery.raw('delete from "b" where "id" = $1', ["b"])],
      {
        name: "taken",
        query: CompiledQuery.raw('update "c" set "x" = $1 where "id" = $2 returning *', [1, "c"]),
      },
      CompiledQuery.raw('select * from "taken"', []),
      { reusePlan: false },
    );
    expect(joined?.sql).toBe(
      'with "write_0" as (delete from "b" where "id" = $1), "taken" as (update "c" set "x" = $2 where "id" = $3 returning *) select * from "taken"',
    );
    expect(joined?.parameters).toEqual(["b", 1, "c"]);
    // A select with values of its own would need numbering too: refused.
    expect(
      combinedWritesThen(
        [],
        { name: "taken", query: CompiledQuery.raw('update "c" set "x" = 1 returning *', []) },
        CompiledQuery.raw('select * from "taken" where "x" = $1', [1]),
        { reusePlan: false },
      ),
    ).toBeUndefined();
  });

  it("gives each combination its own text, the same every time, past the number kept", () => {
    const writes = (n: number) => [
      CompiledQuery.raw(`delete from "t${n}" where "id" = $1`, [n]),
      CompiledQuery.raw('delete from "b" where "id" = $1', ["b"]),
    ];
    const first = combinedWrites(writes(0));
    // Other parts with the same characters in all (one write, not two): a text of its own.
    expect(combinedWrites([CompiledQuery.raw('delete from "t0" where "id" = $1delete', [0])])?.sql).not.toBe(
      first?.sql,
    );
    for (let n = 1; n <= 600; n++) expect(combinedWrites(writes(n))?.sql).toContain(`"t${n}"`);
    expect(combinedWrites(writes(0))?.sql).toBe(first?.sql);
    expect(combinedWrites(writes(0))?.parameters).toEqual([0, "b"]);
    // One that cannot be joined stays refused the second time.
    const unjoinable = [CompiledQuery.raw('update "a" set "note" = \'costs $2\' where "id" = $1', ["a"])];
    expect(combinedWrites(unjoinable)).toBeUndefined();
    expect(combinedWrites(unjoinable)).toBeUndefined();
  });

  it("joins none whose text holds something else that looks like a placeholder", () => {
    expect(
      combinedWrites([
        CompiledQuery.raw('update "a" set "note" = \'costs $2\' where "id" = $1', ["a"]),
        CompiledQuery.raw('delete from "b" where "id" = $1', ["b"]),
      ]),
    ).toBeUndefined();
  });
});

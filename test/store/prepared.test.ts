/**
 * Prepared statements (store/prepared.ts): built and compiled once per shape of their values,
 * then run with each call's values, on every dialect. What the statement does must be what the
 * same builder does when Kysely builds it every time.
 */
import { sql } from "kysely";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { prepared } from "../../src/store/prepared.js";
import { openStore, type Store } from "../../src/store/store.js";
import { insertWrites, writeTogether } from "../../src/store/write-together.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`prepared statements on ${dialect.name}`, () => {
    let database: TestDatabase;
    let store: Store;

    beforeAll(async () => {
      database = await dialect.create();
      store = await openStore(database);
    });
    afterAll(async () => {
      await store?.close();
      await database?.cleanup();
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
      const name = store.capabilities.name;
      await store.db.insertInto("rate_slots").values({ key: "p1", next_at: 5 }).execute();
      await store.db.insertInto("rate_slots").values({ key: "p2", next_at: 50 }).execute();
      expect(await both.execute(store.db, name, { key: "p1", at: 10 })).toEqual([{ key: "p1", next_at: 10 }]);
      // p2 is at 50: not below 20, so nothing changes.
      expect(await both.execute(store.db, name, { key: "p2", at: 20 })).toEqual([]);
      expect(await both.execute(store.db, name, { key: "p2", at: 60 })).toEqual([{ key: "p2", next_at: 60 }]);
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

/**
 * The embedded database flushes its write-ahead log after a commit that wrote, and only then: a
 * statement that changed no row (a job claim that found nothing due, an insert that met its
 * conflict) owes no `fdatasync`, so idle workers cost the disk nothing. The flushes are counted
 * on the real log file's flush (wal-flush.ts), under the real dialect, on a file in a temp dir.
 */
import fs from "node:fs";
import path from "node:path";
import { Kysely, sql } from "kysely";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { EmbeddedSqliteDialect } from "../../src/store/sqlite-dialect.js";
import { sqliteDriver } from "../../src/store/sqlite-driver.js";
import { walFlush } from "../../src/store/wal-flush.js";
import { tempDir } from "../support/temp.js";

interface Tables {
  t: { id: number; v: string };
}

describe("the embedded database's flush after commit", () => {
  let dir: string;
  let db: Kysely<Tables>;
  let flushes: number;

  beforeEach(async () => {
    dir = tempDir();
    const file = path.join(dir, "flush.sqlite");
    const database = new (sqliteDriver().Database)(file);
    database.pragma("journal_mode = WAL");
    database.pragma("synchronous = NORMAL");
    const wal = walFlush(file);
    flushes = 0;
    const counted = {
      ...wal,
      flush: () => {
        flushes++;
        return wal.flush();
      },
    };
    db = new Kysely<Tables>({ dialect: new EmbeddedSqliteDialect(database, counted) });
    await sql`create table t (id integer primary key, v text not null)`.execute(db);
    await db.insertInto("t").values({ id: 1, v: "one" }).execute();
    flushes = 0;
  });

  afterEach(async () => {
    await db.destroy();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it("happens for each write that changed a row, alone or in a transaction", async () => {
    await db.insertInto("t").values({ id: 2, v: "two" }).execute();
    expect(flushes).toBe(1);
    await db.updateTable("t").set({ v: "uno" }).where("id", "=", 1).returning("id").execute();
    expect(flushes).toBe(2);
    await db.transaction().execute(async (tx) => {
      await tx.updateTable("t").set({ v: "nothing" }).where("id", "=", 99).execute();
      await tx.deleteFrom("t").where("id", "=", 2).execute();
    });
    expect(flushes).toBe(3);
    expect(await db.selectFrom("t").select(["id", "v"]).execute()).toEqual([{ id: 1, v: "uno" }]);
  });

  it("is not owed by statements that changed no row, nor by a transaction of them", async () => {
    await db.updateTable("t").set({ v: "nothing" }).where("id", "=", 99).execute();
    await db.updateTable("t").set({ v: "nothing" }).where("id", "=", 99).returning("id").execute();
    await db.deleteFrom("t").where("id", "=", 99).execute();
    await db
      .insertInto("t")
      .values({ id: 1, v: "again" })
      .onConflict((conflict) => conflict.column("id").doNothing())
      .execute();
    await db.transaction().execute(async (tx) => {
      await tx.updateTable("t").set({ v: "nothing" }).where("id", "=", 99).execute();
      await tx.selectFrom("t").selectAll().execute();
    });
    expect(flushes).toBe(0);
  });

  it("is owed by a schema change, which reports no rows", async () => {
    await sql`create table u (id integer primary key)`.execute(db);
    expect(flushes).toBe(1);
  });
});

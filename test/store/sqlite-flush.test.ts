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
import { EmbeddedSqliteDialect } from "../../src/store/dialect/sqlite/kysely-dialect.js";
import { walFlush } from "../../src/store/dialect/sqlite/wal-flush.js";
import { sqliteDriver } from "../../src/store/sqlite-driver.js";
import { heldAnswer } from "../support/recorder.js";
import { tempDir } from "../support/temp.js";
import { holdsThroughout, waitUntil } from "../support/wait.js";

interface Tables {
  t: { id: number; v: string };
}

describe("the embedded database's flush after commit", () => {
  let dir: string;
  let db: Kysely<Tables>;
  let flushes: number;
  let database: InstanceType<ReturnType<typeof sqliteDriver>["Database"]>;
  /** Each flush waits for the gate set when it starts (none: it goes at once). */
  let gate: Promise<void> | undefined;
  /** A failed flush, as the log's flush reports it once it failed (wal-flush.ts `failure`). */
  let failedWith: (Error & { code: string }) | undefined;

  beforeEach(async () => {
    dir = tempDir();
    const file = path.join(dir, "flush.sqlite");
    database = new (sqliteDriver().Database)(file);
    gate = undefined;
    failedWith = undefined;
    database.pragma("journal_mode = WAL");
    database.pragma("synchronous = NORMAL");
    const wal = walFlush(file);
    flushes = 0;
    const counted = {
      ...wal,
      flush: async () => {
        flushes++;
        await gate;
        return wal.flush();
      },
      failure: () => failedWith ?? wal.failure(),
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

  it("lets the next holder in while a flush runs, flushes the commits made meanwhile together, and gives nothing back before it is flushed", async () => {
    const first = heldAnswer();
    gate = first.held;
    const settled: string[] = [];
    const track = (name: string, done: Promise<unknown>) => done.then(() => settled.push(name));
    const rows = () => (database.prepare("select count(*) as n from t").get() as { n: number }).n;
    const until = async (what: () => boolean) => {
      await waitUntil("the flush's state", what, 1000, 1);
      expect(what()).toBe(true);
    };
    // Nothing marks a promise that did not settle: a window shows that none did while it lasted.
    const noneSettledBeyond = (names: string[]) =>
      holdsThroughout(`only ${JSON.stringify(names)} settled`, () => settled.length === names.length, 20, 1);

    const one = track("one", db.insertInto("t").values({ id: 2, v: "two" }).execute());
    await until(() => flushes === 1);
    const second = heldAnswer();
    gate = second.held;
    // The first flush holds; the next holders write and read all the same.
    const others = [
      track("two", db.insertInto("t").values({ id: 3, v: "three" }).execute()),
      track(
        "three",
        db.transaction().execute((tx) => tx.insertInto("t").values({ id: 4, v: "four" }).execute()),
      ),
      track("read", db.selectFrom("t").selectAll().execute()),
    ];
    await until(() => rows() === 4);
    await noneSettledBeyond([]);
    expect(settled).toEqual([]);
    // The first flush covered the first commit only: the others wait for the next, which covers
    // both of theirs (and what the read could have seen).
    first.release();
    await one;
    await until(() => flushes === 2);
    await noneSettledBeyond(["one"]);
    expect(settled).toEqual(["one"]);
    second.release();
    await Promise.all(others);
    expect(settled.sort()).toEqual(["one", "read", "three", "two"]);
    expect(flushes).toBe(2);
  });

  it("after a failed flush, gives the writers that waited for it its error, readers what they read, and takes no more writes", async () => {
    const failure = Object.assign(new Error("EIO"), { code: "SQLITE_IOERR_FSYNC" });
    let fail = () => {};
    gate = new Promise<void>((_, reject) => {
      fail = () => {
        failedWith = failure;
        reject(failure);
      };
    });
    const write = db.insertInto("t").values({ id: 2, v: "two" }).execute();
    write.catch(() => {});
    await waitUntil("the write's flush to start", () => flushes === 1, 1000, 1);
    const read = db.selectFrom("t").select("id").execute();
    fail();
    await expect(write).rejects.toThrow("EIO");
    expect((await read).map((row) => row.id)).toEqual([1, 2]);
    await expect(db.insertInto("t").values({ id: 3, v: "three" }).execute()).rejects.toThrow("EIO");
    expect((await db.selectFrom("t").select("id").execute()).map((row) => row.id)).toEqual([1, 2]);
    expect(flushes).toBe(1);
  });
});

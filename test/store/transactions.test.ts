/**
 * Transactions on every dialect, as the commit of an invocation uses them: writes marked as the
 * transaction's last (`writeIn(…, { last: true })`), whose COMMIT goes right behind them on
 * PostgreSQL (store/dialect/postgres/driver.ts), and BEGIN sent with the first statement. Whatever rides
 * along, a transaction is all or nothing, its writes are seen by others only once it commits,
 * and a connection is fit for the next transaction after any of these ends; one the server cut
 * while the last statement ran commits nothing and is not handed out again.
 */
import { sql } from "kysely";
import pg from "pg";
import { describe, expect, it } from "vitest";
import { endingTransaction } from "../../src/store/dialect/postgres/driver.js";
import type { Store } from "../../src/store/store.js";
import { type Write, writeIn } from "../../src/store/write-together.js";
import { dialects, isAvailable, postgresUrl } from "../support/dialects.js";
import { storeForSuite } from "../support/suite-store.js";
import { waitUntil } from "../support/wait.js";

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`transactions on ${dialect.name}`, () => {
    let store: Store;
    storeForSuite(dialect, (opened) => {
      store = opened;
    });

    const slot =
      (key: string, next_at = 1): Write =>
      (db) =>
        db.insertInto("rate_slots").values({ key, next_at });
    const stored = async (...keys: string[]) =>
      (
        await store.db
          .selectFrom("rate_slots")
          .select("key")
          .where("key", "in", keys)
          .orderBy("key")
          .execute()
      ).map((row) => row.key);

    it("writes marked as the last are committed with the transaction, and seen only after it", async () => {
      await store.db.transaction().execute(async (tx) => {
        await writeIn(tx, store.capabilities, [slot("last-a")]);
        if (dialect.name === "postgres") expect(await stored("last-a")).toEqual([]);
        await writeIn(tx, store.capabilities, [slot("last-b"), slot("last-c")], { last: true });
      });
      expect(await stored("last-a", "last-b", "last-c")).toEqual(["last-a", "last-b", "last-c"]);
    });

    it("a failing write marked as the last rolls back the whole transaction with its own error", async () => {
      await writeIn(store.db, store.capabilities, [slot("taken")]);
      const failed = store.db.transaction().execute(async (tx) => {
        await writeIn(tx, store.capabilities, [slot("before-failure")]);
        // "taken" exists: the primary key refuses the second row, and the statement with it.
        await writeIn(tx, store.capabilities, [slot("with-failure"), slot("taken")], { last: true });
      });
      await expect(failed).rejects.toThrow(/unique|duplicate/i);
      expect(await stored("before-failure", "with-failure")).toEqual([]);
    });

    it("a transaction that fails before its first statement, or after some, leaves nothing", async () => {
      await expect(
        store.db.transaction().execute(async () => {
          throw new Error("before any statement");
        }),
      ).rejects.toThrow("before any statement");
      await expect(
        store.db.transaction().execute(async (tx) => {
          await writeIn(tx, store.capabilities, [slot("rolled-back")]);
          throw new Error("after a statement");
        }),
      ).rejects.toThrow("after a statement");
      expect(await stored("rolled-back")).toEqual([]);
    });

    it("the transaction's settings hold from its first statement", async () => {
      const level = await store.db
        .transaction()
        .setIsolationLevel("serializable")
        .execute(async (tx) =>
          dialect.name === "postgres"
            ? (
                await sql<{
                  level: string;
                }>`select current_setting('transaction_isolation') as level`.execute(tx)
              ).rows[0]?.level
            : "serializable",
        );
      expect(level).toBe("serializable");
    });

    it("every connection of the pool is fit for the next transaction after these", async () => {
      // More transactions at once than the pool has connections, each on a connection one of the
      // tests above ended in some way.
      await Promise.all(
        Array.from({ length: 25 }, (_, index) =>
          store.db.transaction().execute(async (tx) => {
            await writeIn(tx, store.capabilities, [slot(`after-${index}`)], { last: index % 2 === 0 });
          }),
        ),
      );
      const keys = Array.from({ length: 25 }, (_, index) => `after-${index}`);
      expect(await stored(...keys)).toEqual([...keys].sort());
    });
  });
}

const postgres = dialects.find((dialect) => dialect.name === "postgres");

describe.skipIf(!postgres || !isAvailable(postgres))("a transaction's last statement on postgres", () => {
  let store: Store;
  storeForSuite(postgres as NonNullable<typeof postgres>, (opened) => {
    store = opened;
  });

  it("a statement after the one marked as the transaction's last is refused, not run outside it", async () => {
    const misused = store.db.transaction().execute(async (tx) => {
      await writeIn(
        tx,
        store.capabilities,
        [(db) => db.insertInto("rate_slots").values({ key: "ended", next_at: 1 })],
        {
          last: true,
        },
      );
      await tx.insertInto("rate_slots").values({ key: "after-the-end", next_at: 1 }).execute();
    });
    await expect(misused).rejects.toThrow("a statement after the one marked as its transaction's last");
    const keys = await store.db
      .selectFrom("rate_slots")
      .select("key")
      .where("key", "in", ["ended", "after-the-end"])
      .execute();
    // The COMMIT went with the marked write: it is kept; the refused statement never ran.
    expect(keys).toEqual([{ key: "ended" }]);
  });

  it("a connection lost while the last statement runs, its COMMIT sent behind it, commits nothing, and the pool goes on", async () => {
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    try {
      let terminated: Promise<unknown> = Promise.resolve();
      const lost = store.db.transaction().execute(async (tx) => {
        await tx.insertInto("rate_slots").values({ key: "before-the-loss", next_at: 1 }).execute();
        const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(tx);
        const pid = rows[0]?.pid;
        // The server ends this connection while the statement marked last (with its COMMIT
        // already sent behind it) is still running: once the server shows it running.
        terminated = waitUntil(
          "the last statement running",
          async () => {
            const running = await admin.query(
              "select 1 from pg_stat_activity where pid = $1 and state = 'active' and query like '%pg_sleep%'",
              [pid],
            );
            return running.rowCount === 1;
          },
          5000,
          10,
        ).then(() => admin.query("select pg_terminate_backend($1)", [pid]));
        await tx.executeQuery(endingTransaction(sql`select pg_sleep(2)`.compile(tx)));
      });
      await expect(lost).rejects.toThrow(/terminat/i);
      await terminated;
      const kept = await store.db
        .selectFrom("rate_slots")
        .select("key")
        .where("key", "=", "before-the-loss")
        .execute();
      expect(kept).toEqual([]);
      // The lost connection is not handed out again: the next transactions run and commit.
      for (let n = 0; n < 12; n++) {
        await store.db.transaction().execute((tx) =>
          tx
            .insertInto("rate_slots")
            .values({ key: `after-the-loss-${n}`, next_at: 1 })
            .execute(),
        );
      }
      const after = await store.db
        .selectFrom("rate_slots")
        .select("key")
        .where("key", "like", "after-the-loss-%")
        .execute();
      expect(after).toHaveLength(12);
    } finally {
      await admin.end();
    }
  });
});

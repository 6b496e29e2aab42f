/**
 * Statements run as one transaction in one round trip (store/dialect/postgres/statement-batch.ts): parameters go
 * as parameters, whatever quotes and backslashes they hold; a lock the first statement takes
 * holds until the last one ends; a failed statement rolls back the ones before it and the batch
 * rejects with its error, leaving the connection usable.
 */
import { type CompiledQuery, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createStatementBatch,
  type StatementBatch,
} from "../../src/store/dialect/postgres/statement-batch.js";
import { postgresUrl } from "../support/dialects.js";
import { waitUntil } from "../support/wait.js";

const compiled = (text: string, parameters: unknown[] = []): CompiledQuery =>
  ({ sql: text, parameters, query: { kind: "RawNode" } }) as unknown as CompiledQuery;

describe.skipIf(postgresUrl === undefined)("statement batches on postgres", () => {
  let pool: pg.Pool;
  let batch: StatementBatch;
  const table = `batch_test_${process.pid}_${Date.now()}`;
  beforeAll(async () => {
    // One connection, pipelined as the store's are: every batch below runs on the same one.
    pool = new pg.Pool({ connectionString: postgresUrl, max: 1, pipeline: true });
    batch = createStatementBatch(pool);
    await pool.query(`create table ${table} (id int primary key)`);
  });
  afterAll(async () => {
    await pool?.query(`drop table if exists ${table}`);
    await pool?.end();
  });

  it("sends strings back as they were, quotes, backslashes and all", async () => {
    const awkward = ["it's", "back\\slash", "\\'; drop table x; --", "ünï\u{1F600}", "$1", ""];
    const [rows] = await batch([
      compiled(`select ${awkward.map((_, i) => `$${i + 1}::text as c${i}`).join(", ")}`, awkward),
    ]);
    expect(Object.values((rows as Record<string, unknown>[])[0] as object)).toEqual(awkward);
  });

  it("holds the first statement's transaction lock until the last statement ends", async () => {
    const key = Math.floor(Math.random() * 1e9);
    const lock = compiled("select pg_advisory_xact_lock($1)", [key]);
    // The second batch goes on a connection of its own, so that it can wait for the lock.
    const other = new pg.Pool({ connectionString: postgresUrl, max: 1, pipeline: true });
    try {
      const started = Date.now();
      const first = batch([lock, compiled("select pg_sleep(0.3)")]);
      // The second batch starts once the first holds the lock (a key below 2^32 is its objid).
      await waitUntil("the first batch to hold the lock", async () => {
        const held = await other.query(
          "select 1 from pg_locks where locktype = 'advisory' and objid = $1 and granted",
          [key],
        );
        return held.rowCount === 1;
      });
      const [, rows] = await createStatementBatch(other)([lock, compiled("select 1 as after")]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(280);
      expect(rows).toEqual([{ after: 1 }]);
      await first;
    } finally {
      await other.end();
    }
  });

  it("rolls back every statement when one fails, rejects with that one's error, and the connection goes on", async () => {
    const insert = (id: number) => compiled(`insert into ${table} (id) values ($1)`, [id]);
    await expect(batch([insert(1), compiled("select 1 / $1::int", [0]), insert(2)])).rejects.toThrow(
      /division by zero/,
    );
    const [count] = await batch([compiled(`select count(*)::int as n from ${table}`)]);
    expect(count).toEqual([{ n: 0 }]);

    const [, inserted] = await batch([insert(3), compiled(`select id from ${table}`)]);
    expect(inserted).toEqual([{ id: 3 }]);
  });

  it("runs statements Kysely compiled, with their parameters", async () => {
    const { Kysely, PostgresDialect } = await import("kysely");
    const kysely = new Kysely<object>({ dialect: new PostgresDialect({ pool }) });
    const [rows] = await batch([sql<{ sum: number }>`select ${20}::int + ${22}::int as sum`.compile(kysely)]);
    expect(rows).toEqual([{ sum: 42 }]);
  });
});

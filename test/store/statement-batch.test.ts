/**
 * Statements in one round trip (store/statement-batch.ts): parameters written into the text as
 * literals come back as they were sent, whatever quotes and backslashes they hold; a lock the
 * first statement takes holds until the last one ends; what cannot be written as a literal is
 * refused.
 */
import { type CompiledQuery, sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  createStatementBatch,
  inlineParameters,
  type StatementBatch,
} from "../../src/store/statement-batch.js";
import { postgresUrl } from "../support/dialects.js";

const compiled = (text: string, parameters: unknown[]): CompiledQuery =>
  ({ sql: text, parameters, query: { kind: "RawNode" } }) as unknown as CompiledQuery;

describe("inlined parameters", () => {
  it("writes numbers, strings and nulls as literals, and refuses anything else", () => {
    expect(inlineParameters(compiled("select $1, $2, $3, $1", [7, "it's", null]))).toBe(
      "select 7, 'it''s', null, 7",
    );
    expect(() => inlineParameters(compiled("select $1", [{ a: 1 }]))).toThrow(/numbers, strings and nulls/);
    expect(() => inlineParameters(compiled("select $1", [Number.NaN]))).toThrow();
    expect(() => inlineParameters(compiled("select '$2', $1", [1]))).toThrow(/placeholders/);
  });
});

describe.skipIf(postgresUrl === undefined)("statement batches on postgres", () => {
  let pool: pg.Pool;
  let batch: StatementBatch;
  beforeAll(() => {
    pool = new pg.Pool({ connectionString: postgresUrl, max: 2 });
    batch = createStatementBatch(pool);
  });
  afterAll(async () => {
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
    const db = { lock: sql`select pg_advisory_xact_lock(${key})`, sleep: sql`select pg_sleep(0.3)` };
    const { Kysely, PostgresDialect } = await import("kysely");
    const kysely = new Kysely<object>({
      dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: postgresUrl, max: 1 }) }),
    });
    try {
      const started = Date.now();
      const first = batch([db.lock.compile(kysely), db.sleep.compile(kysely)]);
      await new Promise((resolve) => setTimeout(resolve, 50));
      // A second script asking for the same lock waits for the first one's end.
      const [, rows] = await batch([db.lock.compile(kysely), sql`select 1 as after`.compile(kysely)]);
      expect(Date.now() - started).toBeGreaterThanOrEqual(280);
      expect(rows).toEqual([{ after: 1 }]);
      await first;
    } finally {
      await kysely.destroy();
    }
  });
});

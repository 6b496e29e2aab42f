/**
 * Named statements on PostgreSQL (store/prepared.ts `serverStatementName`): a `reusePlan` text is
 * named at its third run, and once the names run out the rest run unnamed, correctly. The names
 * are the process's: this file runs in a module state of its own, and uses them up.
 */
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { reusePlanOf, reusesPlan, serverStatementName } from "../../src/store/named-statements.js";
import { prepared } from "../../src/store/prepared.js";
import type { Store } from "../../src/store/store.js";
import { dialects, isAvailable } from "../support/dialects.js";
import { storeForSuite } from "../support/suite-store.js";

const postgres = dialects.find((dialect) => dialect.name === "postgres");

describe("naming reusable statements", () => {
  it("names a text at its third run, and never one that was not marked", () => {
    reusePlanOf("select 'marked'");
    expect(reusesPlan("select 'marked'")).toBe(true);
    expect(serverStatementName("select 'marked'")).toBeUndefined();
    expect(serverStatementName("select 'marked'")).toBeUndefined();
    const name = serverStatementName("select 'marked'");
    expect(name).toMatch(/^sluice_\d+$/);
    expect(serverStatementName("select 'marked'")).toBe(name);
    // Marking it again keeps its name.
    reusePlanOf("select 'marked'");
    expect(serverStatementName("select 'marked'")).toBe(name);

    expect(reusesPlan("select 'not marked'")).toBe(false);
    for (let run = 0; run < 5; run++) expect(serverStatementName("select 'not marked'")).toBeUndefined();
  });
});

describe.skipIf(!postgres || !isAvailable(postgres))("named statements on PostgreSQL", () => {
  let store: Store;
  storeForSuite(postgres as NonNullable<typeof postgres>, (opened) => {
    store = opened;
  });

  it("runs every statement correctly once the names have run out", async () => {
    // 300 texts, each run four times: past the 256th name the rest run unnamed.
    const statements = Array.from({ length: 300 }, (_, index) =>
      prepared(
        (creator, values: { value: number }) =>
          creator.selectNoFrom([
            sql.lit(index).as("statement"),
            sql<number>`cast(${values.value} as integer)`.as("value"),
          ]),
        { reusePlan: true },
      ),
    );
    for (let run = 0; run < 4; run++) {
      for (const [index, statement] of statements.entries()) {
        const rows = await statement.execute(store, { value: index * 10 + run });
        expect(rows).toEqual([{ statement: index, value: index * 10 + run }]);
      }
    }
    const textOf = (index: number) =>
      (statements[index] as (typeof statements)[0]).compile(store.db, "postgres", { value: 0 }).sql;
    // The first ones have names; the last ones none (the bound), and still ran above.
    expect(serverStatementName(textOf(0))).toMatch(/^sluice_\d+$/);
    expect(serverStatementName(textOf(299))).toBeUndefined();
    expect(reusesPlan(textOf(299))).toBe(true);
  });
});

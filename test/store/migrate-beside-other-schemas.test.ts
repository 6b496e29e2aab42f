/**
 * Opening a store on PostgreSQL beside other schemas of the same database (other deployments,
 * other test runs): the migration looks for its bookkeeping tables in its own schema only, so
 * another schema's table dropped or altered mid-read cannot fail it (it did: "column … of
 * relation … does not exist", from reading every schema's columns).
 */
import { sql } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openStore } from "../../src/store/store.js";
import { dialects, isAvailable, postgresUrl, type TestDatabase } from "../support/dialects.js";

const postgres = dialects.find((dialect) => dialect.name === "postgres");

describe.skipIf(!postgres || !isAvailable(postgres))("migrating beside other schemas on PostgreSQL", () => {
  let database: TestDatabase;
  let admin: pg.Client;
  const other = `sluice_other_${process.pid}`;

  beforeAll(async () => {
    database = await (postgres as NonNullable<typeof postgres>).create();
    admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
  });
  afterAll(async () => {
    await admin?.query(`drop schema if exists ${other} cascade`);
    await admin?.end();
    await database?.cleanup();
  });

  it("reads only its own schema's tables", async () => {
    await admin.query(`create schema if not exists ${other}`);
    await admin.query(`create table if not exists ${other}.elsewhere (id serial primary key, note text)`);
    const store = await openStore(database);
    try {
      const tables = await store.db.introspection.getTables({ withInternalKyselyTables: true });
      const own = await sql<{ schema: string }>`select current_schema() as schema`.execute(store.db);
      expect(new Set(tables.map((table) => table.schema))).toEqual(new Set([own.rows[0]?.schema]));
      expect(tables.map((table) => table.name)).toEqual(
        expect.arrayContaining(["sources", "events", "kysely_migration", "kysely_migration_lock"]),
      );
    } finally {
      await store.close();
    }
  });
});

/**
 * Everything a test database holds, as one string, to assert that a secret is stored nowhere in
 * plain text: the SQLite file and its WAL as raw bytes, or every row of every table of the
 * PostgreSQL schema as text.
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import type { TestDatabase } from "./dialects.js";

export async function databaseText(database: TestDatabase): Promise<string> {
  if (database.databaseUrl === undefined) {
    return fs
      .readdirSync(database.dataDir)
      .filter((name) => name.startsWith("sluice.db"))
      .map((name) => fs.readFileSync(path.join(database.dataDir, name)).toString("latin1"))
      .join("\n");
  }
  const client = new pg.Client({ connectionString: database.databaseUrl });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      "select table_name from information_schema.tables where table_schema = current_schema()",
    );
    const parts: string[] = [];
    for (const { table_name: table } of tables.rows) {
      const rows = await client.query<{ row: string }>(`select t::text as row from "${table}" t`);
      parts.push(...rows.rows.map((row) => row.row));
    }
    return parts.join("\n");
  } finally {
    await client.end();
  }
}

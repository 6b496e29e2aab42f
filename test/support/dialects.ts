/**
 * The databases every store-level and REST suite runs on: SQLite always, PostgreSQL when
 * SLUICE_TEST_DATABASE_URL is set (CI sets it). Each PostgreSQL test database is a schema of its
 * own, selected through the connection URL, and dropped at cleanup.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import pg from "pg";
import { tempDir } from "./temp.js";

export interface TestDatabase {
  readonly dialect: "sqlite" | "postgres";
  /** The SLUICE_DATABASE_URL to use; undefined for SQLite. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
  cleanup(): Promise<void>;
}

export interface TestDialect {
  readonly name: "sqlite" | "postgres";
  create(): Promise<TestDatabase>;
}

export const postgresUrl = process.env.SLUICE_TEST_DATABASE_URL || undefined;

const sqlite: TestDialect = {
  name: "sqlite",
  async create() {
    const dataDir = tempDir();
    return {
      dialect: "sqlite",
      databaseUrl: undefined,
      dataDir,
      async cleanup() {
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
};

const postgres = (baseUrl: string): TestDialect => ({
  name: "postgres",
  async create() {
    const schema = `sluice_test_${randomBytes(6).toString("hex")}`;
    await adminQuery(baseUrl, `create schema ${schema}`);
    const url = new URL(baseUrl);
    url.searchParams.set("options", `-c search_path=${schema}`);
    const dataDir = tempDir();
    return {
      dialect: "postgres",
      databaseUrl: url.toString(),
      dataDir,
      async cleanup() {
        await adminQuery(baseUrl, `drop schema if exists ${schema} cascade`);
        fs.rmSync(dataDir, { recursive: true, force: true });
      },
    };
  },
});

async function adminQuery(url: string, text: string): Promise<void> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query(text);
  } finally {
    await client.end();
  }
}

if (!postgresUrl) {
  process.stderr.write(
    "SLUICE_TEST_DATABASE_URL is not set: the PostgreSQL suites are reported as skipped.\n",
  );
}

/** Every dialect available to this run. PostgreSQL suites show as skipped, by name, when it is not configured. */
export const dialects: TestDialect[] = [sqlite, postgres(postgresUrl ?? "postgres://unset")];

export function isAvailable(dialect: TestDialect): boolean {
  return dialect.name === "sqlite" || postgresUrl !== undefined;
}

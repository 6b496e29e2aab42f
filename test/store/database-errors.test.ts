/**
 * The driver errors that say something about the database rather than the query, as the real
 * drivers raise them: a full disk is `storage_full` (HTTP 507), a database that is away is
 * `unavailable` (HTTP 503), and a mistake in a query is neither (a 500 that gets fixed).
 */
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { databaseFailure } from "../../src/store/database-errors.js";
import { sqliteDriver } from "../../src/store/sqlite-driver.js";
import { freePort } from "../support/private-postgres.js";
import { tempDir } from "../support/temp.js";

/** The error `run` throws. */
async function errorOf(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error("expected an error");
}

/** A driver-shaped error: an Error with the driver's code. */
const withCode = (code: string) => Object.assign(new Error(`failed: ${code}`), { code });

describe("database failures", () => {
  const dir = tempDir();
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it("a full SQLite database (SQLITE_FULL) is storage_full", async () => {
    const db = new (sqliteDriver().Database)(path.join(dir, "full.db"));
    db.pragma("max_page_count = 8");
    db.exec("create table t (v text)");
    const error = await errorOf(() => {
      for (let n = 0; n < 100; n++) db.prepare("insert into t values (?)").run("x".repeat(4000));
    });
    db.close();
    expect((error as { code: string }).code).toBe("SQLITE_FULL");
    expect(databaseFailure(error)).toBe("storage_full");
  });

  it("PostgreSQL's disk_full (53100) and a full data directory (ENOSPC) are storage_full", () => {
    expect(databaseFailure(withCode("53100"))).toBe("storage_full");
    expect(databaseFailure(withCode("ENOSPC"))).toBe("storage_full");
  });

  it("a PostgreSQL that refuses connections, or is shutting down, is unavailable", async () => {
    const client = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${await freePort()}/x` });
    const refused = await errorOf(() => client.connect());
    expect(databaseFailure(refused)).toBe("unavailable");
    for (const code of ["57P01", "57P03", "08006", "SQLITE_BUSY", "SQLITE_IOERR_WRITE"]) {
      expect(databaseFailure(withCode(code))).toBe("unavailable");
    }
  });

  it("a pg connection that dropped, reported without a code, is unavailable", () => {
    expect(databaseFailure(new Error("Connection terminated unexpectedly"))).toBe("unavailable");
    expect(databaseFailure(new Error("Client has encountered a connection error and is not queryable"))).toBe(
      "unavailable",
    );
  });

  it("a mistake in the query is neither", async () => {
    const db = new (sqliteDriver().Database)(":memory:");
    const error = await errorOf(() => db.prepare("select * from missing").all());
    db.close();
    expect(databaseFailure(error)).toBeUndefined();
    expect(databaseFailure(withCode("23505"))).toBeUndefined();
    expect(databaseFailure("not an error")).toBeUndefined();
  });
});

/**
 * Where the data lives. Two dialects share every query; where they differ, the difference is a
 * capability flag here, never a check of the database's name in the code that uses it.
 */
import fs from "node:fs";
import path from "node:path";
import type SQLite from "better-sqlite3";
import type { Dialect } from "kysely";
import pg from "pg";
import { lockDataDir } from "./data-dir-lock.js";
import { SluicePostgresDialect } from "./postgres-dialect.js";
import { serverStatementName } from "./prepared.js";
import { EmbeddedSqliteDialect } from "./sqlite-dialect.js";
import { sqliteDriver } from "./sqlite-driver.js";
import { createStatementBatch, type StatementBatch } from "./statement-batch.js";
import { walFlush } from "./wal-flush.js";

export interface StoreLocation {
  /** `postgres://…`; undefined selects the embedded SQLite database in dataDir. */
  readonly databaseUrl: string | undefined;
  readonly dataDir: string;
}

export interface DialectCapabilities {
  readonly name: "sqlite" | "postgres";
  /** Row locks that concurrent claimers skip (`FOR UPDATE SKIP LOCKED`). SQLite has one writer, so needs none. */
  readonly skipLocked: boolean;
  /** One server process uses the database (embedded mode holds the data directory's lock). */
  readonly singleProcess: boolean;
  /**
   * Each statement is a round trip to a database server, so one complex statement beats several
   * plain ones (a capped claim, a delivery's outcome with its webhook's next job). In process
   * (SQLite) there is no round trip to save, and a few plain statements cost less than the one
   * complex statement (store/sqlite-capped-claim.ts).
   */
  readonly roundTrips: boolean;
}

export interface OpenedDialect {
  readonly dialect: Dialect;
  readonly capabilities: DialectCapabilities;
  /** Listens for connections that fail while idle in the pool. */
  readonly onPoolError: (listener: (error: Error) => void) => void;
  /** Several statements in one round trip (PostgreSQL; store/statement-batch.ts). */
  readonly batch?: StatementBatch;
  /** Releases what the dialect holds outside Kysely (the data directory lock); called after destroy. */
  readonly release: () => void;
}

export const SQLITE_FILE = "sluice.db";

export function openDialect(location: StoreLocation): OpenedDialect {
  return location.databaseUrl === undefined
    ? openSqlite(location.dataDir)
    : openPostgres(location.databaseUrl);
}

function openSqlite(dataDir: string): OpenedDialect {
  fs.mkdirSync(dataDir, { recursive: true });
  const release = lockDataDir(dataDir);
  const file = path.join(dataDir, SQLITE_FILE);
  let database: SQLite.Database;
  try {
    database = new (sqliteDriver().Database)(file);
  } catch (error) {
    release();
    throw error;
  }
  database.pragma("journal_mode = WAL");
  // A commit survives a power cut, not only a crash of the process: an accepted event is never
  // lost. SQLite writes the log at commit (NORMAL) and the driver flushes it, off the event loop,
  // before the commit is reported or anything else reads (sqlite-dialect.ts, wal-flush.ts).
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  cacheStatements(database);
  return {
    dialect: new EmbeddedSqliteDialect(database, walFlush(file)),
    capabilities: { name: "sqlite", skipLocked: false, singleProcess: true, roundTrips: false },
    onPoolError: () => {},
    release,
  };
}

/** Statements kept prepared: enough for every query shape of the hot paths, with room to spare. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every statement it runs, and preparing is a tenth of the CPU time of an
 * invocation. A better-sqlite3 statement can run again and again (the API is synchronous, and
 * Kysely never iterates one), so the most recent ones are kept by their SQL text.
 */
function cacheStatements(database: SQLite.Database): void {
  const prepare = database.prepare.bind(database);
  const cache = new Map<string, SQLite.Statement>();
  database.prepare = ((source: string) => {
    let statement = cache.get(source);
    if (statement) {
      cache.delete(source);
    } else {
      statement = prepare(source);
      if (cache.size >= STATEMENT_CACHE_SIZE) cache.delete(cache.keys().next().value as string);
    }
    cache.set(source, statement);
    return statement;
  }) as typeof database.prepare;
}

const INT8_OID = 20;

/**
 * A connection that runs the statements prepared with `reusePlan` (store/prepared.ts) as named
 * statements: PostgreSQL parses each once per connection and can keep its plan. Kysely sends
 * every statement as text and values; the name is looked up by the text.
 */
class NamedStatementClient extends pg.Client {
  override query(...args: unknown[]): never {
    const [text, values] = args;
    if (typeof text === "string" && Array.isArray(values) && args.length === 2) {
      const name = serverStatementName(text);
      if (name !== undefined) return super.query({ name, text, values }) as never;
    }
    return (super.query as (...all: unknown[]) => unknown)(...args) as never;
  }
}

function openPostgres(connectionString: string): OpenedDialect {
  const pool = new pg.Pool({
    Client: NamedStatementClient,
    connectionString,
    max: 10,
    // A statement is sent without waiting for the one before: a transaction's BEGIN and COMMIT
    // go along with its statements (postgres-driver.ts).
    pipeline: true,
    // bigint columns hold epoch milliseconds and counts, all well inside Number's exact range.
    types: {
      getTypeParser: ((oid: number, format?: "text" | "binary") =>
        oid === INT8_OID ? Number : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
    },
  });
  // The pool listens for errors on idle clients only. One checked out (inside a transaction, or
  // between Kysely's acquire and its query) that loses its connection when the database restarts
  // would emit an 'error' nobody hears, and Node ends the process. The query running on it, or the
  // next one, fails instead, and the pool drops the broken client when it is released.
  pool.on("connect", (client) => {
    client.on("error", () => {});
  });
  return {
    dialect: new SluicePostgresDialect(pool),
    capabilities: { name: "postgres", skipLocked: true, singleProcess: false, roundTrips: true },
    batch: createStatementBatch(pool),
    // An idle client losing its connection (a database restart) must not crash the process.
    onPoolError: (listener) => pool.on("error", listener),
    release: () => {},
  };
}

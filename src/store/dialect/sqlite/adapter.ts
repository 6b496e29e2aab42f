/**
 * The embedded database: SQLite in the data directory, one connection, one writer. Its adapter
 * runs what PostgreSQL does in one statement as a few plain ones (no round trip to save) and
 * shares write transactions (group commit).
 */
import fs from "node:fs";
import path from "node:path";
import type SQLite from "better-sqlite3";
import { type CompiledQuery, type Expression, type Kysely, type SqlBool, sql } from "kysely";
import { lockDataDir } from "../../data-dir-lock.js";
import { claimedInOrder } from "../../jobs/claimed-job.js";
import type { ClaimOptions, GroupLimitColumn, Turn } from "../../jobs/contract.js";
import type { Database, Executor } from "../../schema.js";
import { sqliteDriver } from "../../sqlite-driver.js";
import type { DialectCapabilities } from "../capabilities.js";
import type { CappedClaim, DialectAdapter, OpenedDialect } from "../dialect.js";
import { claimCappedOnSqlite } from "./capped-claim.js";
import { GroupCommit } from "./group-commit.js";
import { EmbeddedSqliteDialect } from "./kysely-dialect.js";
import { walFlush } from "./wal-flush.js";

export const SQLITE_FILE = "sluice.db";

const CAPABILITIES: DialectCapabilities = {
  name: "sqlite",
  skipLocked: false,
  singleProcess: true,
  roundTrips: false,
  combinesWrites: false,
};

export class SqliteAdapter implements DialectAdapter {
  readonly capabilities = CAPABILITIES;
  readonly #groupCommit = new GroupCommit();

  idIn(subquery: Expression<unknown>) {
    return sql<SqlBool>`id in (${subquery})`;
  }

  async claimCapped(
    db: Kysely<Database>,
    { queue, limit, leaseMs, now = Date.now(), excludeGroups = [], onlyGroups }: ClaimOptions,
    groupLimit: number | GroupLimitColumn,
  ): Promise<CappedClaim> {
    const options = { queue, limit, leaseMs, now, excludeGroups, ...(onlyGroups ? { onlyGroups } : {}) };
    return { jobs: claimedInOrder(await claimCappedOnSqlite(db, options, groupLimit)) };
  }

  async takeTurn(
    db: Kysely<Database>,
    _queue: string,
    { started, held }: { readonly started: CompiledQuery; readonly held: CompiledQuery },
  ): Promise<Turn> {
    // One writer, so the UPDATE is atomic by itself.
    const startedRows = (await db.executeQuery(started)).rows;
    if (startedRows.length > 0) return "started";
    return (await db.executeQuery(held)).rows.length > 0 ? "waiting" : "lost";
  }

  inSharedTransaction<T>(db: Kysely<Database>, work: (tx: Executor) => Promise<T>): Promise<T> {
    return this.#groupCommit.run(db, work);
  }

  async migrationSchema(): Promise<string | undefined> {
    return undefined;
  }
}

export function openSqlite(dataDir: string): OpenedDialect {
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
  // before the commit is reported or anything else reads (kysely-dialect.ts, wal-flush.ts).
  database.pragma("synchronous = NORMAL");
  database.pragma("foreign_keys = ON");
  database.pragma("busy_timeout = 5000");
  cacheStatements(database);
  return {
    dialect: new EmbeddedSqliteDialect(database, walFlush(file)),
    adapter: new SqliteAdapter(),
    onPoolError: () => {},
    release,
  };
}

/** Statements kept prepared: enough for every query shape of the hot paths, with room to spare. */
const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every statement it runs, and preparing costs much of an invocation's CPU. A
 * better-sqlite3 statement can run again and again (the API is synchronous, and Kysely never
 * iterates one), so the most recent ones are kept by their SQL text.
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

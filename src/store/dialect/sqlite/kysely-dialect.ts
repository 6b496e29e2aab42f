/**
 * Kysely's SQLite dialect over better-sqlite3, with two changes.
 *
 * A commit's flush runs off the event loop (wal-flush.ts): better-sqlite3 is synchronous, and
 * an fsync at every COMMIT would block the server. The connection goes to the next holder once
 * the commit is written; what any holder gets back waits until every commit before it is
 * flushed, so nothing is read, answered or delivered that a power cut could still take away.
 *
 * A transaction that SQLite already rolled back by itself (SQLITE_FULL, SQLITE_IOERR,
 * SQLITE_NOMEM) is not rolled back again: Kysely's ROLLBACK would fail and its error would
 * replace the one that says what happened (a full disk's 507 storage_full).
 */
import type SQLite from "better-sqlite3";
import {
  type CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SelectQueryNode,
  SqliteDialect,
  SqliteDriver,
} from "kysely";
import type { WalFlush } from "./wal-flush.js";

/**
 * What a statement may write. An INSERT, UPDATE or DELETE that changed no row (a claim that found
 * no due job, say) dirtied no page, so its commit appends nothing to the log and owes no flush:
 * the idle polls of the workers cost no `fdatasync`. BEGIN, COMMIT and the like write nothing of
 * their own: a transaction owes a flush if a statement in it changed a row.
 */
function statementKind(sql: string): "rows" | "control" | "other" {
  const word = /^\s*(\w+)/.exec(sql)?.[1]?.toLowerCase();
  if (word === "insert" || word === "update" || word === "delete" || word === "replace" || word === "with")
    return "rows";
  if (
    word === "begin" ||
    word === "commit" ||
    word === "end" ||
    word === "rollback" ||
    word === "savepoint" ||
    word === "release"
  )
    return "control";
  return "other";
}

/** The one connection, noting whether what it committed still needs its flush. */
class FlushTrackingConnection implements DatabaseConnection {
  /** A statement that may write ran in the transaction (or alone) not yet ended. */
  private wrote = false;
  /** Committed writes not flushed yet. */
  flushOwed = false;

  constructor(
    private readonly database: SQLite.Database,
    private readonly wal: WalFlush,
  ) {}

  executeQuery<R>(compiledQuery: CompiledQuery): Promise<QueryResult<R>> {
    const { sql, parameters } = compiledQuery;
    const statement = this.database.prepare(sql);
    const kind = statement.readonly ? "read" : statementKind(sql);
    if (kind !== "read") {
      // After a failed flush, a write would commit and never be known durable: none is taken.
      const failure = this.wal.failure();
      if (failure) throw failure;
      // Schema changes and pragmas write whatever they report.
      if (kind === "other") this.wrote = true;
    }
    try {
      if (statement.reader) {
        const rows = statement.all(parameters) as R[];
        // An INSERT, UPDATE or DELETE … RETURNING changed as many rows as it returned.
        if (kind === "rows" && rows.length > 0) this.wrote = true;
        return Promise.resolve({ rows });
      }
      const { changes, lastInsertRowid } = statement.run(parameters);
      if (kind === "rows" && changes > 0) this.wrote = true;
      return Promise.resolve({
        numAffectedRows: BigInt(changes),
        insertId: BigInt(lastInsertRowid),
        rows: [],
      });
    } finally {
      // Outside a transaction a write commits by itself; a COMMIT ends the transaction.
      if (this.wrote && !this.database.inTransaction) {
        this.wrote = false;
        this.flushOwed = true;
      }
    }
  }

  /** A rolled-back transaction left nothing to flush. */
  forgetWrites(): void {
    this.wrote = false;
  }

  async *streamQuery<R>(compiledQuery: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    const { sql, parameters, query } = compiledQuery;
    if (!SelectQueryNode.is(query))
      throw new Error("Sqlite driver only supports streaming of select queries");
    for (const row of this.database.prepare(sql).iterate(parameters)) yield { rows: [row as R] };
  }
}

class DurableSqliteDriver extends SqliteDriver {
  private readonly connection: FlushTrackingConnection;
  /** Commits that wrote, made on the connection so far. */
  private committed = 0;
  /** How many of them are known to be on stable storage. */
  private durable = 0;
  /** A flush is under way. */
  private flushing = false;
  /** Holders that released the connection, each until its first `upTo` commits are flushed. */
  private waiting: { upTo: number; resolve: () => void; reject: (error: unknown) => void }[] = [];

  constructor(
    private readonly database: SQLite.Database,
    private readonly wal: WalFlush,
  ) {
    super({ database });
    this.connection = new FlushTrackingConnection(database, wal);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    await super.acquireConnection();
    return this.connection;
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    this.connection.forgetWrites();
    if (!this.database.inTransaction) return;
    await super.rollbackTransaction(connection);
  }

  /**
   * Lets the next holder in at once, and resolves once every commit made so far (the holder's
   * own, and any it could have read) is on stable storage: the flush of one holder's commit runs
   * while the next ones use the connection, and their commits go in the flush after it (group
   * commit). A holder that only read waits too, when a commit it could have seen is not flushed
   * yet: nothing leaves the store that a power cut could still take away.
   */
  override async releaseConnection(): Promise<void> {
    const wrote = this.connection.flushOwed;
    if (wrote) {
      this.connection.flushOwed = false;
      this.committed++;
    }
    const upTo = this.committed;
    await super.releaseConnection();
    if (this.durable < upTo) await this.durableUpTo(upTo, wrote);
  }

  /**
   * Resolves once the first `upTo` commits are flushed. If the flush fails, a holder that wrote
   * gets its error; one that only read gets what it read, as every read after a failed flush
   * does (no write is taken after it: `executeQuery`).
   */
  private durableUpTo(upTo: number, wrote: boolean): Promise<void> {
    return new Promise((resolve, reject) => {
      this.waiting.push({ upTo, resolve, reject: wrote ? reject : () => resolve() });
      this.flushNext();
    });
  }

  /**
   * Starts a flush of everything committed so far unless one is under way; when it ends, starts
   * the next if anyone waits for a commit made while it ran (which it may not have covered).
   */
  private flushNext(): void {
    if (this.flushing || this.waiting.length === 0) return;
    this.flushing = true;
    const target = this.committed;
    // Called in a promise, so that one thrown before the flush starts (the log's file could not be
    // opened) fails its waiters as a failed flush does, and the next flush is still started.
    Promise.resolve()
      .then(() => this.wal.flush())
      .then(
        () => {
          this.durable = Math.max(this.durable, target);
          const settled = this.waiting.filter((waiter) => waiter.upTo <= target);
          this.waiting = this.waiting.filter((waiter) => waiter.upTo > target);
          for (const waiter of settled) waiter.resolve();
        },
        (error: unknown) => {
          // A failed fdatasync fails every later flush (wal-flush.ts) and no write follows it:
          // nothing is left to wait for. Any other failure (the log could not be opened) leaves
          // the commits owed, for the next flush to try again.
          if (this.wal.failure()) this.durable = this.committed;
          const failed = this.waiting;
          this.waiting = [];
          for (const waiter of failed) waiter.reject(error);
        },
      )
      .finally(() => {
        this.flushing = false;
        this.flushNext();
      });
  }

  override async destroy(): Promise<void> {
    await super.destroy();
    await this.wal.close();
  }
}

export class EmbeddedSqliteDialect extends SqliteDialect {
  constructor(
    private readonly database: SQLite.Database,
    private readonly wal: WalFlush,
  ) {
    super({ database });
  }

  override createDriver(): Driver {
    return new DurableSqliteDriver(this.database, this.wal);
  }
}

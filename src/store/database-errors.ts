/**
 * What a database driver's error says about the database rather than about the query: it cannot
 * be reached right now (a restart, a network cut, a lock held too long), or its disk is full. The
 * drivers (better-sqlite3, pg) report these with codes, and pg reports a dropped connection with a
 * bare message; this is the one place that knows them, so the HTTP layer and the workers need not.
 */

/** `unavailable`: try again shortly. `storage_full`: nothing new can be written until space is freed. */
export type DatabaseFailure = "unavailable" | "storage_full";

const UNAVAILABLE_CODES = new Set([
  // Node's socket errors, from pg's connection.
  "ECONNREFUSED",
  "ECONNRESET",
  "ETIMEDOUT",
  "EPIPE",
  "EHOSTUNREACH",
  "ENETUNREACH",
  "ENOTFOUND",
  "EAI_AGAIN",
  // PostgreSQL SQLSTATEs: admin_shutdown, crash_shutdown, cannot_connect_now (starting or
  // stopping), too_many_connections, and class 08 (connection exceptions).
  "57P01",
  "57P02",
  "57P03",
  "53300",
  "08000",
  "08001",
  "08003",
  "08004",
  "08006",
  // SQLite: another connection holds the lock past busy_timeout.
  "SQLITE_BUSY",
]);

/**
 * PostgreSQL disk_full (53100) and SQLite's SQLITE_FULL. ENOSPC comes from the file writes the
 * server makes beside the database in the data directory (compiled bundles, the package cache).
 */
const STORAGE_FULL_CODES = new Set(["53100", "SQLITE_FULL", "ENOSPC"]);

/** pg rejects queries on a connection that dropped with plain Errors that carry no code. */
const DROPPED_CONNECTION_MESSAGES = [
  "Connection terminated",
  "Client has encountered a connection error and is not queryable",
  "timeout exceeded when trying to connect",
  "Client was closed and is not queryable",
];

/** Classifies a driver error; undefined when it is about the query (or not a database error at all). */
export function databaseFailure(error: unknown): DatabaseFailure | undefined {
  if (!(error instanceof Error)) return undefined;
  const code = String((error as { code?: unknown }).code ?? "");
  if (STORAGE_FULL_CODES.has(code)) return "storage_full";
  // SQLite's extended I/O codes (SQLITE_IOERR_WRITE, SQLITE_IOERR_FSYNC, …): the disk failed the write.
  if (UNAVAILABLE_CODES.has(code) || code.startsWith("SQLITE_IOERR")) return "unavailable";
  if (code === "" && DROPPED_CONNECTION_MESSAGES.some((text) => error.message.startsWith(text))) {
    return "unavailable";
  }
  return undefined;
}

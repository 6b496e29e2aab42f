/**
 * The flush that makes an SQLite commit durable, done off the event loop. SQLite runs with
 * `synchronous=NORMAL` (its commit writes the log but does not flush it), and the driver calls
 * `flush()` after every commit before anyone hears of it: `fdatasync` of the write-ahead log on
 * libuv's thread pool, so the server goes on parsing requests and talking to runners while the
 * disk works. What `synchronous=FULL` gives (a commit is on stable storage before it is
 * reported) holds, without a blocked event loop.
 */
import fs from "node:fs";
import path from "node:path";

export interface WalFlush {
  /** Resolves once everything written to the log so far is on stable storage. */
  flush(): Promise<void>;
  /** The failed flush that ended writing, if one failed: no write may follow it. */
  failure(): WalFlushError | undefined;
  /** Closes the log's file once the flush under way (if any) is done. */
  close(): Promise<void>;
}

/** Thrown when the flush fails: what was committed may not be durable. */
export class WalFlushError extends Error {
  readonly code: string;

  constructor(cause: NodeJS.ErrnoException) {
    super(
      `The database's write-ahead log could not be flushed to disk (${cause.code ?? cause.message}); committed data may not be durable. Check the disk, then restart the server`,
      { cause },
    );
    this.name = "WalFlushError";
    // The codes database-errors.ts knows: a full disk, else a failed disk write.
    this.code = cause.code === "ENOSPC" ? "SQLITE_FULL" : "SQLITE_IOERR_FSYNC";
  }
}

export function walFlush(databaseFile: string): WalFlush {
  const walFile = `${databaseFile}-wal`;
  let fd: number | undefined;
  // After a failed fdatasync the kernel may have dropped the dirty pages and cleared the error:
  // a later flush would succeed without the data on disk. So one failure fails every later flush.
  let failed: WalFlushError | undefined;
  let pending: Promise<void> | undefined;

  /** The log's descriptor; undefined while there is no log file (nothing was ever written to it). */
  const open = (): number | undefined => {
    let opened: number;
    try {
      opened = fs.openSync(walFile, "r");
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
      throw error;
    }
    // The log file is new to the directory: its entry must be durable too (SQLite's own
    // synchronous=FULL syncs the directory at the log's first flush).
    const directory = fs.openSync(path.dirname(walFile), "r");
    try {
      fs.fsyncSync(directory);
    } finally {
      fs.closeSync(directory);
    }
    return opened;
  };

  return {
    flush() {
      if (failed) return Promise.reject(failed);
      fd ??= open();
      if (fd === undefined) return Promise.resolve();
      const target = fd;
      const flushed = new Promise<void>((resolve, reject) => {
        fs.fdatasync(target, (error) => {
          if (!error) return resolve();
          failed = new WalFlushError(error);
          reject(failed);
        });
      });
      pending = flushed.catch(() => {});
      return flushed;
    },
    failure: () => failed,
    async close() {
      await pending;
      if (fd !== undefined) fs.closeSync(fd);
      fd = undefined;
    },
  };
}

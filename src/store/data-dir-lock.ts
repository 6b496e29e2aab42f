/**
 * Embedded mode is one server process per data directory: a second process on the same SQLite
 * file would not see the first one's in-process wake-ups. The lock is a pid file; a file left by a
 * process that no longer runs (after a crash or SIGKILL) is taken over.
 */
import fs from "node:fs";
import path from "node:path";
import { ConfigError, ENV } from "../config/env.js";

export const PID_FILE = "server.pid";

/** Opens within this process share the lock; it is released when the last one closes. */
const holders = new Map<string, number>();

export function lockDataDir(dataDir: string): () => void {
  const file = path.join(dataDir, PID_FILE);
  const held = holders.get(file) ?? 0;
  if (held === 0) acquire(file);
  holders.set(file, held + 1);
  let released = false;
  return () => {
    if (released) return;
    released = true;
    const remaining = (holders.get(file) ?? 1) - 1;
    if (remaining > 0) {
      holders.set(file, remaining);
      return;
    }
    holders.delete(file);
    if (readPid(file) === process.pid) fs.rmSync(file, { force: true });
  };
}

function acquire(file: string): void {
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      fs.writeFileSync(file, `${process.pid}\n`, { flag: "wx" });
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
    }
    const owner = readPid(file);
    if (owner !== undefined && owner !== process.pid && isRunning(owner)) {
      throw new ConfigError(
        `Another Sluice server (pid ${owner}) is using the data directory ${path.dirname(file)}. ` +
          `The embedded SQLite mode runs one process; stop it, choose another ${ENV.dataDir}, ` +
          `or set ${ENV.databaseUrl} to run several nodes on PostgreSQL.`,
      );
    }
    fs.rmSync(file, { force: true });
  }
  throw new ConfigError(`Could not take the lock file ${file}; remove it if no Sluice server is running`);
}

function readPid(file: string): number | undefined {
  try {
    const pid = Number.parseInt(fs.readFileSync(file, "utf8"), 10);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

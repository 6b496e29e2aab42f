/**
 * Which build of better-sqlite3 opens the embedded database. better-sqlite3 12 wraps its objects in
 * Node's C++ `node::ObjectWrap`; on Node 24 that class removes an environment cleanup hook when
 * the garbage collector finalizes a statement, at a moment when Node has no current environment,
 * and Node aborts the process (`Assertion failed: (env) != nullptr`). better-sqlite3 13 is built
 * on Node-API instead and has no such hook, but it needs Node 22 or later (on Node 20 it crashes).
 *
 * Both are installed from the one lock file: `better-sqlite3` (12, compiled from source on
 * install) and `better-sqlite3-13` (an npm alias; Node-API binaries ship inside its package). The
 * choice follows what each package declares it supports (`engines`), not a reading of the version
 * by hand. See docs/architecture.md, "The embedded database's driver".
 */
import { createRequire } from "node:module";
import type SQLite from "better-sqlite3";
import semver from "semver";

const require = createRequire(import.meta.url);

export interface SqliteDriver {
  /** The package loaded: "better-sqlite3@13.2.0". */
  readonly name: string;
  readonly Database: typeof SQLite;
}

const CANDIDATES = ["better-sqlite3-13", "better-sqlite3"] as const;

let chosen: SqliteDriver | undefined;

/** The first installed driver whose `engines` include this Node. */
export function sqliteDriver(): SqliteDriver {
  chosen ??= choose();
  return chosen;
}

interface Manifest {
  readonly version: string;
  readonly engines?: { readonly node?: string };
}

/** The package's manifest; undefined when it is not installed (an older node_modules may lack one). */
function manifestOf(name: string): Manifest | undefined {
  try {
    return require(`${name}/package.json`) as Manifest;
  } catch (error) {
    if ((error as { code?: unknown }).code === "MODULE_NOT_FOUND") return undefined;
    throw error;
  }
}

function choose(): SqliteDriver {
  for (const name of CANDIDATES) {
    const manifest = manifestOf(name);
    if (manifest === undefined) continue;
    const range = manifest.engines?.node;
    if (range !== undefined && !semver.satisfies(process.versions.node, range)) continue;
    return { name: `better-sqlite3@${manifest.version}`, Database: require(name) as typeof SQLite };
  }
  throw new Error(`no build of better-sqlite3 supports Node.js ${process.version}`);
}

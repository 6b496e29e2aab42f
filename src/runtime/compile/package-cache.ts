/**
 * The shared package cache: each exact package version is installed once, with its dependencies,
 * into `<root>/<name>@<version>/node_modules/`. An install runs in `<root>/.tmp/` and is renamed
 * into place, so a directory that exists is complete (a crash leaves only a temp directory, swept
 * later) and a race between processes ends with one winner. Within a process, concurrent requests
 * for the same version share one install.
 */

import fs from "node:fs/promises";
import path from "node:path";

export interface InstallEvent {
  readonly name: string;
  readonly version: string;
  readonly durationMs: number;
}

export interface PackageCacheOptions {
  /** The cache's directory (`<dataDir>/packages`). */
  readonly root: string;
  /** Installs `name@version` and its dependencies into `<prefix>/node_modules`. */
  readonly install: (prefix: string, name: string, version: string) => Promise<void>;
  /** Told after each install this process ran (not when the version was already cached). */
  readonly onInstall?: (event: InstallEvent) => void;
}

const TEMP_DIR = ".tmp";
const STALE_TEMP_MS = 60 * 60 * 1000;

export class PackageCache {
  readonly #options: PackageCacheOptions;
  readonly #installing = new Map<string, Promise<string>>();
  #swept: Promise<void> | undefined;

  constructor(options: PackageCacheOptions) {
    this.#options = options;
  }

  /** The directory `name@version` is (or will be) installed in. */
  dirFor(name: string, version: string): string {
    return path.join(this.#options.root, `${name}@${version}`);
  }

  async has(name: string, version: string): Promise<boolean> {
    return exists(this.dirFor(name, version));
  }

  /** Installs `name@version` unless it is cached; resolves to its directory. */
  ensure(name: string, version: string): Promise<string> {
    const key = `${name}@${version}`;
    const pending = this.#installing.get(key);
    if (pending !== undefined) return pending;
    const install = this.#ensure(name, version).finally(() => this.#installing.delete(key));
    this.#installing.set(key, install);
    return install;
  }

  async #ensure(name: string, version: string): Promise<string> {
    const target = this.dirFor(name, version);
    if (await exists(target)) return target;
    const tempRoot = path.join(this.#options.root, TEMP_DIR);
    await fs.mkdir(tempRoot, { recursive: true });
    // Best effort: a temp directory that cannot be swept now is retried by the next process.
    this.#swept ??= sweepStaleTemps(tempRoot).catch(() => undefined);
    await this.#swept;
    const temp = await fs.mkdtemp(path.join(tempRoot, `${name.replace("/", "+")}@${version}-`));
    try {
      const started = Date.now();
      await this.#options.install(temp, name, version);
      await checkInstalled(temp, name, version);
      this.#options.onInstall?.({ name, version, durationMs: Date.now() - started });
      await fs.mkdir(path.dirname(target), { recursive: true });
      await renameUnlessExists(temp, target);
      return target;
    } finally {
      await fs.rm(temp, { recursive: true, force: true });
    }
  }
}

async function checkInstalled(prefix: string, name: string, version: string): Promise<void> {
  const manifestPath = path.join(prefix, "node_modules", name, "package.json");
  const manifest: { version?: unknown } = JSON.parse(await fs.readFile(manifestPath, "utf8"));
  if (manifest.version !== version) {
    throw new Error(
      `npm installed ${name}@${String(manifest.version)} when ${name}@${version} was asked for`,
    );
  }
}

/** When another process installed the same version first, its copy is kept and ours dropped. */
async function renameUnlessExists(from: string, to: string): Promise<void> {
  try {
    await fs.rename(from, to);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if ((code === "ENOTEMPTY" || code === "EEXIST") && (await exists(to))) return;
    throw error;
  }
}

async function sweepStaleTemps(tempRoot: string): Promise<void> {
  const now = Date.now();
  for (const entry of await fs.readdir(tempRoot)) {
    const entryPath = path.join(tempRoot, entry);
    const stat = await fs.stat(entryPath).catch(() => undefined);
    if (stat !== undefined && now - stat.mtimeMs > STALE_TEMP_MS) {
      await fs.rm(entryPath, { recursive: true, force: true });
    }
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

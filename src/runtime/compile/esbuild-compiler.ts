/**
 * The Compiler built on esbuild and npm: scan the component's imports, choose a version for each
 * package (lock, cache, registry), install what is missing into the shared package cache under the
 * data directory, bundle, and hash.
 */

import { createHash } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { bundleComponent } from "./bundle.js";
import type { CompiledComponent, CompileRequest, Compiler } from "./compiler.js";
import { scanComponent } from "./import-scan.js";
import { type NpmSettings, readNpmSettings } from "./npm-config.js";
import { npmInstall } from "./npm-install.js";
import { type InstallEvent, PackageCache } from "./package-cache.js";
import { createRegistryResolver } from "./registry.js";
import { planVersions } from "./version-plan.js";

export type { InstallEvent } from "./package-cache.js";

export interface CompilerOptions {
  /** Sluice's data directory; packages are cached in `<dataDir>/packages`. */
  readonly dataDir: string;
  /** npm registry URL; by default the one npm on this machine is configured with. */
  readonly registry?: string;
  /** The npm CLI to run (default `npm` from PATH). */
  readonly npmCommand?: string;
  /** Longest one package install may take (default 5 minutes). */
  readonly installTimeoutMs?: number;
  /** Told after each npm install this process runs (for logs and tests). */
  readonly onInstall?: (event: InstallEvent) => void;
}

const DEFAULT_INSTALL_TIMEOUT_MS = 5 * 60 * 1000;

/** A Compiler whose package cache lives under `options.dataDir`. npm is consulted only when needed. */
export function createCompiler(options: CompilerOptions): Compiler {
  const npmCommand = options.npmCommand ?? "npm";
  const packagesRoot = path.join(options.dataDir, "packages");
  let settings: Promise<NpmSettings> | undefined;
  const npmSettings = (): Promise<NpmSettings> => {
    settings ??= readNpmSettings(npmCommand).then(
      (read) => (options.registry === undefined ? read : { ...read, registry: options.registry }),
      (error: unknown) => {
        settings = undefined; // read again by the next compile
        throw error;
      },
    );
    return settings;
  };
  const resolver = createRegistryResolver(npmSettings);
  const cache = new PackageCache({
    root: packagesRoot,
    install: async (prefix, name, version) =>
      npmInstall({
        npmCommand,
        registry: (await npmSettings()).registry,
        prefix,
        name,
        version,
        timeoutMs: options.installTimeoutMs ?? DEFAULT_INSTALL_TIMEOUT_MS,
      }),
    ...(options.onInstall === undefined ? {} : { onInstall: options.onInstall }),
  });
  let packagesDir: Promise<string> | undefined;
  const realPackagesDir = (): Promise<string> => {
    packagesDir ??= fs.mkdir(packagesRoot, { recursive: true }).then(() => fs.realpath(packagesRoot));
    return packagesDir;
  };

  return {
    async compile(request: CompileRequest): Promise<CompiledComponent> {
      const scanned = await scanComponent(request.code, request.filename);
      const versions = await planVersions({
        specifiers: scanned.npmImports,
        lock: request.lock,
        resolver,
        isCached: (name, version) => cache.has(name, version),
      });
      const installDirs = new Map(
        await Promise.all(
          [...versions].map(async ([name, version]) => [name, await cache.ensure(name, version)] as const),
        ),
      );
      const bundle = await bundleComponent({
        code: request.code,
        scanned,
        packagesDir: await realPackagesDir(),
        installDirs,
      });
      const lock = Object.fromEntries([...versions].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      return { codeHash: sha256(request.code), bundleHash: sha256(bundle), bundle, lock };
    },
  };
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

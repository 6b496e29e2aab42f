/**
 * The Compiler built on esbuild and npm: scan the component's imports, choose a version for each
 * package (lock, cache, registry), install what is missing into the shared package cache under the
 * data directory, bundle (packages stay imports, checked to resolve), and hash.
 */

import { createHash } from "node:crypto";
import { bundleComponent } from "./bundle.js";
import type { CompiledComponent, CompileRequest, Compiler } from "./compiler.js";
import { scanComponent } from "./import-scan.js";
import { createNpmPackages, type NpmPackages, type NpmPackagesOptions } from "./npm-packages.js";
import { planVersions } from "./version-plan.js";

export type { InstallEvent } from "./package-cache.js";

export interface CompilerOptions extends NpmPackagesOptions {
  /** The registry and package cache to use, shared with the sandbox; made from the options when absent. */
  readonly packages?: NpmPackages;
}

/** A Compiler whose package cache lives under `options.dataDir`. npm is consulted only when needed. */
export function createCompiler(options: CompilerOptions): Compiler {
  const { cache, resolver } = options.packages ?? createNpmPackages(options);
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
      const lock = Object.fromEntries([...versions].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
      const bundle = await bundleComponent({ code: request.code, scanned, lock, installDirs });
      return { codeHash: sha256(request.code), bundleHash: sha256(bundle), bundle, lock };
    },
  };
}

function sha256(text: string): string {
  return createHash("sha256").update(text, "utf8").digest("hex");
}

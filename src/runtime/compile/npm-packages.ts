/**
 * The npm side of a node: version look-ups in the registry and the shared package cache under the
 * data directory, both configured like the npm CLI on this machine. The compiler resolves and
 * installs through it; the sandbox installs through it what a bundle compiled on another node
 * imports.
 */

import path from "node:path";
import pacote from "pacote";
import { CompileError } from "./compiler.js";
import { type NpmSettings, readNpmSettings } from "./npm-config.js";
import { npmInstall } from "./npm-install.js";
import { type InstallEvent, PackageCache } from "./package-cache.js";
import { createRegistryResolver, type VersionResolver } from "./registry.js";
import { parseNpmSpecifier } from "./specifier.js";

export interface NpmPackagesOptions {
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

export interface NpmPackages {
  readonly cache: PackageCache;
  readonly resolver: VersionResolver;
  /**
   * Unpacks the package an npm spec names (`@scope/name@1.2.3`, `name@^1`, `name`) into `dest`.
   * A spec the registry does not have is a CompileError('unknown_package'); a registry that cannot
   * be reached, a plain Error.
   */
  extract(spec: string, dest: string): Promise<void>;
}

const DEFAULT_INSTALL_TIMEOUT_MS = 5 * 60 * 1000;

/** The registry and the cache of `options.dataDir`. npm is consulted only when needed. */
export function createNpmPackages(options: NpmPackagesOptions): NpmPackages {
  const npmCommand = options.npmCommand ?? "npm";
  let settings: Promise<NpmSettings> | undefined;
  const npmSettings = (): Promise<NpmSettings> => {
    settings ??= readNpmSettings(npmCommand).then(
      (read) => (options.registry === undefined ? read : { ...read, registry: options.registry }),
      (error: unknown) => {
        settings = undefined; // read again by the next call
        throw error;
      },
    );
    return settings;
  };
  const cache = new PackageCache({
    root: path.join(options.dataDir, "packages"),
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
  return {
    cache,
    resolver: createRegistryResolver(npmSettings),
    async extract(spec, dest) {
      // Registry packages only: no file:, git or URL specs, which would read other sources.
      const parsed = parseNpmSpecifier(spec);
      if (parsed.subpath !== undefined) {
        throw new CompileError(
          "invalid_specifier",
          `'${spec}' is not a package: give name@version, without a path`,
        );
      }
      const settings = await npmSettings();
      try {
        await pacote.extract(`${parsed.name}@${parsed.range ?? "latest"}`, dest, { ...settings });
      } catch (error) {
        const code = (error as { code?: unknown }).code;
        if (
          code === "E404" ||
          code === "ETARGET" ||
          code === "EINVALIDTAGNAME" ||
          code === "EINVALIDPACKAGENAME"
        ) {
          throw new CompileError(
            "unknown_package",
            `The npm registry (${settings.registry}) has no package '${spec}' (${String(code)}): check its name and version.`,
          );
        }
        throw new Error(
          `Fetching ${spec} from the npm registry (${settings.registry}) failed: ${(error as Error).message}`,
          {
            cause: error,
          },
        );
      }
    },
  };
}

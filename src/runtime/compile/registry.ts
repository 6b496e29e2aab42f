/**
 * Version look-ups in the npm registry: a range or tag becomes one exact version, chosen the way
 * `npm install` chooses it (pacote: the `latest` tag when it satisfies the range, else the highest
 * match). A user's mistake (no such package, no matching version) is a CompileError; a registry
 * that cannot be reached is a plain Error, because nothing in the code can fix it.
 */

import pacote from "pacote";
import { CompileError } from "./compiler.js";
import type { NpmSettings } from "./npm-config.js";

export interface VersionResolver {
  /** The exact version `name@range` resolves to today; `range` undefined means the latest. */
  resolve(name: string, range: string | undefined): Promise<string>;
}

interface NpmError {
  readonly code?: unknown;
  readonly message?: unknown;
}

export function createRegistryResolver(settings: () => Promise<NpmSettings>): VersionResolver {
  return {
    async resolve(name, range) {
      const options = { ...(await settings()), fullMetadata: false };
      const spec = range === undefined ? name : `${name}@${range}`;
      try {
        return (await pacote.manifest(spec, options)).version;
      } catch (error) {
        const code = (error as NpmError).code;
        if (code === "E404") {
          throw new CompileError(
            "unknown_package",
            `The package '${name}' does not exist in the npm registry (${options.registry}): check its name.`,
          );
        }
        if (code === "ETARGET") {
          const latest = await latestVersion(name, options).catch(() => undefined);
          throw new CompileError(
            "unsatisfiable_version",
            `No version of '${name}' matches '${range ?? "latest"}'` +
              (latest === undefined ? "." : `; the latest version is ${latest}.`),
          );
        }
        if (code === "EINVALIDTAGNAME" || code === "EINVALIDPACKAGENAME") {
          throw new CompileError(
            "invalid_specifier",
            `'${spec}' is not a valid npm import: ${describe(error)}`,
          );
        }
        throw new Error(
          `Looking up ${spec} in the npm registry (${options.registry}) failed: ${describe(error)}`,
          {
            cause: error,
          },
        );
      }
    },
  };
}

async function latestVersion(name: string, options: NpmSettings): Promise<string | undefined> {
  const packument = await pacote.packument(name, { ...options, fullMetadata: false });
  return packument["dist-tags"].latest;
}

function describe(error: unknown): string {
  const message = (error as NpmError).message;
  return typeof message === "string" ? message : String(error);
}

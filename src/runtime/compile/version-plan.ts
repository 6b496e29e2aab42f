/**
 * Chooses one exact version for each npm package a component imports: the lock's when it has one
 * that fits, else what the registry resolves. A package imported several times (`lodash` and
 * `lodash@4.17.20/fp`) gets one version that every one of its ranges accepts; when there is none,
 * the compile fails with 'unsatisfiable_version' rather than bundling two copies.
 */

import semver from "semver";
import { CompileError } from "./compiler.js";
import type { VersionResolver } from "./registry.js";
import { exactVersion, type NpmSpecifier } from "./specifier.js";

export interface VersionPlanRequest {
  readonly specifiers: readonly NpmSpecifier[];
  readonly lock: Readonly<Record<string, string>> | undefined;
  readonly resolver: VersionResolver;
  /** True when `name@version` is already installed: an exact version then needs no look-up. */
  readonly isCached: (name: string, version: string) => Promise<boolean>;
}

/**
 * Resolves to package name → exact version. A lock entry is used as it is (no registry look-up)
 * unless the code now asks for a range it does not satisfy; then the package is resolved anew.
 */
export async function planVersions(request: VersionPlanRequest): Promise<Map<string, string>> {
  const byName = new Map<string, NpmSpecifier[]>();
  for (const specifier of request.specifiers) {
    const group = byName.get(specifier.name) ?? [];
    group.push(specifier);
    byName.set(specifier.name, group);
  }
  const planned = await Promise.all(
    [...byName].map(
      async ([name, specifiers]) => [name, await planPackage(name, specifiers, request)] as const,
    ),
  );
  return new Map(planned);
}

async function planPackage(
  name: string,
  specifiers: readonly NpmSpecifier[],
  request: VersionPlanRequest,
): Promise<string> {
  const ranges = [...new Set(specifiers.map((specifier) => specifier.range))];
  const locked = lockedVersion(name, request.lock);
  if (locked !== undefined && ranges.every((range) => range === undefined || acceptsLocked(range, locked))) {
    return locked;
  }
  const resolved = await Promise.all(
    ranges.map(async (range) => {
      const exact = exactVersion(range);
      const version =
        exact !== undefined && (await request.isCached(name, exact))
          ? exact
          : await request.resolver.resolve(name, range);
      return { range, version };
    }),
  );
  const candidates = [...new Set(resolved.map((entry) => entry.version))].sort(semver.rcompare);
  const chosen = candidates.find((candidate) =>
    resolved.every((entry) => acceptsCandidate(entry.range, entry.version, candidate)),
  );
  if (chosen !== undefined) return chosen;
  const listing = resolved.map((entry) => `'${describe(name, entry.range)}' resolves to ${entry.version}`);
  throw new CompileError(
    "unsatisfiable_version",
    `The component imports ${name} at versions that cannot be used together: ${listing.join(", ")}. ` +
      `Import ${name} with one version range everywhere.`,
  );
}

function lockedVersion(name: string, lock: Readonly<Record<string, string>> | undefined): string | undefined {
  const locked = lock?.[name];
  if (locked === undefined) return undefined;
  const version = semver.valid(locked);
  if (version === null) {
    throw new CompileError(
      "invalid_specifier",
      `The lock gives ${name} '${locked}', which is not an exact version.`,
    );
  }
  return version;
}

/** A dist-tag cannot be checked offline: the lock recorded what it resolved to. */
function acceptsLocked(range: string, locked: string): boolean {
  return semver.validRange(range) === null || semver.satisfies(locked, range);
}

/** Whether `candidate` may stand in for what `range` resolved to. */
function acceptsCandidate(range: string | undefined, resolved: string, candidate: string): boolean {
  if (range === undefined) return true;
  if (semver.validRange(range) === null) return candidate === resolved;
  return semver.satisfies(candidate, range);
}

function describe(name: string, range: string | undefined): string {
  return range === undefined ? name : `${name}@${range}`;
}

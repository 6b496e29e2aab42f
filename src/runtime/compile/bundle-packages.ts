/**
 * The npm packages a bundle imports, as its first line: `// sluice-packages {"lodash":"4.17.21"}`.
 * The versions in the bundle make its hash cover the lock, keep it free of what differs between
 * nodes, and let a node that has only the bundle link its packages (sandbox/artifacts.ts).
 */

import semver from "semver";
import { parseNpmSpecifier } from "./specifier.js";

const PREFIX = "// sluice-packages ";

/** The header line (with its newline) for `lock`, whose keys are sorted by the caller. */
export function packagesHeader(lock: Readonly<Record<string, string>>): string {
  return `${PREFIX}${JSON.stringify(lock)}\n`;
}

/**
 * The packages named in the bundle's header: name → exact version; empty for a bundle without
 * one (compiled before packages ran from the cache, with everything inlined). Throws on a header
 * whose names or versions are not valid, so nothing from it can name a path outside the cache.
 */
export function bundlePackages(bundle: string): Record<string, string> {
  if (!bundle.startsWith(PREFIX)) return {};
  const end = bundle.indexOf("\n");
  const parsed: unknown = JSON.parse(bundle.slice(PREFIX.length, end < 0 ? undefined : end));
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new Error("the bundle's package header is not an object");
  }
  const packages: Record<string, string> = {};
  for (const [name, version] of Object.entries(parsed)) {
    const specifier = parseNpmSpecifier(name);
    if (specifier.name !== name || typeof version !== "string" || semver.valid(version) !== version) {
      throw new Error(`the bundle's package header has an invalid entry: ${name}@${String(version)}`);
    }
    packages[name] = version;
  }
  return packages;
}

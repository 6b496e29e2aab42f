/**
 * Import specifiers as a component writes them. Owns the grammar of npm specifiers without a
 * manifest (`name`, `name@range`, `@scope/name@range/sub/path`) and the sorting of every import
 * into a Node built-in, a relative import, or an npm package.
 */

import { isBuiltin } from "node:module";
import semver from "semver";
import { CompileError } from "./compiler.js";

/** An npm import with its version range split off: `lodash@^4.17.0/fp`. */
export interface NpmSpecifier {
  /** The specifier as written in the component. */
  readonly text: string;
  /** Package name, with its scope: `lodash`, `@pipedream/platform`. */
  readonly name: string;
  /** The version, range or dist-tag after `@`; undefined when none was written (latest). */
  readonly range: string | undefined;
  /** The path inside the package, without a leading slash: `fp`, `dist/index.js`. */
  readonly subpath: string | undefined;
}

export type ComponentImport =
  | { readonly kind: "builtin" }
  | { readonly kind: "relative" }
  | { readonly kind: "npm"; readonly specifier: NpmSpecifier };

const MAX_NAME_LENGTH = 214;
// npm's rule for name parts: URL-safe, not starting with "." or "_". Upper case is accepted
// because the registry still serves older packages that have it (`JSONStream`).
const NAME_PART = /^[a-z0-9~-][a-z0-9._~-]*$/i;
const DIST_TAG = /^[a-z0-9][a-z0-9._-]*$/i;
const URL_SCHEME = /^[a-z][a-z0-9+.-]*:/i;
// name (optionally scoped), then @range up to the first slash, then the subpath.
const SPECIFIER = /^((?:@[^/@]*\/)?[^/@]*)(?:@([^/]*))?(?:\/(.*))?$/s;

/** Sorts an import of the component; throws CompileError('invalid_specifier') for unusable ones. */
export function classifyImport(text: string): ComponentImport {
  if (isBuiltin(text)) return { kind: "builtin" };
  if (text === "." || text === ".." || /^\.{0,2}\//.test(text)) return { kind: "relative" };
  if (URL_SCHEME.test(text)) {
    throw invalid(text, "URL and protocol imports are not supported; import an npm package by name");
  }
  if (text.startsWith("#")) {
    throw invalid(text, "subpath imports (#…) need a package.json; import an npm package by name");
  }
  return { kind: "npm", specifier: parseNpmSpecifier(text) };
}

/**
 * Parses `name[@range][/subpath]`. The range ends at the first `/` after the name, so
 * `lodash@4/fp` is lodash, range 4, subpath fp. Throws CompileError('invalid_specifier').
 */
export function parseNpmSpecifier(text: string): NpmSpecifier {
  const match = SPECIFIER.exec(text);
  const name = match?.[1];
  if (match === null || name === undefined)
    throw invalid(text, "it is not of the form name[@range][/subpath]");
  const problem = nameProblem(name) ?? rangeProblem(match[2]) ?? subpathProblem(match[3]);
  if (problem !== undefined) throw invalid(text, problem);
  return { text, name, range: match[2], subpath: match[3] };
}

/** The path to resolve inside the installed package: the name and the subpath, without the range. */
export function packageImportPath(specifier: NpmSpecifier): string {
  return specifier.subpath === undefined ? specifier.name : `${specifier.name}/${specifier.subpath}`;
}

/** The specifier's range when it is one exact version (`4.17.20`), normalised; otherwise undefined. */
export function exactVersion(range: string | undefined): string | undefined {
  return range === undefined ? undefined : (semver.valid(range) ?? undefined);
}

function nameProblem(name: string): string | undefined {
  if (name === "") return "the package name is empty";
  if (name.length > MAX_NAME_LENGTH) return `a package name has at most ${MAX_NAME_LENGTH} characters`;
  const parts = name.startsWith("@") ? name.slice(1).split("/") : [name];
  if (parts.some((part) => !NAME_PART.test(part))) {
    return `'${name}' is not a valid npm package name`;
  }
  return undefined;
}

function rangeProblem(range: string | undefined): string | undefined {
  if (range === undefined) return undefined;
  if (range === "") return "nothing follows '@': give a version, a range or a tag, or drop the '@'";
  if (semver.validRange(range) !== null || DIST_TAG.test(range)) return undefined;
  return `'${range}' is neither a version, a semver range nor a dist-tag`;
}

function subpathProblem(subpath: string | undefined): string | undefined {
  if (subpath === undefined) return undefined;
  const segments = subpath.split("/");
  if (segments.some((segment) => segment === "" || segment === "." || segment === "..")) {
    return `the subpath '${subpath}' must name a path inside the package (no empty, '.' or '..' parts)`;
  }
  return undefined;
}

function invalid(text: string, reason: string): CompileError {
  return new CompileError(
    "invalid_specifier",
    `'${text}' is not a valid npm import: ${reason}. Write name, name@version or name@range, ` +
      "optionally followed by /subpath (for example lodash@^4.17.0/fp).",
  );
}

/**
 * Turns a failed esbuild run into the error the compiler throws: a parse error in the submitted
 * file becomes a CompileError('syntax_error') with its 1-based position; a CompileError thrown by
 * one of our plugins passes through, placed at the import that caused it; any other error thrown
 * by a plugin (a registry that cannot be reached) is rethrown as it is.
 */

import type { BuildFailure, Message } from "esbuild";
import { CompileError, type CompileErrorCode } from "./compiler.js";

/** The file esbuild sees for the component, and the name users know it by. */
export interface EntryNames {
  /** `sourcefile` given to esbuild. */
  readonly entry: string;
  /** The submitted filename, or a description, for messages. */
  readonly displayName: string;
}

export function isBuildFailure(error: unknown): error is BuildFailure {
  return error instanceof Error && Array.isArray((error as Partial<BuildFailure>).errors);
}

/** True when esbuild failed before resolving imports: every error is its own, not a plugin's. */
export function isParseFailure(failure: BuildFailure): boolean {
  return failure.errors.length > 0 && failure.errors.every((message) => message.pluginName === "");
}

/** The position of the first error in the submitted file, for comparing two failed parses. */
export function firstErrorOffset(failure: BuildFailure, names: EntryNames): number {
  const location = failure.errors[0]?.location;
  if (location === null || location === undefined || location.file !== names.entry) return -1;
  return location.line * 1_000_000 + location.column;
}

/**
 * The error to throw for `failure`. `ownCode` is the code for esbuild's own errors:
 * 'syntax_error' while parsing the component, 'bundle_failed' while bundling it.
 */
export function errorFromBuildFailure(
  failure: BuildFailure,
  names: EntryNames,
  ownCode: Extract<CompileErrorCode, "syntax_error" | "bundle_failed">,
): Error {
  const [first] = failure.errors;
  if (first === undefined) return failure;
  const detail: unknown = first.detail;
  if (detail instanceof Error && !(detail instanceof CompileError)) return detail;
  const location = entryLocation(first, names);
  const more = failure.errors.length > 1 ? ` (and ${failure.errors.length - 1} more errors)` : "";
  if (detail instanceof CompileError) {
    const message =
      location === undefined
        ? detail.message
        : `${detail.message.replace(/\.$/, "")} (line ${location.line} of ${names.displayName}).`;
    return new CompileError(detail.code, message, detail.location ?? location);
  }
  if (ownCode === "syntax_error" && location !== undefined) {
    return new CompileError(
      "syntax_error",
      `Syntax error in ${names.displayName} at line ${location.line}, column ${location.column}: ${first.text}${more}`,
      location,
    );
  }
  const file = first.location === null ? "" : ` in ${first.location.file}:${first.location.line}`;
  return new CompileError(ownCode, `${first.text}${file}${more}`, location);
}

/**
 * Where `message` points in the submitted file, as a 1-based line and column in characters (UTF-16
 * units, as editors and JavaScript count). esbuild gives a 0-based column in UTF-8 bytes; for an
 * error thrown by a plugin, the import that triggered it is in a note.
 */
function entryLocation(message: Message, names: EntryNames): { line: number; column: number } | undefined {
  const candidates = [message.location, ...message.notes.map((note) => note.location)];
  const location = candidates.find((candidate) => candidate !== null && candidate.file === names.entry);
  if (location === undefined || location === null) return undefined;
  const before = Buffer.from(location.lineText, "utf8").subarray(0, location.column).toString("utf8");
  return { line: location.line, column: before.length + 1 };
}

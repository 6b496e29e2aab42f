/**
 * The first look at a submitted component: parse it (choosing JavaScript or TypeScript), refuse
 * relative and malformed imports, and list the npm specifiers it imports, before anything is
 * looked up or installed. Every import is left external here; nothing is read from disk.
 */

import { type BuildFailure, build, type Plugin } from "esbuild";
import { CompileError } from "./compiler.js";
import {
  type EntryNames,
  errorFromBuildFailure,
  firstErrorOffset,
  isBuildFailure,
  isParseFailure,
} from "./esbuild-messages.js";
import { classifyImport, type NpmSpecifier } from "./specifier.js";

export type ComponentLoader = "js" | "ts";

export interface ScannedComponent {
  readonly loader: ComponentLoader;
  readonly names: EntryNames;
  /** Each distinct npm specifier the component imports, in order of first appearance. */
  readonly npmImports: readonly NpmSpecifier[];
}

const TYPESCRIPT_FILE = /\.[cm]?ts$/i;

/** The `sourcefile` esbuild gets: neutral names, so syntax (not `.mjs`) decides ESM vs CommonJS. */
export function entryFileName(loader: ComponentLoader): string {
  return loader === "ts" ? "component.ts" : "component.js";
}

/**
 * Parses the component. A `.ts` filename selects TypeScript; otherwise JavaScript is tried first
 * and TypeScript when JavaScript does not parse. When neither parses, the error reported is the
 * one further into the file (a type annotation stops the JavaScript parse early).
 */
export async function scanComponent(code: string, filename: string | undefined): Promise<ScannedComponent> {
  if (filename !== undefined && TYPESCRIPT_FILE.test(filename)) {
    try {
      return await scanAs("ts", code, filename);
    } catch (error) {
      throw unwrap(error);
    }
  }
  let jsFailure: BuildFailure;
  try {
    return await scanAs("js", code, filename);
  } catch (error) {
    if (!(error instanceof ScanFailure) || !isParseFailure(error.failure)) throw unwrap(error);
    jsFailure = error.failure;
  }
  try {
    return await scanAs("ts", code, filename);
  } catch (error) {
    if (!(error instanceof ScanFailure) || !isParseFailure(error.failure)) throw unwrap(error);
    const js = namesFor("js", filename);
    const ts = namesFor("ts", filename);
    const tsWentFurther = firstErrorOffset(error.failure, ts) > firstErrorOffset(jsFailure, js);
    throw tsWentFurther
      ? errorFromBuildFailure(error.failure, ts, "syntax_error")
      : errorFromBuildFailure(jsFailure, js, "syntax_error");
  }
}

/** The error for a relative import, which only the CLI can bundle. */
export function relativeImportError(specifier: string): CompileError {
  return new CompileError(
    "relative_import",
    `'${specifier}' is a relative import: deploy with the CLI, which bundles relative imports, or inline it.`,
  );
}

/** A failed parse, kept whole until the loader is chosen. */
class ScanFailure extends Error {
  override readonly name = "ScanFailure";
  constructor(
    readonly failure: BuildFailure,
    readonly names: EntryNames,
  ) {
    super(failure.message);
  }
}

function unwrap(error: unknown): unknown {
  return error instanceof ScanFailure
    ? errorFromBuildFailure(error.failure, error.names, "syntax_error")
    : error;
}

async function scanAs(
  loader: ComponentLoader,
  code: string,
  filename: string | undefined,
): Promise<ScannedComponent> {
  const names = namesFor(loader, filename);
  const npmImports = new Map<string, NpmSpecifier>();
  const recordImports: Plugin = {
    name: "sluice-scan",
    setup(scan) {
      scan.onResolve({ filter: /.*/ }, (args) => {
        const found = classifyImport(args.path);
        if (found.kind === "relative") throw relativeImportError(args.path);
        if (found.kind === "npm" && !npmImports.has(args.path)) npmImports.set(args.path, found.specifier);
        return { path: args.path, external: true };
      });
    },
  };
  try {
    await build({
      stdin: { contents: code, loader, sourcefile: names.entry },
      bundle: true,
      write: false,
      format: "esm",
      platform: "node",
      target: "node20",
      tsconfigRaw: {},
      logLevel: "silent",
      plugins: [recordImports],
    });
  } catch (error) {
    if (isBuildFailure(error)) throw new ScanFailure(error, names);
    throw error;
  }
  return { loader, names, npmImports: [...npmImports.values()] };
}

function namesFor(loader: ComponentLoader, filename: string | undefined): EntryNames {
  return { entry: entryFileName(loader), displayName: filename ?? "the component" };
}

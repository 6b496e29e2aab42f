/**
 * Bundles one component file with its relative imports and leaves every bare specifier
 * (`axios`, `lodash@4.17.20`, `node:fs`) for the compiler, which installs and locks npm packages.
 * Run by `sluice deploy` on the user's machine and by the registry import on the server. A
 * CommonJS entry is bundled again as CommonJS, so its `require("pkg")` calls stay visible.
 */
import fs from "node:fs";
import { isBuiltin } from "node:module";
import path from "node:path";
import { type BuildFailure, build, type Metafile, type Plugin } from "esbuild";
import { isBuildFailure } from "./esbuild-messages.js";

export type BundleFormat = "esm" | "cjs";

export interface LocalBundle {
  readonly code: string;
  readonly format: BundleFormat;
  /** Absolute paths of the entry and every local module bundled with it. */
  readonly files: readonly string[];
  /** How many local modules besides the entry were bundled into `code`. */
  readonly localModules: number;
}

export interface LocalBundleOptions {
  /**
   * A directory a relative import must stay inside (its real path, links followed); errors then
   * name files relative to it, so no path of the machine doing the bundling is shown.
   */
  readonly confineTo?: string;
}

/** What could not be bundled, with the file and line when esbuild knows them. */
export class LocalBundleError extends Error {
  override readonly name = "LocalBundleError";
}

const TYPESCRIPT = /\.[cm]?tsx?$/i;

/** The directory imports must stay in: as given (for messages) and its real path (for the check). */
interface Confinement {
  readonly given: string;
  readonly real: string;
}

function confinement(directory: string): Confinement {
  return { given: path.resolve(directory), real: fs.realpathSync(directory) };
}

/** Bundles `file` with its relative imports; throws a LocalBundleError saying what to fix. */
export async function bundleLocalImports(
  file: string,
  options: LocalBundleOptions = {},
): Promise<LocalBundle> {
  const entry = path.resolve(file);
  const root = options.confineTo === undefined ? undefined : confinement(options.confineTo);
  const first = await bundleAs(entry, "esm", root);
  // The metafile names inputs relative to the working directory (the entry's): the entry by its base name.
  const inputs = Object.keys(first.metafile.inputs);
  const files = inputs.map((input) => path.resolve(path.dirname(entry), input));
  const localModules = inputs.length - 1;
  if (first.metafile.inputs[path.basename(entry)]?.format === "cjs") {
    const cjs = await bundleAs(entry, "cjs", root);
    return { code: cjs.code, format: "cjs", files, localModules };
  }
  if (localModules > 0) refuseRequiredPackages(first.metafile, (input) => shownPath(entry, input, root));
  return { code: first.code, format: "esm", files, localModules };
}

/** The name to send a bundle under: TypeScript is compiled by the bundling, so it gets a JavaScript name. */
export function bundledFileName(entry: string, format: BundleFormat): string {
  const base = path.basename(entry);
  if (!TYPESCRIPT.test(base)) return base;
  return base.replace(TYPESCRIPT, format === "esm" ? ".mjs" : ".js");
}

async function bundleAs(
  entry: string,
  format: BundleFormat,
  root: Confinement | undefined,
): Promise<{ code: string; metafile: Metafile }> {
  try {
    const result = await build({
      entryPoints: [entry],
      absWorkingDir: path.dirname(entry),
      bundle: true,
      write: false,
      format,
      platform: "node",
      target: "node20",
      metafile: true,
      logLevel: "silent",
      plugins: [packagesStayImports(root)],
    });
    const [output] = result.outputFiles;
    if (output === undefined) throw new Error("esbuild produced no output");
    return { code: output.text, metafile: result.metafile };
  } catch (error) {
    if (isBuildFailure(error)) throw new LocalBundleError(describeFailure(error, entry, root));
    throw error;
  }
}

/**
 * Every bare specifier is left for the compiler: packages (versioned or not), built-ins, URLs.
 * With `root`, a relative import must resolve to a real path inside it.
 */
function packagesStayImports(root: Confinement | undefined): Plugin {
  return {
    name: "sluice-packages-stay-imports",
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        if (!args.path.startsWith(".") && !path.isAbsolute(args.path))
          return { path: args.path, external: true };
        if (root === undefined) return undefined;
        const real = realOrSelf(path.resolve(args.resolveDir, args.path));
        if (real !== root.real && !real.startsWith(`${root.real}${path.sep}`)) {
          throw new Error(
            `'${args.path}' is outside the package: a component may import only the package's own files`,
          );
        }
        return undefined;
      });
    },
  };
}

function realOrSelf(target: string): string {
  for (const candidate of [target, ...[".mjs", ".js", ".cjs", ".ts", ".json"].map((ext) => target + ext)]) {
    try {
      return fs.realpathSync(candidate);
    } catch {
      // try the next extension esbuild would try
    }
  }
  // Not found: esbuild will say so; its directory decides whether it is inside.
  return path.join(realOrSelf(path.dirname(target)), path.basename(target));
}

/**
 * In an ES module bundle esbuild turns `require("pkg")` into a call the compiler cannot see, so a
 * CommonJS helper that requires a package cannot be bundled into an ES module component.
 */
function refuseRequiredPackages(metafile: Metafile, shown: (input: string) => string): void {
  for (const [input, { imports }] of Object.entries(metafile.inputs)) {
    const required = imports.find(
      (imported) => imported.kind === "require-call" && imported.external && !isBuiltin(imported.path),
    );
    if (required) {
      throw new LocalBundleError(
        `${shown(input)} calls require("${required.path}") inside an ES module component; import it instead (import x from "${required.path}"), or write the whole component as CommonJS`,
      );
    }
  }
}

function describeFailure(failure: BuildFailure, entry: string, root: Confinement | undefined): string {
  const [first] = failure.errors;
  if (!first) return `${path.basename(entry)} could not be bundled: ${failure.message}`;
  let where = "";
  if (first.location) {
    const { file, line, column } = first.location;
    const shown = root === undefined ? path.join(path.dirname(entry), file) : shownPath(entry, file, root);
    where = `${shown}:${line}:${column + 1}: `;
  }
  const more = failure.errors.length > 1 ? ` (and ${failure.errors.length - 1} more)` : "";
  return `${where}${first.text}${more}`;
}

/** A metafile input (relative to the entry's directory) as messages name it: inside the package when confined. */
function shownPath(entry: string, input: string, root: Confinement | undefined): string {
  if (root === undefined) return input;
  return path.relative(root.given, path.resolve(path.dirname(entry), input));
}

/**
 * A local component file made ready for upload. The server compiles one file and resolves npm
 * imports itself, so the CLI bundles only the file's relative imports (`./common/base.mjs`, app
 * files) with esbuild and leaves every bare specifier (`axios`, `lodash@4.17.20`,
 * `@scope/pkg@2/sub`, `node:fs`) as an import for the server. A file without relative imports is
 * sent as it is. A CommonJS entry is bundled as CommonJS, so its `require("pkg")` calls stay
 * visible to the server and `module.exports` still becomes the component.
 */
import fs from "node:fs/promises";
import { isBuiltin } from "node:module";
import path from "node:path";
import { type BuildFailure, build, type Metafile, type Plugin } from "esbuild";
import { UsageError } from "./output.js";

export interface ComponentFile {
  /** The code to send as component_code. */
  readonly code: string;
  /** The file name to send with it (`.ts` only for TypeScript the server should compile). */
  readonly filename: string;
  /** How many local modules besides the entry were bundled into `code` (0: sent as written). */
  readonly bundledModules: number;
  /** Absolute paths of the entry and every local module it imports (what `sluice dev` watches). */
  readonly files: readonly string[];
}

const TYPESCRIPT = /\.[cm]?tsx?$/i;

/** Reads `file` and bundles its relative imports; a UsageError says what esbuild could not do. */
export async function bundleComponentFile(file: string): Promise<ComponentFile> {
  const entry = path.resolve(file);
  const original = await fs.readFile(entry, "utf8");
  const first = await bundle(entry, "esm");
  const localModules = Object.keys(first.metafile.inputs).length - 1;
  // The metafile names inputs relative to the entry's directory (the bundle's working directory).
  const files = Object.keys(first.metafile.inputs).map((input) => path.resolve(path.dirname(entry), input));
  if (localModules === 0) return { code: original, filename: path.basename(entry), bundledModules: 0, files };

  // The metafile names inputs relative to the working directory: the entry by its base name.
  const entryFormat = first.metafile.inputs[path.basename(entry)]?.format;
  const format = entryFormat === "cjs" ? "cjs" : "esm";
  const result = format === "cjs" ? await bundle(entry, "cjs") : first;
  if (format === "esm") refuseRequiredPackages(result.metafile);
  return { code: result.code, filename: outputName(entry, format), bundledModules: localModules, files };
}

async function bundle(entry: string, format: "esm" | "cjs"): Promise<{ code: string; metafile: Metafile }> {
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
      plugins: [packagesStayImports],
    });
    const [output] = result.outputFiles;
    if (output === undefined) throw new Error("esbuild produced no output");
    return { code: output.text, metafile: result.metafile };
  } catch (error) {
    if (isBuildFailure(error)) throw new UsageError(describeFailure(error, entry));
    throw error;
  }
}

/** Every bare specifier is left for the server: packages (versioned or not), built-ins, URLs. */
const packagesStayImports: Plugin = {
  name: "sluice-packages-stay-imports",
  setup(builder) {
    builder.onResolve({ filter: /.*/ }, (args) => {
      if (args.kind === "entry-point" || isLocal(args.path)) return undefined;
      return { path: args.path, external: true };
    });
  },
};

function isLocal(specifier: string): boolean {
  return specifier.startsWith(".") || path.isAbsolute(specifier);
}

/**
 * In an ES module bundle esbuild turns `require("pkg")` into a call the server cannot see, so a
 * CommonJS helper that requires a package cannot be bundled into an ES module component.
 */
function refuseRequiredPackages(metafile: Metafile): void {
  for (const [input, { imports }] of Object.entries(metafile.inputs)) {
    const required = imports.find(
      (imported) => imported.kind === "require-call" && imported.external && !isBuiltin(imported.path),
    );
    if (required) {
      throw new UsageError(
        `${input} calls require("${required.path}") inside an ES module component; import it instead (import x from "${required.path}"), or write the whole component as CommonJS`,
      );
    }
  }
}

/** TypeScript is compiled here when bundling, so the server gets JavaScript with a JavaScript name. */
function outputName(entry: string, format: "esm" | "cjs"): string {
  const base = path.basename(entry);
  if (!TYPESCRIPT.test(base)) return base;
  return base.replace(TYPESCRIPT, format === "esm" ? ".mjs" : ".js");
}

function isBuildFailure(error: unknown): error is BuildFailure {
  return error instanceof Error && Array.isArray((error as Partial<BuildFailure>).errors);
}

function describeFailure(failure: BuildFailure, entry: string): string {
  const [first] = failure.errors;
  if (!first) return `${path.basename(entry)} could not be bundled: ${failure.message}`;
  const where = first.location
    ? `${path.join(path.dirname(entry), first.location.file)}:${first.location.line}:${first.location.column + 1}: `
    : "";
  const more = failure.errors.length > 1 ? ` (and ${failure.errors.length - 1} more)` : "";
  return `${where}${first.text}${more}`;
}

/**
 * A local component file made ready for upload: the server compiles one file and installs npm
 * packages itself, so only the file's relative imports are bundled (esbuild); bare specifiers stay
 * imports, and a file without relative imports is sent as it is. A CommonJS entry stays CommonJS,
 * so its `require("pkg")` calls stay visible to the server.
 */
import fs from "node:fs/promises";
import path from "node:path";
import { bundledFileName, bundleLocalImports, LocalBundleError } from "../runtime/compile/local-bundle.js";
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

/** Reads `file` and bundles its relative imports; a UsageError says what esbuild could not do. */
export async function bundleComponentFile(file: string): Promise<ComponentFile> {
  const entry = path.resolve(file);
  const original = await fs.readFile(entry, "utf8");
  let bundle: Awaited<ReturnType<typeof bundleLocalImports>>;
  try {
    bundle = await bundleLocalImports(entry);
  } catch (error) {
    if (error instanceof LocalBundleError) throw new UsageError(error.message);
    throw error;
  }
  const { files, localModules } = bundle;
  if (localModules === 0) return { code: original, filename: path.basename(entry), bundledModules: 0, files };
  return {
    code: bundle.code,
    filename: bundledFileName(entry, bundle.format),
    bundledModules: localModules,
    files,
  };
}

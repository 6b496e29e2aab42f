/**
 * The esbuild bundle of a component whose packages are installed: one ES module for Node 20 with
 * every npm dependency inlined and Node built-ins left as imports. The component's own npm imports
 * resolve inside the package cache directory of their chosen version; imports made by packages
 * resolve normally from there. Nothing outside the package cache may end up in the bundle.
 * Pipedream's global `defineComponent` & co. are injected as identity functions.
 */

import path from "node:path";
import { build, type Plugin } from "esbuild";
import { CompileError } from "./compiler.js";
import { errorFromBuildFailure, isBuildFailure } from "./esbuild-messages.js";
import { IDENTITY_HELPERS_MODULE, identityHelpersPlugin } from "./identity-helpers.js";
import { relativeImportError, type ScannedComponent } from "./import-scan.js";
import { classifyImport, packageImportPath } from "./specifier.js";

export interface BundleRequest {
  readonly code: string;
  readonly scanned: ScannedComponent;
  /** The package cache's directory, as a real path (esbuild reports real paths). */
  readonly packagesDir: string;
  /** The directory each imported package is installed in, by package name. */
  readonly installDirs: ReadonlyMap<string, string>;
}

// CommonJS code inlined into an ES module calls `require` (for built-ins, and for what esbuild
// could not bundle): give the module one. esbuild renames a component's own top-level `require`.
const REQUIRE_BANNER =
  'import { createRequire as __sluiceCreateRequire } from "node:module";\n' +
  "const require = __sluiceCreateRequire(import.meta.url);";

// Marks esbuild resolve calls made by the plugin itself, so it does not intercept them again.
const RESOLVING_IN_CACHE = Symbol("resolving in the package cache");

/** Bundles the component; throws CompileError('bundle_failed') for what esbuild refuses. */
export async function bundleComponent(request: BundleRequest): Promise<string> {
  const { scanned, packagesDir } = request;
  try {
    const result = await build({
      stdin: {
        contents: request.code,
        loader: scanned.loader,
        sourcefile: scanned.names.entry,
        resolveDir: packagesDir,
      },
      // Paths in the bundle's comments are relative to this: the same bundle on every node.
      absWorkingDir: packagesDir,
      bundle: true,
      write: false,
      format: "esm",
      platform: "node",
      target: "node20",
      tsconfigRaw: {},
      banner: { js: REQUIRE_BANNER },
      inject: [IDENTITY_HELPERS_MODULE],
      metafile: true,
      logLevel: "silent",
      plugins: [identityHelpersPlugin, componentImports(request)],
    });
    checkInputsInCache(Object.keys(result.metafile.inputs), request);
    const [output] = result.outputFiles;
    if (output === undefined) throw new Error("esbuild produced no output");
    return output.text;
  } catch (error) {
    if (isBuildFailure(error)) throw errorFromBuildFailure(error, scanned.names, "bundle_failed");
    throw error;
  }
}

/** Resolves the component's own imports; leaves imports made inside packages to esbuild. */
function componentImports(request: BundleRequest): Plugin {
  return {
    name: "sluice-component-imports",
    setup(bundle) {
      // esbuild names the stdin entry after its resolveDir and sourcefile.
      const entryPath = path.join(request.packagesDir, request.scanned.names.entry);
      bundle.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === RESOLVING_IN_CACHE || args.importer !== entryPath) return undefined;
        const found = classifyImport(args.path);
        if (found.kind === "builtin") return { path: args.path, external: true };
        if (found.kind === "relative") throw relativeImportError(args.path);
        const { name } = found.specifier;
        const installDir = request.installDirs.get(name);
        if (installDir === undefined) throw new Error(`${name} was imported but not installed`);
        const resolved = await bundle.resolve(packageImportPath(found.specifier), {
          kind: args.kind,
          resolveDir: installDir,
          pluginData: RESOLVING_IN_CACHE,
        });
        const [failure] = resolved.errors;
        if (failure !== undefined) {
          throw new CompileError(
            "bundle_failed",
            `'${args.path}' cannot be imported from ${path.basename(installDir)}: ${failure.text}`,
          );
        }
        return {
          path: resolved.path,
          external: resolved.external,
          namespace: resolved.namespace,
          sideEffects: resolved.sideEffects,
          suffix: resolved.suffix,
        };
      });
    },
  };
}

/** Refuses a bundle that read a file outside the package cache (a package reaching for `../..`). */
function checkInputsInCache(inputs: readonly string[], request: BundleRequest): void {
  for (const input of inputs) {
    if (input === request.scanned.names.entry || input === IDENTITY_HELPERS_MODULE) continue;
    const relative = path.relative(request.packagesDir, path.resolve(request.packagesDir, input));
    const [top] = relative.split(path.sep);
    if (relative.startsWith("..") || path.isAbsolute(relative) || top === ".tmp") {
      throw new CompileError(
        "bundle_failed",
        `A package imports '${path.basename(input)}' from outside its install directory; it cannot be bundled.`,
      );
    }
  }
}

/**
 * The esbuild bundle of a component whose packages are installed: one ES module with the
 * component's own code; Node built-ins and npm packages stay imports and run as installed. Each
 * import is checked to resolve inside its chosen version's install directory and written without
 * its version (`lodash@4/fp` → `lodash/fp`); the versions go in the bundle's first line
 * (bundle-packages.ts).
 */

import path from "node:path";
import { build, type Plugin } from "esbuild";
import { packagesHeader } from "./bundle-packages.js";
import { CompileError } from "./compiler.js";
import { errorFromBuildFailure, isBuildFailure } from "./esbuild-messages.js";
import { IDENTITY_HELPERS_MODULE, identityHelpersPlugin } from "./identity-helpers.js";
import { relativeImportError, type ScannedComponent } from "./import-scan.js";
import { classifyImport, packageImportPath } from "./specifier.js";

export interface BundleRequest {
  readonly code: string;
  readonly scanned: ScannedComponent;
  /** The exact version of each imported package, by name, sorted by name. */
  readonly lock: Readonly<Record<string, string>>;
  /** The directory each imported package is installed in, by package name. */
  readonly installDirs: ReadonlyMap<string, string>;
}

// A component written as CommonJS calls `require` for packages and built-ins: give the ES module
// one, resolving from the bundle's own directory (where the packages are linked). esbuild renames
// a component's own top-level `require`.
const REQUIRE_BANNER =
  'import { createRequire as __sluiceCreateRequire } from "node:module";\n' +
  "const require = __sluiceCreateRequire(import.meta.url);";

// Marks the plugin's own resolve calls, so it does not intercept them again.
const CHECKING = Symbol("checking an import in its install directory");

// Nothing is read from disk for the entry: paths in the bundle's comments are relative to this,
// so the bundle is the same on every node.
const NEUTRAL_DIR = path.parse(process.cwd()).root;

/** Bundles the component; throws CompileError('bundle_failed') for what esbuild refuses. */
export async function bundleComponent(request: BundleRequest): Promise<string> {
  const { scanned } = request;
  const header = Object.keys(request.lock).length === 0 ? "" : packagesHeader(request.lock);
  try {
    const result = await build({
      stdin: {
        contents: request.code,
        loader: scanned.loader,
        sourcefile: scanned.names.entry,
        resolveDir: NEUTRAL_DIR,
      },
      absWorkingDir: NEUTRAL_DIR,
      bundle: true,
      write: false,
      format: "esm",
      platform: "node",
      target: "node20",
      // Resolve as Node does (no "module" condition or main field), so what resolves here loads there.
      conditions: [],
      mainFields: ["main"],
      tsconfigRaw: {},
      banner: { js: header + REQUIRE_BANNER },
      inject: [IDENTITY_HELPERS_MODULE],
      logLevel: "silent",
      plugins: [identityHelpersPlugin, componentImports(request)],
    });
    const [output] = result.outputFiles;
    if (output === undefined) throw new Error("esbuild produced no output");
    return output.text;
  } catch (error) {
    if (isBuildFailure(error)) throw errorFromBuildFailure(error, scanned.names, "bundle_failed");
    throw error;
  }
}

/** Keeps the component's imports external, each checked to resolve in its package's install. */
function componentImports(request: BundleRequest): Plugin {
  return {
    name: "sluice-component-imports",
    setup(bundle) {
      bundle.onResolve({ filter: /.*/ }, async (args) => {
        if (args.pluginData === CHECKING) return undefined;
        const found = classifyImport(args.path);
        if (found.kind === "builtin") return { path: args.path, external: true };
        if (found.kind === "relative") throw relativeImportError(args.path);
        const { name } = found.specifier;
        const installDir = request.installDirs.get(name);
        if (installDir === undefined) throw new Error(`${name} was imported but not installed`);
        const importPath = packageImportPath(found.specifier);
        const resolved = await bundle.resolve(importPath, {
          kind: args.kind,
          resolveDir: installDir,
          pluginData: CHECKING,
        });
        const [failure] = resolved.errors;
        if (failure !== undefined) {
          throw new CompileError(
            "bundle_failed",
            `'${args.path}' cannot be imported from ${path.basename(installDir)}: ${failure.text}`,
          );
        }
        return { path: importPath, external: true };
      });
    },
  };
}

/**
 * Bundles one component file of an unpacked package with its relative imports (the app file,
 * `common/…`), as `sluice deploy` does on the user's machine: every bare specifier (npm packages,
 * built-ins) stays an import for the compiler. Runs on the server, so nothing outside the
 * package's own directory may be read: a relative import that leaves it (`../../../etc/x`, or
 * through a link) is refused.
 */
import fs from "node:fs";
import path from "node:path";
import { type BuildFailure, build, type Plugin } from "esbuild";

export interface LocalBundle {
  readonly code: string;
  /** The name to compile it under: `.mjs` for an ES module, `.js` for CommonJS. */
  readonly filename: string;
}

/** Bundles `file` (inside `root`); throws an Error whose message says what could not be bundled. */
export async function bundleInside(root: string, file: string): Promise<LocalBundle> {
  const realRoot = fs.realpathSync(root);
  const entry = path.resolve(file);
  const first = await bundle(realRoot, entry, "esm");
  const entryFormat = first.formats.get(path.basename(entry));
  if (entryFormat !== "cjs") return { code: first.code, filename: renamed(entry, "esm") };
  return { code: (await bundle(realRoot, entry, "cjs")).code, filename: renamed(entry, "cjs") };
}

async function bundle(
  root: string,
  entry: string,
  format: "esm" | "cjs",
): Promise<{ code: string; formats: Map<string, string | undefined> }> {
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
      plugins: [staysInside(root)],
    });
    const [output] = result.outputFiles;
    if (output === undefined) throw new Error("esbuild produced no output");
    const formats = new Map(
      Object.entries(result.metafile.inputs).map(([input, meta]) => [input, meta.format]),
    );
    return { code: output.text, formats };
  } catch (error) {
    if (isBuildFailure(error)) {
      const [failure] = error.errors;
      const where = failure?.location ? `${failure.location.file}:${failure.location.line}: ` : "";
      throw new Error(`${where}${failure?.text ?? error.message}`);
    }
    throw error;
  }
}

/** Bare specifiers stay imports; relative ones must resolve to a real path inside `root`. */
function staysInside(root: string): Plugin {
  return {
    name: "sluice-stays-inside",
    setup(builder) {
      builder.onResolve({ filter: /.*/ }, (args) => {
        if (args.kind === "entry-point") return undefined;
        if (!args.path.startsWith(".") && !path.isAbsolute(args.path))
          return { path: args.path, external: true };
        const target = path.resolve(args.resolveDir, args.path);
        const real = realOrSelf(target);
        if (real !== root && !real.startsWith(`${root}${path.sep}`)) {
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

function renamed(entry: string, format: "esm" | "cjs"): string {
  const base = path.basename(entry).replace(/\.[cm]?[jt]sx?$/i, "");
  return `${base}${format === "esm" ? ".mjs" : ".js"}`;
}

function isBuildFailure(error: unknown): error is BuildFailure {
  return error instanceof Error && Array.isArray((error as Partial<BuildFailure>).errors);
}

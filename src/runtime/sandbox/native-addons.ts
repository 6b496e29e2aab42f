/**
 * Native addons (`.node` files) in a runner: the permission model refuses them and npm does not
 * build them, so a component fails where it needs one, with an error that names the package.
 * One loaded inside try/catch (ssh2's cpu-features) still runs without it. Only Node built-ins
 * here: the runner imports it.
 */
import Module from "node:module";

type NodeLoader = (module: unknown, filename: string) => void;

/** Makes `require` of a `.node` file throw an error naming the package it belongs to. */
export function refuseNativeAddons(): void {
  const extensions = (Module as unknown as { _extensions: Record<string, NodeLoader> })._extensions;
  extensions[".node"] = (_module, filename) => {
    throw Object.assign(new Error(addonMessage(filename)), { code: "ERR_DLOPEN_DISABLED" });
  };
}

// What the usual loaders say when the addon was never built: Node's own resolver for a
// `require("./build/Release/x.node")`, `bindings` and `node-gyp-build`.
const NOT_BUILT = [
  /Cannot find module '([^']+\.node)'/,
  /Could not locate the bindings file\. Tried:\s*\n?\s*(?:→\s*)?(\S+)/,
  /No native build was found for [^\n]*\n?\s*(?:loaded from: (\S+))?/,
];

/**
 * The error to report for `error`: when it says a native addon was not found, the same error
 * with a message naming the package; otherwise `error` itself.
 */
export function explainNativeAddonError(error: unknown): unknown {
  if (!(error instanceof Error)) return error;
  for (const pattern of NOT_BUILT) {
    const match = pattern.exec(error.message);
    if (match === null) continue;
    const requireStack = (error as { requireStack?: unknown }).requireStack;
    const from =
      Array.isArray(requireStack) && typeof requireStack[0] === "string" ? requireStack[0] : undefined;
    const where = [match[1], from].find((file) => file !== undefined && packageOf(file) !== undefined);
    const explained = new Error(addonMessage(where ?? match[1] ?? ""), { cause: error });
    if (error.stack !== undefined)
      explained.stack = `Error: ${explained.message}\n${stackFrames(error.stack)}`;
    return Object.assign(explained, { code: (error as { code?: unknown }).code });
  }
  return error;
}

function addonMessage(file: string): string {
  const name = packageOf(file);
  const what = name === undefined ? `a native addon (${file})` : `the package '${name}', a native addon`;
  return (
    `The component needs ${what}, which the sandbox cannot load: components run JavaScript ` +
    "(and WebAssembly) only, and native code is neither built nor loaded. Use a pure-JavaScript package instead."
  );
}

/** The package a file is in: the last `node_modules/<name>` (or `node_modules/@scope/name`) of its path. */
function packageOf(file: string): string | undefined {
  const parts = file.split(/[\\/]/);
  const at = parts.lastIndexOf("node_modules");
  if (at < 0 || at + 1 >= parts.length) return undefined;
  const first = parts[at + 1] ?? "";
  return first.startsWith("@") ? `${first}/${parts[at + 2] ?? ""}` : first;
}

function stackFrames(stack: string): string {
  return stack
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .join("\n");
}

/**
 * Where the runner's compiled code is. Runners execute compiled JS only (they run under the
 * permission model with read access to dist/runtime/ and nothing else of the project), also when
 * the server code itself runs from TypeScript sources under vitest: a module under `src/…/*.ts`
 * maps to its `dist/…` twin.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface RunnerEntry {
  /** dist/runtime/sandbox/runner.js */
  readonly file: string;
  /** dist/runtime/: the code a runner may read. */
  readonly runtimeDir: string;
}

/** Locates the runner from this module's own URL; throws, saying to build, when it is missing. */
export function locateRunnerEntry(moduleUrl: string = import.meta.url): RunnerEntry {
  let sandboxDir = path.dirname(fileURLToPath(moduleUrl));
  if (moduleUrl.endsWith(".ts")) {
    const marker = `${path.sep}src${path.sep}`;
    const at = sandboxDir.lastIndexOf(marker);
    if (at < 0) throw new Error(`cannot map ${sandboxDir} to its compiled twin: no src/ segment in the path`);
    sandboxDir = `${sandboxDir.slice(0, at)}${path.sep}dist${path.sep}${sandboxDir.slice(at + marker.length)}`;
  }
  const file = path.join(sandboxDir, "runner.js");
  if (!fs.existsSync(file)) {
    throw new Error(`the sandbox runner is not built: ${file} is missing. Run \`npm run build\`.`);
  }
  return { file, runtimeDir: path.dirname(sandboxDir) };
}

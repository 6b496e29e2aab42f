/**
 * Where the runner's code is: `dist/runner/runner.cjs`, one CommonJS file bundled by `npm run
 * build` from runner.ts, because a cold start under the permission model pays for every module it
 * loads (bench/RESULTS.md, "Cold runner start"). Runners run only this bundle, also under vitest:
 * a module under `src/…/*.ts` finds its `dist/` twin's.
 */
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

export interface RunnerEntry {
  /** dist/runner/runner.cjs */
  readonly file: string;
  /** dist/runner/: the only code of the project a runner may read. */
  readonly dir: string;
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
  // <dist>/runtime/sandbox → <dist>/runner
  const dir = path.join(path.dirname(path.dirname(sandboxDir)), "runner");
  const file = path.join(dir, "runner.cjs");
  if (!fs.existsSync(file)) {
    throw new Error(`the sandbox runner is not built: ${file} is missing. Run \`npm run build\`.`);
  }
  return { file, dir };
}

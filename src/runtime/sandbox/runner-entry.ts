/**
 * Where the runner's code is: one file, `dist/runner/runner.cjs`, which `npm run build` bundles
 * from the compiled runner.ts and the modules it imports (see docs/architecture.md, "The sandbox").
 * One file because a cold start resolves, reads and compiles every module it imports under the
 * permission model, and that cost more than the runner's own code (bench/RESULTS.md, "Cold runner
 * start"). CommonJS, because the same bundle as an ES module took 3 to 5 ms more CPU to start
 * (the component's bundle is still imported as an ES module). Runners execute this bundle only,
 * also when the server code itself runs from TypeScript sources under vitest: a module under
 * `src/…/*.ts` finds the bundle of its `dist/` twin.
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

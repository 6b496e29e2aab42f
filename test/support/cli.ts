/** Runs the real `sluice` command (bin/sluice.js, built to dist/) as a subprocess. */
import { execFile } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";

export const projectRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
export const sluiceBin = path.join(projectRoot, "bin", "sluice.js");

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/**
 * Runs `sluice ARGS` with only the given environment (plus PATH), so no developer setting leaks in.
 * The time-out is generous: a deploy that installs npm packages on a busy machine takes a while.
 */
export function runCli(args: string[], env: Record<string, string>): Promise<CliResult> {
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [sluiceBin, ...args],
      { env: { PATH: process.env.PATH ?? "", ...env }, timeout: 90_000 },
      (error, stdout, stderr) => {
        const code = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ code, stdout, stderr });
      },
    );
  });
}

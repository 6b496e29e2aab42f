/** Runs the real `sluice` command (bin/sluice.js, built to dist/) as a subprocess. */
import { type ChildProcess, execFile, spawn } from "node:child_process";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type TestServer, useSqliteServer } from "./server.js";
import { tempDir } from "./temp.js";

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

/** A running `sluice ARGS`, for commands that print something to act on before they finish. */
export interface RunningCli {
  readonly child: ChildProcess;
  /** Resolves with stderr once it matches (rejects when the command exits first). */
  waitForStderr(pattern: RegExp): Promise<RegExpExecArray>;
  readonly result: Promise<CliResult>;
}

export function spawnCli(args: string[], env: Record<string, string>): RunningCli {
  const child = spawn(process.execPath, [sluiceBin, ...args], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  const waiting = new Set<() => void>();
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    for (const check of waiting) check();
  });
  const result = new Promise<CliResult>((resolve) => {
    child.once("exit", (code) => {
      for (const check of waiting) check();
      resolve({ code: code ?? 1, stdout, stderr });
    });
  });
  return {
    child,
    result,
    waitForStderr: (pattern) =>
      new Promise((resolve, reject) => {
        const check = () => {
          const match = pattern.exec(stderr);
          if (match) {
            waiting.delete(check);
            resolve(match);
          } else if (child.exitCode !== null) {
            waiting.delete(check);
            reject(new Error(`sluice exited before printing ${pattern}: ${stderr}`));
          }
        };
        waiting.add(check);
        check();
      }),
  };
}

/**
 * For a CLI suite that runs once, on SQLite: a server started before the suite's tests
 * (`useSqliteServer`), and the environment that points `sluice` at it with the admin's key, in a
 * HOME of its own. Read both inside tests and hooks registered after this call.
 */
export function useCliServer(options: Parameters<typeof useSqliteServer>[0] = {}): {
  readonly sluice: TestServer;
  readonly env: Record<string, string>;
} {
  const server = useSqliteServer(options);
  let env: Record<string, string> | undefined;
  return {
    get sluice() {
      return server.sluice;
    },
    get env() {
      env ??= { HOME: tempDir(), SLUICE_API_KEY: server.sluice.apiKey, SLUICE_BASE_URL: server.sluice.url };
      return env;
    },
  };
}

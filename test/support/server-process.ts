/**
 * `sluice server` as a real child process: its environment is PATH plus the SLUICE_* variables a
 * test gives, its stdout and stderr are collected, and `url` is read from the "Sluice is listening"
 * log line. Every process started here is killed by `killAllServerProcesses` if a test left it running.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { sluiceBin } from "./cli.js";

export interface Exit {
  code: number | null;
  signal: NodeJS.Signals | null;
}

export interface ServerProcess {
  readonly child: ChildProcess;
  /** Everything the process wrote to stdout so far. */
  stdout(): string;
  stderr(): string;
  /** The parsed JSON log lines written to stdout so far. */
  logLines(): Record<string, unknown>[];
  /** Resolves with the first log line the predicate accepts (waiting for it if needed). */
  waitForLog(
    predicate: (line: Record<string, unknown>) => boolean,
    timeoutMs?: number,
  ): Promise<Record<string, unknown>>;
  /** Resolves once stderr contains the text. */
  waitForStderr(text: string, timeoutMs?: number): Promise<void>;
  /** Resolves when the process has exited. */
  readonly exited: Promise<Exit>;
}

const running = new Set<ChildProcess>();

export function spawnServer(env: Record<string, string>): ServerProcess {
  const child = spawn(process.execPath, [sluiceBin, "server"], {
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  running.add(child);
  let stdout = "";
  let stderr = "";
  const listeners = new Set<() => void>();
  const changed = () => {
    for (const listener of listeners) listener();
  };
  child.stdout?.setEncoding("utf8").on("data", (chunk: string) => {
    stdout += chunk;
    changed();
  });
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    stderr += chunk;
    changed();
  });
  const exited = new Promise<Exit>((resolve) => {
    child.once("exit", (code, signal) => {
      running.delete(child);
      resolve({ code, signal });
      changed();
    });
  });

  const logLines = (): Record<string, unknown>[] =>
    stdout
      .split("\n")
      .filter((line) => line.startsWith("{"))
      .flatMap((line) => {
        try {
          return [JSON.parse(line) as Record<string, unknown>];
        } catch {
          return [];
        }
      });

  /** Waits until `check` returns a value, failing with what the process printed if it exits or times out first. */
  const waitFor = <T>(what: string, check: () => T | undefined, timeoutMs: number): Promise<T> =>
    new Promise((resolve, reject) => {
      const finish = (error: Error | undefined, value?: T) => {
        clearTimeout(timer);
        listeners.delete(poll);
        if (error) reject(error);
        else resolve(value as T);
      };
      const describe = () => `\n--- stdout ---\n${stdout}\n--- stderr ---\n${stderr}`;
      const poll = () => {
        const value = check();
        if (value !== undefined) finish(undefined, value);
        else if (child.exitCode !== null || child.signalCode !== null)
          finish(new Error(`the server exited before ${what}${describe()}`));
      };
      const timer = setTimeout(
        () => finish(new Error(`timed out waiting for ${what}${describe()}`)),
        timeoutMs,
      );
      listeners.add(poll);
      poll();
    });

  return {
    child,
    stdout: () => stdout,
    stderr: () => stderr,
    logLines,
    exited,
    waitForLog: (predicate, timeoutMs = 15_000) =>
      waitFor("the expected log line", () => logLines().find(predicate), timeoutMs),
    waitForStderr: (text, timeoutMs = 15_000) =>
      waitFor(`'${text}' on stderr`, () => (stderr.includes(text) ? true : undefined), timeoutMs).then(
        () => undefined,
      ),
  };
}

/** Starts `sluice server` and resolves with the URL it listens on. */
export async function startServerProcess(
  env: Record<string, string>,
): Promise<{ server: ServerProcess; url: string }> {
  const server = spawnServer(env);
  const line = await server.waitForLog((entry) => entry.msg === "Sluice is listening");
  if (typeof line.url !== "string") throw new Error(`the listening line has no url: ${JSON.stringify(line)}`);
  return { server, url: line.url };
}

/** Sends SIGTERM and resolves with how the process exited. */
export async function stopServerProcess(server: ServerProcess): Promise<Exit> {
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill("SIGTERM");
  return server.exited;
}

/** Kills (SIGKILL) every server process still running; for afterEach. */
export async function killAllServerProcesses(): Promise<void> {
  const children = [...running];
  await Promise.all(
    children.map(
      (child) =>
        new Promise<void>((resolve) => {
          if (child.exitCode !== null || child.signalCode !== null) return resolve();
          child.once("exit", () => resolve());
          child.kill("SIGKILL");
        }),
    ),
  );
}

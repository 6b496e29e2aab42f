/**
 * One `npm install` of an exact package version, with its dependencies, into a directory of its
 * own: no manifest, no lockfile, no install scripts, no dev dependencies. npm's failures are sorted
 * into the package's fault (CompileError 'install_failed') and the machine's (plain Error).
 */

import { execFile } from "node:child_process";
import { CompileError } from "./compiler.js";

export interface NpmInstallRequest {
  readonly npmCommand: string;
  readonly registry: string;
  /** The directory that receives `node_modules/`; it must exist. */
  readonly prefix: string;
  readonly name: string;
  readonly version: string;
  readonly timeoutMs: number;
}

// npm error codes that mean the package (or one of its dependencies) cannot be installed as
// published, rather than that the network, the disk or npm itself failed.
const PACKAGE_FAULTS = new Set([
  "E404",
  "ETARGET",
  "ERESOLVE",
  "EBADPLATFORM",
  "EINVALIDPACKAGENAME",
  "EINVALIDTAGNAME",
  "EUNSUPPORTEDPROTOCOL",
]);

export async function npmInstall(request: NpmInstallRequest): Promise<void> {
  const spec = `${request.name}@${request.version}`;
  const args = [
    "install",
    spec,
    "--prefix",
    request.prefix,
    "--registry",
    request.registry,
    "--no-save",
    "--no-package-lock",
    "--no-audit",
    "--no-fund",
    "--ignore-scripts",
    "--omit=dev",
    "--no-update-notifier",
    "--loglevel=error",
  ];
  const failure = await run(request.npmCommand, args, request.timeoutMs);
  if (failure === undefined) return;
  const code = /npm error code (\S+)/.exec(failure.stderr)?.[1];
  const detail = failure.stderr.trim().split("\n").slice(0, 6).join("\n") || failure.message;
  if (code !== undefined && PACKAGE_FAULTS.has(code)) {
    throw new CompileError("install_failed", `Installing ${spec} failed (${code}):\n${detail}`);
  }
  throw new Error(`npm install ${spec} failed: ${detail}`);
}

interface RunFailure {
  readonly message: string;
  readonly stderr: string;
}

function run(command: string, args: readonly string[], timeoutMs: number): Promise<RunFailure | undefined> {
  return new Promise((resolve) => {
    execFile(command, args, { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, _stdout, stderr) => {
      resolve(error === null ? undefined : { message: error.message, stderr: String(stderr) });
    });
  });
}

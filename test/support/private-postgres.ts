/**
 * A PostgreSQL cluster of the test's own, in a temp directory on a free port of 127.0.0.1, so a
 * test may stop and restart it without touching the machine's shared server (other suites use that
 * one concurrently). Needs the PostgreSQL server binaries (`initdb`, `pg_ctl`); throws a message
 * saying so when they are missing. Run as root, the cluster runs as the `postgres` user.
 */
import { execFile, execSync } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);
const POSTGRES_LIB = "/usr/lib/postgresql";

export interface PrivatePostgres {
  /** `postgres://postgres@127.0.0.1:<port>/postgres`, trust authentication. */
  readonly url: string;
  readonly port: number;
  readonly dataDir: string;
  /** Stops the server: `fast` (clean shutdown) or `immediate` (like a crash; recovery on start). */
  stop(mode?: "fast" | "immediate"): Promise<void>;
  /** Starts it again on the same port and data directory; resolves once it accepts connections. */
  start(): Promise<void>;
  /** Stops it (if running) and deletes its directory. */
  destroy(): Promise<void>;
}

/** The newest installed PostgreSQL's bin directory, or a clear error naming what is missing. */
export function postgresBinDir(): string {
  const versions = fs.existsSync(POSTGRES_LIB)
    ? fs
        .readdirSync(POSTGRES_LIB)
        .filter((name) => fs.existsSync(path.join(POSTGRES_LIB, name, "bin", "pg_ctl")))
        .sort((a, b) => Number(b) - Number(a))
    : [];
  const newest = versions[0];
  if (newest === undefined) {
    throw new Error(
      `The reliability suite starts a private PostgreSQL cluster and needs the server binaries ` +
        `(initdb, pg_ctl) under ${POSTGRES_LIB}/<version>/bin; none found. Install them ` +
        `(apt-get install postgresql) and run the suite again.`,
    );
  }
  return path.join(POSTGRES_LIB, newest, "bin");
}

export async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Quotes a value for `sh -c`. */
const quote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/** Runs a PostgreSQL binary as the postgres user when we are root (the server refuses to run as root). */
async function asPostgres(binary: string, args: string[]): Promise<void> {
  const asRoot = process.getuid?.() === 0;
  try {
    if (asRoot) await run("su", ["postgres", "-c", [binary, ...args].map(quote).join(" ")]);
    else await run(binary, args);
  } catch (error) {
    const failed = error as Error & { stderr?: string; stdout?: string };
    throw new Error(
      `${path.basename(binary)} ${args.join(" ")} failed: ${failed.message}\n${failed.stdout ?? ""}${failed.stderr ?? ""}`,
    );
  }
}

/**
 * Starts a private cluster. With `ssl`, it serves TLS with a self-signed certificate made for the
 * run (clients must skip verification), as a managed PostgreSQL does.
 */
/** A key and certificate in `dir`, owned by the server's user; the server options that use them. */
async function selfSignedCertificate(dir: string): Promise<string> {
  const key = path.join(dir, "server.key");
  const cert = path.join(dir, "server.crt");
  await run("openssl", [
    "req",
    "-x509",
    "-newkey",
    "rsa:2048",
    "-nodes",
    "-days",
    "1",
    "-subj",
    "/CN=127.0.0.1",
    "-keyout",
    key,
    "-out",
    cert,
  ]);
  fs.chmodSync(key, 0o600);
  if (process.getuid?.() === 0) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    for (const file of [key, cert]) fs.chownSync(file, Number(stdout), -1);
  }
  return ` -c ssl=on -c ssl_cert_file=${cert} -c ssl_key_file=${key}`;
}

export async function startPrivatePostgres(options: { ssl?: boolean } = {}): Promise<PrivatePostgres> {
  const bin = postgresBinDir();
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-pg-"));
  const dataDir = path.join(root, "data");
  const logFile = path.join(root, "server.log");
  fs.mkdirSync(dataDir);
  if (process.getuid?.() === 0) {
    const { stdout } = await run("id", ["-u", "postgres"]);
    const { stdout: group } = await run("id", ["-g", "postgres"]);
    fs.chownSync(root, Number(stdout), Number(group));
    fs.chownSync(dataDir, Number(stdout), Number(group));
  }
  const port = await freePort();
  const pgCtl = path.join(bin, "pg_ctl");
  const sslOptions = options.ssl ? await selfSignedCertificate(root) : "";
  let running = false;
  const start = async () => {
    // Unix socket in our own directory, TCP on 127.0.0.1 only.
    const serverOptions = `-p ${port} -k ${root} -c listen_addresses=127.0.0.1${sslOptions}`;
    await asPostgres(pgCtl, ["-D", dataDir, "-o", serverOptions, "-l", logFile, "-w", "-t", "60", "start"]);
    running = true;
  };
  const stop = async (mode: "fast" | "immediate" = "fast") => {
    if (!running) return;
    await asPostgres(pgCtl, ["-D", dataDir, "-m", mode, "-w", "-t", "60", "stop"]);
    running = false;
  };
  const removeAll = () => fs.rmSync(root, { recursive: true, force: true });
  try {
    await asPostgres(path.join(bin, "initdb"), [
      "-D",
      dataDir,
      "-U",
      "postgres",
      "-A",
      "trust",
      "--no-instructions",
    ]);
  } catch (error) {
    removeAll();
    throw error;
  }
  // A test that dies before its afterAll still stops the cluster when its process exits.
  const stopOnExit = () => {
    if (running) {
      try {
        const args = ["-D", dataDir, "-m", "immediate", "stop"].map(quote).join(" ");
        const command = `${quote(pgCtl)} ${args}`;
        // Synchronous: nothing asynchronous runs in an exit handler.
        execSync(process.getuid?.() === 0 ? `su postgres -c ${quote(command)}` : command);
      } catch {}
    }
  };
  process.once("exit", stopOnExit);
  try {
    await start();
  } catch (error) {
    const log = fs.existsSync(logFile) ? fs.readFileSync(logFile, "utf8").slice(-2000) : "";
    running = true; // it may have started after pg_ctl gave up waiting
    stopOnExit();
    running = false;
    process.off("exit", stopOnExit);
    removeAll();
    throw new Error(`${(error as Error).message}\n--- server log ---\n${log}`);
  }
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    port,
    dataDir,
    stop,
    start,
    async destroy() {
      try {
        await stop("immediate");
      } finally {
        process.off("exit", stopOnExit);
        removeAll();
      }
    },
  };
}

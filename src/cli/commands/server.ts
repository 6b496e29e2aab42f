/**
 * `sluice server`: run the server in the foreground until SIGTERM or SIGINT, which drain it (see
 * RunningServer.close): it exits 0 once its work in flight is done, or 1 if that takes longer than
 * the drain delay plus SLUICE_SHUTDOWN_TIMEOUT. A second signal stops it at once.
 */
import type { Command } from "commander";
import { loadServerConfig, type ServerFlags } from "../../config/server-config.js";
import type { RunningServer } from "../../server/server.js";
import { UsageError } from "../output.js";

export function registerServer(program: Command): void {
  program
    .command("server")
    .description("run the Sluice server (the same as npm start)")
    .option("--host <host>", "listen address (SLUICE_HOST, default 127.0.0.1)")
    .option("--port <port>", "listen port (SLUICE_PORT, default 8080)")
    .option("--base-url <url>", "public URL of the server (SLUICE_BASE_URL)")
    .option("--data-dir <dir>", "data directory (SLUICE_DATA_DIR, default ./.sluice)")
    .option("--database-url <url>", "postgres:// URL for scale mode (SLUICE_DATABASE_URL)")
    .option("--log-level <level>", "fatal, error, warn, info, debug, trace or silent (SLUICE_LOG_LEVEL)")
    .action(async (flags: ServerFlags) => {
      const config = loadServerConfig(flags);
      // Loaded here so that the other commands start without loading the server.
      const { startServer } = await import("../../server/server.js");
      // Signals are watched from the start, so one that arrives while starting still stops cleanly.
      let stopRequested: string | undefined;
      let draining = false;
      let server: RunningServer | undefined;
      const stop = (signal: string) => {
        if (draining) {
          process.stderr.write(`${signal} again: exiting now, without waiting for the work in flight\n`);
          process.exit(1);
        }
        stopRequested = signal;
        if (!server) return;
        draining = true;
        process.stderr.write(
          `${signal}: draining (/ready answers 503, no new jobs are claimed); finishing requests and jobs in flight, then stopping\n`,
        );
        // The drain delay is time the node goes on serving; the time-out is for what is then in flight.
        const limitMs = config.drainDelayMs + config.shutdownTimeoutMs;
        const timer = setTimeout(() => {
          process.stderr.write(`still busy after ${limitMs} ms; exiting\n`);
          process.exit(1);
        }, limitMs);
        timer.unref();
        server.close().then(
          () => process.exit(0),
          (error: unknown) => {
            process.stderr.write(`shutdown failed: ${String(error)}\n`);
            process.exit(1);
          },
        );
      };
      process.on("SIGTERM", () => stop("SIGTERM"));
      process.on("SIGINT", () => stop("SIGINT"));
      try {
        server = await startServer(config, { humanLog: process.stdout.isTTY === true });
      } catch (error) {
        throw new UsageError(
          `The server could not start: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      if (stopRequested) stop(stopRequested);
    });
}

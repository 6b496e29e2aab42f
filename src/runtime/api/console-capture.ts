/**
 * Console output of a component becomes log lines of its invocation instead of reaching a stream.
 * `log`/`info`/`warn`/`error`/`debug` format their arguments as `util.format` does; the rest of
 * the console API (dir, table, trace, …) writes through sinks at "log" or "error" level.
 */
import { Console } from "node:console";
import { format } from "node:util";
import type { LogLine } from "../sandbox/sandbox.js";

/** Longest message kept per line (see clipLogMessage), so that one call cannot flood the parent. */
export const MAX_LOG_MESSAGE_CHARS = 64 * 1024;

export type LogSink = (level: LogLine["level"], message: string) => void;

/** A console whose every method reports to `sink`. */
export function createCapturedConsole(sink: LogSink): Console {
  const lineSink = (level: LogLine["level"]) =>
    ({
      write(chunk: string | Uint8Array): boolean {
        sink(level, String(chunk).replace(/\n$/, ""));
        return true;
      },
    }) as unknown as NodeJS.WritableStream;
  const captured = new Console({
    stdout: lineSink("log"),
    stderr: lineSink("error"),
    ignoreErrors: false,
    colorMode: false,
  });
  for (const level of ["log", "info", "warn", "error", "debug"] as const) {
    captured[level] = (...args: unknown[]) => sink(level, format(...args));
  }
  return captured;
}

/** Cuts a message to MAX_LOG_MESSAGE_CHARS, saying how much was cut. */
export function clipLogMessage(message: string): string {
  if (message.length <= MAX_LOG_MESSAGE_CHARS) return message;
  const cut = message.length - MAX_LOG_MESSAGE_CHARS;
  return `${message.slice(0, MAX_LOG_MESSAGE_CHARS)}… (${cut} more characters cut)`;
}

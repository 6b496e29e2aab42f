/**
 * How commands print: `--json` prints the API's `data` as JSON; otherwise a readable table.
 * Errors go to stderr with a non-zero exit code.
 */
import Table from "cli-table3";
import { ApiError } from "../client/client.js";
import { ConfigError } from "../config/env.js";

export interface OutputOptions {
  json?: boolean;
}

export type Column<T> = readonly [header: string, value: (row: T) => unknown];

/** Columns that show a field of the row as it is, headed by the field's name. */
export function fieldColumns<T>(...fields: (keyof T & string)[]): Column<T>[] {
  return fields.map((field) => [field, (row: T) => row[field]] as const);
}

export function printList<T>(
  options: OutputOptions,
  rows: T[],
  columns: readonly Column<T>[],
  empty: string,
): void {
  if (options.json) {
    printJson(rows);
    return;
  }
  if (rows.length === 0) {
    process.stdout.write(`${empty}\n`);
    return;
  }
  const table = new Table({ head: columns.map(([header]) => header) });
  for (const row of rows) table.push(columns.map(([, value]) => formatCell(value(row))));
  process.stdout.write(`${table.toString()}\n`);
}

export function printRecord(options: OutputOptions, record: object, note?: string): void {
  if (options.json) {
    printJson(record);
    return;
  }
  const table = new Table();
  for (const [key, value] of Object.entries(record)) table.push({ [key]: formatCell(value) });
  process.stdout.write(`${table.toString()}\n`);
  if (note) process.stdout.write(`${note}\n`);
}

/** The API's answer with --json; otherwise one line saying what was done. */
export function printOutcome(options: OutputOptions, value: unknown, line: string): void {
  if (options.json) printJson(value);
  else process.stdout.write(`${line}\n`);
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}

/** Epoch seconds as a readable UTC time. */
export function formatTime(seconds: number | null | undefined): string {
  if (seconds === null || seconds === undefined) return "";
  return new Date(seconds * 1000)
    .toISOString()
    .replace("T", " ")
    .replace(/\.\d+Z$/, "Z");
}

function formatCell(value: unknown): string {
  if (value === null || value === undefined) return "";
  return typeof value === "object" ? JSON.stringify(value) : String(value);
}

/** Prints a failure the way every command does, and sets a non-zero exit code. */
export function reportFailure(error: unknown): void {
  let message: string;
  if (error instanceof ApiError) {
    message =
      error.status === 401
        ? `Authentication failed: ${error.message}. Log in with 'sluice login --api-key <key>' or set SLUICE_API_KEY.`
        : `${error.message} (${error.code})`;
  } else if (error instanceof ConfigError || error instanceof UsageError) {
    message = error.message;
  } else {
    message = error instanceof Error ? (error.stack ?? error.message) : String(error);
  }
  process.stderr.write(`Error: ${message}\n`);
  process.exitCode = 1;
}

/** A mistake in how a command was called or configured (no key, say), reported without a stack. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}

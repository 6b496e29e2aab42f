/** The paging of list commands: the `-n` and `--after` flags, and the hint naming the next page. */
import type { Command } from "commander";
import type { PageOf } from "../client/types.js";
import type { ApiCommandOptions } from "./context.js";
import { type Column, printList } from "./output.js";

export interface PageFlags extends ApiCommandOptions {
  limit: string;
  after?: string;
}

/** Adds `-n, --limit` (1-100, `defaultLimit` when not given) and `--after`. */
export function pageOptions(command: Command, defaultLimit: string): Command {
  return command
    .option("-n, --limit <count>", "how many (1-100)", defaultLimit)
    .option("--after <cursor>", "page after this id");
}

/**
 * Prints a page as `printList` does; when the page is full and more rows follow, says on stderr
 * how to get the next one (`command` is how the reader asks for this list again).
 */
export function printPage<T>(
  options: PageFlags,
  page: PageOf<T>,
  columns: readonly Column<T>[],
  empty: string,
  command: string,
): void {
  printList(options, page.data, columns, empty);
  const { total_count: total, count, end_cursor: cursor } = page.page_info;
  if (!options.json && total > count && count === Number(options.limit) && cursor) {
    process.stderr.write(`Showing ${count} of ${total}; the next page: ${command} --after ${cursor}\n`);
  }
}

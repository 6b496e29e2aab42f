/** The paging of list commands: the `-n` and `--after` flags, and the hint naming the next page. */
import type { Command } from "commander";
import type { PageOf } from "../client/types.js";
import { type ApiCommandOptions, apiOptions } from "./context.js";
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

/** The page the flags ask for, `-n` as given: the server answers a count out of range. */
export function pageParams(options: PageFlags): { limit: number; after?: string } {
  return { limit: Number(options.limit), after: options.after };
}

/** What a list command shows of the page it fetched. */
export interface ListedPage<T> {
  readonly page: PageOf<T>;
  readonly columns: readonly Column<T>[];
  /** Said instead of an empty table. */
  readonly empty: string;
  /** The command again, for the hint naming the next page (`NEXT --after CURSOR`); none, no hint. */
  readonly next?: string;
}

/**
 * Makes `command` a list command: the paging and API flags, and an action printing the page that
 * `list` fetches (given the options, then the command's arguments).
 */
export function listCommand<T, O extends PageFlags = PageFlags, A extends string[] = []>(
  command: Command,
  defaultLimit: string,
  list: (options: O, ...args: A) => Promise<ListedPage<T>>,
): void {
  apiOptions(pageOptions(command, defaultLimit)).action(async () => {
    const options = command.opts<O>();
    const listed = await list(options, ...(command.processedArgs as A));
    if (listed.next === undefined) printList(options, listed.page.data, listed.columns, listed.empty);
    else printPage(options, listed.page, listed.columns, listed.empty, listed.next);
  });
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

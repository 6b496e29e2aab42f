/**
 * `sluice search [WORDS…]` finds components (the latest version of each key) in the account's
 * published components and the server's public registry; `sluice deprecate KEY[@VERSION]` takes a
 * public component out of new deploys (its publisher or an admin).
 */
import type { Command } from "commander";
import type { ComponentSearchParams, ListedComponent } from "../../client/types.js";
import { type ApiCommandOptions, apiOptions, clientFor } from "../context.js";
import { type Column, formatTime, printList, printRecord, UsageError } from "../output.js";

const columns: readonly Column<ListedComponent>[] = [
  ["key", (listed) => listed.key],
  ["version", (listed) => listed.version],
  ["type", (listed) => listed.type],
  ["registry", (listed) => listed.registry],
  ["name", (listed) => listed.name],
  ["published", (listed) => formatTime(listed.published_at)],
];

interface SearchFlags extends ApiCommandOptions {
  app?: string;
  type?: string;
  registry?: string;
  limit: string;
  after?: string;
}

export function registerRegistry(program: Command): void {
  apiOptions(
    program
      .command("search [words...]")
      .description(
        "search components by words of their key, name or description, in your account and the public registry",
      )
      .option("--app <slug>", "only components of this app")
      .option("--type <type>", "source or action")
      .option("--registry <registry>", "public, private or all", "all")
      .option("-n, --limit <count>", "how many (1-100)", "20")
      .option("--after <cursor>", "page after this id"),
  ).action(async (words: string[], options: SearchFlags) => {
    const query: ComponentSearchParams = { limit: parseLimit(options.limit) };
    if (words.length > 0) query.q = words.join(" ");
    if (options.app !== undefined) query.app = options.app;
    if (options.after !== undefined) query.after = options.after;
    if (options.type !== undefined) {
      if (options.type !== "source" && options.type !== "action")
        throw new UsageError(`--type is source or action, got '${options.type}'`);
      query.type = options.type;
    }
    if (options.registry !== "public" && options.registry !== "private" && options.registry !== "all") {
      throw new UsageError(`--registry is public, private or all, got '${String(options.registry)}'`);
    }
    query.registry = options.registry;
    const { client } = clientFor(options);
    const page = await client.searchComponents(query);
    printList(options, page.data, columns, "No component matches.");
    const { total_count: total, count, end_cursor: cursor } = page.page_info;
    if (!options.json && total > count && cursor) {
      process.stderr.write(`Showing ${count} of ${total}; the next page: add --after ${cursor}\n`);
    }
  });

  apiOptions(
    program
      .command("deprecate <key>")
      .description(
        "deprecate a public component, every version or KEY@VERSION: it keeps running where deployed but is not offered for new deploys",
      )
      .option("--undo", "restore it"),
  ).action(async (ref: string, options: ApiCommandOptions & { undo?: boolean }) => {
    const { client } = clientFor(options);
    const changed = await client.deprecatePublic(ref, !options.undo);
    printRecord(
      options,
      changed,
      `${options.undo ? "Restored" : "Deprecated"} ${changed.key}: ${changed.versions.join(", ")}.`,
    );
  });
}

function parseLimit(text: string): number {
  const count = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(count >= 1 && count <= 100)) throw new UsageError(`-n takes a count from 1 to 100, got '${text}'`);
  return count;
}

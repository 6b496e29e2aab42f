/**
 * `sluice search [WORDS…]` finds components (the latest version of each key) in the account's
 * published components and the server's public registry; `sluice deprecate KEY[@VERSION]` takes a
 * public component out of new deploys (its publisher or an admin); `sluice registry import
 * FOLDER|npm:SPEC` publishes every component of a Pipedream-layout package.
 */
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import type { ComponentSearchParams, ImportedComponent, ListedComponent } from "../../client/types.js";
import { type ApiCommandOptions, apiOptions, clientFor, commandGroup, parseCount } from "../context.js";
import { type Column, fieldColumns, formatTime, printList, printRecord, UsageError } from "../output.js";
import { type PageFlags, pageOptions } from "../paging.js";
import { withSpinner } from "../terminal.js";

const columns: readonly Column<ListedComponent>[] = [
  ...fieldColumns<ListedComponent>("key", "version", "type", "registry", "name"),
  ["published", (listed) => formatTime(listed.published_at)],
];

interface SearchFlags extends PageFlags {
  app?: string;
  type?: string;
  registry?: string;
}

export function registerRegistry(program: Command): void {
  apiOptions(
    pageOptions(
      program
        .command("search [words...]")
        .description(
          "search components by words of their key, name or description, in your account and the public registry",
        )
        .option("--app <slug>", "only components of this app")
        .option("--type <type>", "source or action")
        .option("--registry <registry>", "public, private or all", "all"),
      "20",
    ),
  ).action(async (words: string[], options: SearchFlags) => {
    const query: ComponentSearchParams = { limit: parseCount(options.limit) };
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

/** The files of a local package folder the server needs: code and JSON, without node_modules or dot folders. */
function packageFiles(folder: string): Record<string, string> {
  const files: Record<string, string> = {};
  const walk = (dir: string, prefix: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      if (entry.name === "node_modules" || entry.name.startsWith(".")) continue;
      const full = path.join(dir, entry.name);
      const name = prefix === "" ? entry.name : `${prefix}/${entry.name}`;
      if (entry.isDirectory()) walk(full, name);
      else if (entry.isFile() && /\.(mjs|cjs|js|ts|json)$/.test(entry.name))
        files[name] = fs.readFileSync(full, "utf8");
    }
  };
  walk(folder, "");
  return files;
}

const IMPORT_POLL_MS = 500;

const importColumns: readonly Column<ImportedComponent>[] = [
  ["status", (row) => row.status],
  ["component", (row) => (row.key === null ? row.file : `${row.key}@${row.version ?? "?"}`)],
  ["reason", (row) => row.reason ?? ""],
];

export function registerRegistryImport(program: Command): void {
  const registry = commandGroup(program, "registry", "the server's registries");
  apiOptions(
    registry
      .command("import <package>")
      .description(
        "publish every source and action of a Pipedream-layout package: a local folder, or npm:<package>@<version> fetched by the server",
      )
      .option("--public", "into the public registry (admins only); by default the account's private one"),
  ).action(async (target: string, options: ApiCommandOptions & { public?: boolean }) => {
    const input: { npm?: string; files?: Record<string, string>; registry: "public" | "private" } = {
      registry: options.public ? "public" : "private",
    };
    if (target.startsWith("npm:")) input.npm = target;
    else {
      const stat = fs.statSync(target, { throwIfNoEntry: false });
      if (!stat?.isDirectory())
        throw new UsageError(`${target} is not a folder; give a package folder or npm:<package>@<version>`);
      input.files = packageFiles(target);
    }
    const { client } = clientFor(options);
    const report = await withSpinner(`Importing ${target}`, async (progress) => {
      let job = await client.startImport(input);
      while (job.status === "running") {
        progress(`${job.components.length} of ${job.total} components`);
        await new Promise((resolve) => setTimeout(resolve, IMPORT_POLL_MS));
        job = await client.getImport(job.id);
      }
      return job;
    });
    if (report.status === "failed") {
      printList(options, report.components, importColumns, "No components were imported.");
      throw new Error(`${report.error ?? "The import failed"} (import ${report.id})`);
    }
    const counts = { published: 0, skipped: 0, failed: 0 };
    for (const row of report.components) counts[row.status]++;
    if (options.json) printRecord(options, report, "");
    else {
      printList(options, report.components, importColumns, "No components.");
      process.stdout.write(
        `${counts.published} published, ${counts.skipped} skipped (already there), ${counts.failed} failed, in the ${report.registry} registry.\n`,
      );
    }
    if (counts.failed > 0) process.exitCode = 2;
  });
}

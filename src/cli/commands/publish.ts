/**
 * `sluice publish FILE`, `sluice unpublish KEY[@VERSION]` and `sluice list published`: components
 * of the account by key and version, as `pd publish` makes them. A new version keeps the older
 * ones; the same version with other code is refused ("bump the version").
 */
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import type { PublishedComponent } from "../../client/types.js";
import { bundleComponentFile } from "../bundle-file.js";
import { type ApiCommandOptions, apiOptions, clientFor, commandGroup, parseCount } from "../context.js";
import { type Column, fieldColumns, formatTime, printRecord, UsageError } from "../output.js";
import { listCommand, type PageFlags } from "../paging.js";
import { withSpinner } from "../terminal.js";

const URL_TARGET = /^https?:\/\//i;

const columns: readonly Column<PublishedComponent>[] = [
  ...fieldColumns<PublishedComponent>("key", "version", "type", "name", "id"),
  ["published", (published) => formatTime(published.published_at)],
];

export function registerPublish(program: Command): void {
  apiOptions(
    program
      .command("publish <file>")
      .description(
        "publish an action or a source under its key and version (relative imports are bundled; a URL is fetched by the server)",
      )
      .option(
        "--public",
        "publish in the server's public registry, which every account can search and deploy",
      ),
  ).action(async (target: string, options: ApiCommandOptions & { public?: boolean }) => {
    const { client } = clientFor(options);
    const input = URL_TARGET.test(target) ? { component_url: target } : await bundled(target);
    if (options.public) {
      const listed = await withSpinner("Publishing publicly (installing npm packages if needed)", () =>
        client.publishPublic(input),
      );
      printRecord(
        options,
        listed,
        listed.status === "unchanged"
          ? `${listed.key}@${listed.version} was already in the public registry with this code; nothing changed.`
          : `Published ${listed.key}@${listed.version} in the public registry. Any account can deploy it with: sluice ${listed.type === "action" ? "run-action" : "deploy"} ${listed.key}`,
      );
      return;
    }
    const published = await withSpinner("Publishing (installing npm packages if needed)", () =>
      client.publishComponent(input),
    );
    printRecord(
      options,
      options.json ? published : summaryOf(published),
      published.type === "action"
        ? `Published ${published.key}@${published.version}. Run it with: sluice run-action ${published.key}`
        : `Published ${published.key}@${published.version}. Deploy it with: sluice deploy FILE`,
    );
  });

  apiOptions(
    program
      .command("unpublish <key>")
      .description("unpublish every version of a key, or one version: KEY@VERSION")
      .option("--public", "from the public registry (its publisher or an admin)"),
  ).action(async (ref: string, options: ApiCommandOptions & { public?: boolean }) => {
    const { client } = clientFor(options);
    if (options.public) {
      const changed = await client.unpublishPublic(ref);
      printRecord(
        options,
        changed,
        `Unpublished ${changed.key} from the public registry: ${changed.versions.join(", ")}.`,
      );
      return;
    }
    const removed = await client.unpublish(ref);
    printRecord(
      options,
      removed,
      `Unpublished ${removed.key}: ${removed.versions.length === 1 ? "version" : "versions"} ${removed.versions.join(", ")}.`,
    );
  });

  const list = commandGroup(program, "list", "list resources of your account");
  listCommand(
    list
      .command("published")
      .description("list published components, every version, newest first")
      .option("--key <key>", "only the versions of this key"),
    "100",
    async (options: PageFlags & { key?: string }) => {
      const limit = parseCount(options.limit);
      return {
        page: await clientFor(options).client.listPublished({
          limit,
          after: options.after,
          key: options.key,
        }),
        columns,
        empty: "Nothing published yet. Publish a component with: sluice publish FILE",
        next: "sluice list published",
      };
    },
  );
}

async function bundled(file: string): Promise<{ component_code: string; filename: string }> {
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  if (stat?.isDirectory()) throw new UsageError(`${file} is a directory; give the component's file`);
  if (!stat?.isFile()) throw new UsageError(`No such file: ${file}`);
  const component = await withSpinner(`Bundling ${path.basename(file)}`, () => bundleComponentFile(file));
  return { component_code: component.code, filename: component.filename };
}

function summaryOf(published: PublishedComponent) {
  return {
    key: published.key,
    version: published.version,
    type: published.type,
    name: published.name,
    id: published.id,
    published_at: formatTime(published.published_at),
  };
}

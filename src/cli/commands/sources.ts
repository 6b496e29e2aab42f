/** `sluice list sources`, `describe`, `run` and `delete`: a deployed source by dc_ id or name. */
import type { Command } from "commander";
import type { ComponentSummary } from "../../client/types.js";
import { type ApiCommandOptions, apiOptions, clientFor, commandGroup } from "../context.js";
import { type Column, formatTime, printJson, printList } from "../output.js";
import { componentPropsTable, logLine, sourceColumns, sourceTable } from "../source-output.js";

const componentColumns: readonly Column<ComponentSummary>[] = [
  ["id", (component) => component.id],
  ["key", (component) => component.key],
  ["name", (component) => component.name],
  ["version", (component) => component.version],
  ["type", (component) => component.type],
  ["saved", (component) => formatTime(component.created_at)],
];

export function registerSources(program: Command): void {
  const list = commandGroup(program, "list", "list resources of your account");
  apiOptions(
    list
      .command("sources")
      .description("list deployed sources, newest first")
      .option("-n, --limit <count>", "how many (1-100)", "100")
      .option("--after <cursor>", "page after this id"),
  ).action(async (options: ApiCommandOptions & { limit: string; after?: string }) => {
    const { client } = clientFor(options);
    const page = await client.listSources({ limit: Number(options.limit), after: options.after });
    printList(options, page.data, sourceColumns, "No sources yet. Deploy one with: sluice deploy FILE");
    const { total_count: total, count, end_cursor: cursor } = page.page_info;
    if (!options.json && total > count && count === Number(options.limit) && cursor) {
      process.stderr.write(
        `Showing ${count} of ${total}; the next page: sluice list sources --after ${cursor}\n`,
      );
    }
  });
  apiOptions(
    list
      .command("components")
      .description("list saved components, newest first")
      .option("-n, --limit <count>", "how many (1-100)", "100")
      .option("--after <cursor>", "page after this id"),
  ).action(async (options: ApiCommandOptions & { limit: string; after?: string }) => {
    const { client } = clientFor(options);
    const page = await client.listComponents({ limit: Number(options.limit), after: options.after });
    printList(
      options,
      page.data,
      componentColumns,
      "No components yet. Deploy or publish one with: sluice deploy FILE",
    );
  });

  apiOptions(
    program
      .command("describe <source>")
      .description("show a source (by dc_ id or name) and its component's props"),
  ).action(async (ref: string, options: ApiCommandOptions) => {
    const { client } = clientFor(options);
    const source = await client.getSource(ref);
    const component = await client.getComponent(source.component_id);
    if (options.json) {
      printJson({ source, component });
      return;
    }
    const version = component.version ? ` ${component.version}` : "";
    process.stdout.write(
      `${sourceTable(source)}\n\nComponent ${component.name}${version} (${component.id}):\n` +
        `${componentPropsTable(component, source.configured_props)}\n`,
    );
  });

  apiOptions(program.command("run <source>").description("run a source now, as its timer would")).action(
    async (ref: string, options: ApiCommandOptions) => {
      const { client } = clientFor(options);
      const result = await client.runSource(ref);
      // A failed run is a failed command, also with --json, so that scripts notice.
      if (!result.ok) process.exitCode = 1;
      if (options.json) {
        printJson(result);
        return;
      }
      const outcome = result.ok
        ? `Run ok in ${Math.round(result.duration_ms)} ms`
        : `Run failed (${result.failure?.reason ?? "error"}): ${result.failure?.message ?? "unknown error"}`;
      const events =
        result.events.length === 0
          ? "No events emitted."
          : `Emitted ${result.events.length} event${result.events.length === 1 ? "" : "s"}: ${result.events.join(", ")}`;
      const logs = result.logs.length === 0 ? "No logs." : `Logs:\n${result.logs.map(logLine).join("\n")}`;
      process.stdout.write(`${outcome} (invocation ${result.invocation_id})\n${events}\n${logs}\n`);
    },
  );

  apiOptions(
    program.command("delete <source>").description("delete a source (its deactivate hook runs first)"),
  ).action(async (ref: string, options: ApiCommandOptions) => {
    const { client } = clientFor(options);
    const deleted = await client.deleteSource(ref);
    if (options.json) printJson(deleted);
    else process.stdout.write(`Deleted source ${deleted.id}\n`);
  });
}

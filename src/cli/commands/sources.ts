/** `sluice list sources`, `describe`, `run` and `delete`: a deployed source by dc_ id or name. */
import type { Command } from "commander";
import type { ComponentSummary } from "../../client/types.js";
import { type ApiCommandOptions, apiOptions, clientFor, commandGroup } from "../context.js";
import { type Column, fieldColumns, formatTime, printJson, printOutcome } from "../output.js";
import { listCommand, pageParams } from "../paging.js";
import { componentPropsTable, logLine, sourceColumns, sourceTable } from "../source-output.js";

const componentColumns: readonly Column<ComponentSummary>[] = [
  ...fieldColumns<ComponentSummary>("id", "key", "name", "version", "type"),
  ["saved", (component) => formatTime(component.created_at)],
];

export function registerSources(program: Command): void {
  const list = commandGroup(program, "list", "list resources of your account");
  listCommand(
    list.command("sources").description("list deployed sources, newest first"),
    "100",
    async (options) => ({
      page: await clientFor(options).client.listSources(pageParams(options)),
      columns: sourceColumns,
      empty: "No sources yet. Deploy one with: sluice deploy FILE",
      next: "sluice list sources",
    }),
  );
  listCommand(
    list.command("components").description("list saved components, newest first"),
    "100",
    async (options) => ({
      page: await clientFor(options).client.listComponents(pageParams(options)),
      columns: componentColumns,
      empty: "No components yet. Deploy or publish one with: sluice deploy FILE",
    }),
  );

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
      const outcome = result.ok
        ? `Run ok in ${Math.round(result.duration_ms)} ms`
        : `Run failed (${result.failure?.reason ?? "error"}): ${result.failure?.message ?? "unknown error"}`;
      const events =
        result.events.length === 0
          ? "No events emitted."
          : `Emitted ${result.events.length} event${result.events.length === 1 ? "" : "s"}: ${result.events.join(", ")}`;
      const logs = result.logs.length === 0 ? "No logs." : `Logs:\n${result.logs.map(logLine).join("\n")}`;
      printOutcome(options, result, `${outcome} (invocation ${result.invocation_id})\n${events}\n${logs}`);
    },
  );

  apiOptions(
    program.command("delete <source>").description("delete a source (its deactivate hook runs first)"),
  ).action(async (ref: string, options: ApiCommandOptions) => {
    const { client } = clientFor(options);
    const deleted = await client.deleteSource(ref);
    printOutcome(options, deleted, `Deleted source ${deleted.id}`);
  });
}

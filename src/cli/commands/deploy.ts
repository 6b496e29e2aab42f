/** `sluice deploy FILE|KEY|URL` and `sluice update SOURCE`: deployed sources from code and props. */
import type { Command } from "commander";
import type { SourceParams } from "../../client/types.js";
import { saveFile, saveTarget } from "../component-target.js";
import { type ApiCommandOptions, apiOptions, clientFor } from "../context.js";
import { UsageError } from "../output.js";
import { askForMissingProps } from "../prompt-props.js";
import { configuredPropsFrom, propOptions } from "../props.js";
import { printSource } from "../source-output.js";
import { isInteractive, withSpinner } from "../terminal.js";

interface SourceFlags extends ApiCommandOptions {
  name?: string;
  prop?: string[];
  propsFile?: string;
  timeout?: string;
  dynamicPropsId?: string;
}

interface UpdateFlags extends SourceFlags {
  code?: string;
  activate?: boolean;
  deactivate?: boolean;
}

/** The options deploy and update share. */
function sourceOptions(command: Command): Command {
  return apiOptions(
    propOptions(
      command.option("--name <name>", "the source's name (its slug identifies it: sluice events <slug>)"),
      "component",
    ).option("--timeout <seconds>", "longest one invocation may run, in seconds (1-900)"),
  );
}

export function registerDeploy(program: Command): void {
  sourceOptions(
    program
      .command("deploy <component>")
      .description(
        "deploy a source from a local file (its relative imports are bundled), a component key, or an http(s) URL",
      ),
  ).action(async (target: string, options: SourceFlags) => {
    const { client } = clientFor(options);
    const given = configuredPropsFrom(options.prop, options.propsFile);
    const timeout = timeoutSeconds(options.timeout);
    const component = await saveTarget(client, target);
    const configured = { ...given, ...(await askForMissingProps(client, component, given)) };
    const source = await withSpinner(`Deploying ${component.name}`, () =>
      client.deploySource({
        component_id: component.id,
        name: options.name,
        configured_props: configured,
        timeout_seconds: timeout,
        dynamic_props_id: options.dynamicPropsId,
      }),
    );
    printSource(options, source);
  });

  sourceOptions(
    program
      .command("update <source>")
      .description(
        "update a source (by dc_ id or name): its code, name, props, time-out or state; the id is kept",
      )
      .option("--code <file>", "new code from a local file (its relative imports are bundled)")
      .option("--activate", "activate the source")
      .option("--deactivate", "deactivate the source: it stops running until activated"),
  ).action(async (ref: string, options: UpdateFlags) => {
    if (options.activate && options.deactivate)
      throw new UsageError("Pass --activate or --deactivate, not both");
    const { client } = clientFor(options);
    const given = configuredPropsFrom(options.prop, options.propsFile);
    const input: SourceParams = {
      name: options.name,
      timeout_seconds: timeoutSeconds(options.timeout),
      dynamic_props_id: options.dynamicPropsId,
    };
    if (options.activate) input.active = true;
    if (options.deactivate) input.active = false;
    let configured = given;
    if (options.code !== undefined) {
      const current = isInteractive() ? await client.getSource(ref) : undefined;
      const component = await saveFile(client, options.code);
      input.component_id = component.id;
      configured = {
        ...given,
        ...(await askForMissingProps(client, component, given, current?.configured_props)),
      };
    }
    if (Object.keys(configured).length > 0) input.configured_props = configured;
    if (Object.values(input).every((value) => value === undefined)) {
      throw new UsageError(
        "Nothing to update: pass --code, --name, --prop, --props-file, --dynamic-props-id, --timeout, --activate or --deactivate",
      );
    }
    printSource(options, await withSpinner("Updating", () => client.updateSource(ref, input)));
  });
}

function timeoutSeconds(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text.trim()))
    throw new UsageError(`--timeout takes whole seconds (1-900), got '${text}'`);
  return Number(text);
}

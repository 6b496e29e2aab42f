/**
 * Asks a person at a terminal for the required props a deploy is missing, one prompt per prop in
 * the form that suits its type: hidden input for secrets, a choice for static options, yes/no
 * for booleans, JSON for objects and arrays, and a schedule for timers.
 */
import { confirm, isCancel, password, select, text } from "@clack/prompts";
import type { SluiceClient } from "../client/client.js";
import type { Component, ConfigurableProp } from "../client/types.js";
import { UsageError } from "./output.js";
import { type PromptContext, promptForAppProp, promptForRemoteOptions } from "./prompt-dynamic.js";
import { type ConfiguredProps, missingRequiredProps } from "./props.js";
import { isInteractive } from "./terminal.js";

/**
 * On a terminal, asks for the props still without a value: the required ones, and app props
 * (pick or connect an account); options come live from the component. Elsewhere it asks nothing
 * and the API says what is missing.
 */
export async function askForMissingProps(
  client: SluiceClient,
  component: Component,
  given: ConfiguredProps,
  configured?: ConfiguredProps,
): Promise<ConfiguredProps> {
  if (!isInteractive()) return {};
  const missing = missingRequiredProps(component.configurable_props, given, configured, { apps: true });
  if (missing.length === 0) return {};
  return promptForProps(missing, {
    client,
    componentId: component.id,
    configured: { ...(configured ?? {}), ...given },
  });
}

type OptionValue = string | number | boolean;

/**
 * The values typed in, by prop name; throws a UsageError when the person cancels. With a context,
 * app props and props with the component's own options are asked too, in order, each with the
 * values given before it.
 */
export async function promptForProps(
  props: readonly ConfigurableProp[],
  context?: PromptContext,
): Promise<ConfiguredProps> {
  const values: ConfiguredProps = {};
  for (const prop of props) {
    const dynamic = context ? { ...context, configured: { ...context.configured, ...values } } : undefined;
    if (dynamic && prop.type === "app") values[prop.name] = await promptForAppProp(prop, dynamic);
    else if (dynamic && prop.remoteOptions === true)
      values[prop.name] = await promptForRemoteOptions(prop, dynamic);
    else values[prop.name] = await promptForProp(prop);
  }
  return values;
}

async function promptForProp(prop: ConfigurableProp): Promise<unknown> {
  const label = prop.label ?? prop.name;
  const message = prop.description
    ? `${label} (${prop.type}): ${prop.description}`
    : `${label} (${prop.type})`;
  const output = process.stderr;
  if (Array.isArray(prop.options) && prop.options.length > 0 && !prop.type.endsWith("[]")) {
    return answered(await select<OptionValue>({ message, output, options: prop.options.map(toOption) }));
  }
  switch (prop.type) {
    case "boolean":
      return answered(await confirm({ message, output }));
    case "integer":
      return answered(await text({ message, output, validate: (value) => integerProblem(prop, value) }));
    case "$.interface.timer": {
      const schedule = answered(
        await text({
          message: `${label}: run every N seconds, or a cron expression such as */15 * * * *`,
          output,
          validate: (value) => (value?.trim() ? undefined : "a schedule is required"),
        }),
      ).trim();
      return /^\d+$/.test(schedule) ? { intervalSeconds: Number(schedule) } : { cron: schedule };
    }
    case "object":
    case "string[]":
    case "integer[]":
    case "boolean[]": {
      const answer = answered(
        await (prop.secret ? password : text)({
          message: `${message}, as JSON${prop.type === "string[]" ? " or comma-separated" : ""}`,
          output,
          validate: (value) => jsonProblem(prop, value),
        }),
      );
      return parseListOrJson(prop, answer);
    }
    default:
      return answered(
        await (prop.secret ? password : text)({
          message,
          output,
          validate: (value) => (value ? undefined : "a value is required"),
        }),
      );
  }
}

function answered<T>(value: T): Exclude<T, symbol> {
  if (isCancel(value)) throw new UsageError("Cancelled; nothing was changed.");
  return value as Exclude<T, symbol>;
}

function toOption(option: unknown): { value: OptionValue; label: string } {
  if (typeof option === "object" && option !== null && "value" in option) {
    const { value, label } = option as { value: OptionValue; label?: string };
    return { value, label: label ?? String(value) };
  }
  return { value: option as OptionValue, label: String(option) };
}

function integerProblem(prop: ConfigurableProp, value: string | undefined): string | undefined {
  if (!value || !/^-?\d+$/.test(value.trim())) return "enter a whole number";
  const number = Number(value);
  if (prop.min !== undefined && number < prop.min) return `at least ${prop.min}`;
  if (prop.max !== undefined && number > prop.max) return `at most ${prop.max}`;
  return undefined;
}

function jsonProblem(prop: ConfigurableProp, value: string | undefined): string | undefined {
  if (!value?.trim()) return "a value is required";
  try {
    parseListOrJson(prop, value);
    return undefined;
  } catch {
    return prop.type === "object" ? 'enter a JSON object, such as {"key": "value"}' : "enter a JSON array";
  }
}

function parseListOrJson(prop: ConfigurableProp, value: string): unknown {
  const trimmed = value.trim();
  if (prop.type === "string[]" && !trimmed.startsWith("["))
    return trimmed.split(",").map((item) => item.trim());
  const parsed: unknown = JSON.parse(trimmed);
  const fits =
    prop.type === "object"
      ? typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)
      : Array.isArray(parsed);
  if (!fits) throw new Error("wrong shape");
  return parsed;
}

/**
 * Asks a person at a terminal for the required props a deploy is missing, one prompt per prop in
 * the form that suits its type: hidden input for secrets, a choice for static options, yes/no
 * for booleans, JSON for objects and arrays, and a schedule for timers.
 */
import { confirm, isCancel, password, select, text } from "@clack/prompts";
import type { ConfigurableProp } from "../client/types.js";
import { UsageError } from "./output.js";
import type { ConfiguredProps } from "./props.js";

type OptionValue = string | number | boolean;

/** The values typed in, by prop name; throws a UsageError when the person cancels. */
export async function promptForProps(props: readonly ConfigurableProp[]): Promise<ConfiguredProps> {
  const values: ConfiguredProps = {};
  for (const prop of props) values[prop.name] = await promptForProp(prop);
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

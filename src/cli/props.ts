/**
 * Configured props from the command line: `--prop k=v` (repeatable) and `--props-file F` (a JSON
 * object), and which required props of a component are still without a value. Values stay text
 * unless they are a JSON object or array: the server coerces the text forms of integers, booleans,
 * objects and arrays against each prop's type, and says which prop is wrong.
 */
import fs from "node:fs";
import type { Command } from "commander";
import type { ConfigurableProp } from "../client/types.js";
import { UsageError } from "./output.js";

export type ConfiguredProps = Record<string, unknown>;

/** Commander's collector for a repeatable `--prop k=v`. */
export function collectProp(value: string, previous: string[] = []): string[] {
  return [...previous, value];
}

/** The props of `--props-file` overlaid with those of `--prop` (flags win). */
export function configuredPropsFrom(flags: readonly string[] = [], file?: string): ConfiguredProps {
  const props: ConfiguredProps = file === undefined ? {} : readPropsFile(file);
  for (const flag of flags) {
    const equals = flag.indexOf("=");
    if (equals <= 0) throw new UsageError(`--prop takes name=value, got '${flag}'`);
    props[flag.slice(0, equals)] = propValue(flag.slice(equals + 1));
  }
  return props;
}

function propValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
    try {
      const parsed: unknown = JSON.parse(trimmed);
      if (typeof parsed === "object" && parsed !== null) return parsed;
    } catch {
      // Not JSON after all: sent as text, and the server says if the prop wanted something else.
    }
  }
  return text;
}

function readPropsFile(file: string): ConfiguredProps {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    throw new UsageError(`--props-file ${file} cannot be read: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--props-file ${file} is not valid JSON: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw new UsageError(
      `--props-file ${file} must hold a JSON object of prop values, such as {"name": "value"}`,
    );
  }
  return parsed as ConfiguredProps;
}

/** Prop types a person can type a value for. */
const TYPED_IN = new Set([
  "string",
  "integer",
  "boolean",
  "object",
  "string[]",
  "integer[]",
  "boolean[]",
  "$.interface.timer",
]);

/**
 * The props the server would refuse as missing: required (not optional, no default), of a type a
 * person can type in, and given no value here nor already configured (`configured`, on update).
 * With `apps`, app props that are not optional too (the server accepts them unset, but the
 * component then runs without credentials).
 */
export function missingRequiredProps(
  props: readonly ConfigurableProp[],
  given: ConfiguredProps,
  configured: ConfiguredProps = {},
  options: { apps?: boolean } = {},
): ConfigurableProp[] {
  const needed = (prop: ConfigurableProp) =>
    requiresValue(prop) === true || (options.apps === true && prop.type === "app" && prop.optional !== true);
  return props.filter(
    (prop) => needed(prop) && !hasValue(given[prop.name]) && !hasValue(configured[prop.name]),
  );
}

/** Whether a deploy must give the prop a value; undefined for props that take none (interfaces, db, apps). */
export function requiresValue(prop: ConfigurableProp): boolean | undefined {
  if (!TYPED_IN.has(prop.type)) return undefined;
  if (prop.type === "$.interface.timer" && prop.static !== undefined) return undefined;
  return prop.optional !== true && prop.default === undefined;
}

function hasValue(value: unknown): boolean {
  return value !== undefined && value !== null && value !== "";
}

/** --prop, --props-file and --dynamic-props-id, the options that configure a component's props. */
export function propOptions(command: Command, subject: "component" | "action"): Command {
  return command
    .option(
      "--prop <name=value>",
      "a prop's value; repeat for each prop (JSON objects and arrays are parsed)",
      collectProp,
    )
    .option("--props-file <file>", "a JSON object of prop values (--prop wins over it)")
    .option(
      "--dynamic-props-id <dyp_id>",
      `the ${subject}'s additional props, from POST /v1/components/props (its dynamicProps.id)`,
    );
}

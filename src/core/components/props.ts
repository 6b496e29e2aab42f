/**
 * Props: the rules of SPEC.md's prop tables. `checkDefinition` validates what a component declares
 * (at save time); `configureProps` validates what a user configures (at deploy and update) and
 * returns the values to store. Every error names the prop and says what to change.
 */
import type {
  ComponentDefinition,
  ComponentType,
  PropDefinition,
} from "../../runtime/component-definition.js";
import { InvalidInputError } from "../errors.js";
import { scheduleProblem } from "../sources/timers/schedule.js";
import { checkJsonDepth } from "../validation.js";
import { normalizeHttpRequest } from "./http-request-prop.js";

/** SPEC.md: a configured value may be at most 64 KB. */
export const MAX_CONFIGURED_VALUE_BYTES = 64 * 1024;

const SCALAR_TYPES = new Set(["string", "integer", "boolean"]);
const ARRAY_TYPES = new Set(["string[]", "integer[]", "boolean[]"]);
const SOURCE_ONLY = new Set(["$.interface.http", "$.interface.timer"]);
/**
 * Props of Pipedream's component API that take no configured value: `alert` is display only
 * (`alertType`, `content`); `dir` is the component's writable directory; `$.interface.apphook`
 * (sources) subscribes to an app's events, a service that exists only at Pipedream.
 */
const NO_VALUE = new Set(["alert", "dir", "$.interface.apphook"]);
/**
 * Types whose service (a picker, a typed id) exists only at Pipedream: accepted, described in
 * configurable_props as declared, and configured as their base type.
 */
export const BASE_TYPES: Readonly<Record<string, string>> = {
  "$.discord.channel": "string",
  "$.discord.channel[]": "string[]",
  "$.airtable.baseId": "string",
  "$.airtable.tableId": "string",
  "$.airtable.viewId": "string",
  "$.airtable.fieldId": "string",
};
const KNOWN_TYPES = new Set([
  ...SCALAR_TYPES,
  ...ARRAY_TYPES,
  ...SOURCE_ONLY,
  "$.service.db",
  ...NO_VALUE,
  ...Object.keys(BASE_TYPES),
  "object",
  "any",
  "app",
  "sql",
  "data_store",
  "http_request",
]);

function propError(prop: string, problem: string): InvalidInputError {
  return new InvalidInputError(`prop '${prop}': ${problem}`, "invalid_prop");
}

/** Validates every prop of a described component against SPEC.md's tables. */
export function checkDefinition(definition: ComponentDefinition): void {
  // Stored as text columns, which cannot hold NUL on PostgreSQL (and no name needs one).
  for (const field of ["name", "key", "version", "description"] as const) {
    if (definition[field]?.includes("\u0000")) {
      throw new InvalidInputError(
        `The component's ${field} contains the NUL character (\\u0000): remove it`,
        "invalid_component",
      );
    }
  }
  for (const prop of definition.props) checkPropDefinition(prop, definition.type);
  if (definition.dedupe !== undefined && !["unique", "greatest", "last"].includes(definition.dedupe)) {
    throw new InvalidInputError(
      `dedupe must be unique, greatest or last, not '${definition.dedupe}'`,
      "invalid_component",
    );
  }
  if (definition.type === "action" && definition.dedupe !== undefined) {
    throw new InvalidInputError("dedupe applies to sources only", "invalid_component");
  }
}

function checkPropDefinition(prop: PropDefinition, componentType: ComponentType): void {
  const { name, type } = prop;
  if (typeof type !== "string" || !KNOWN_TYPES.has(type)) {
    const hint =
      typeof type === "string" && type.endsWith("[]")
        ? " (arrays exist of string, integer and boolean only)"
        : "";
    throw propError(name, `unknown type '${String(type)}'${hint}; use one of ${[...KNOWN_TYPES].join(", ")}`);
  }
  if (type === "any" && componentType !== "action")
    throw propError(name, "type 'any' is allowed in actions only");
  if ((SOURCE_ONLY.has(type) || type === "$.interface.apphook") && componentType !== "source")
    throw propError(name, `type '${type}' is allowed in sources only`);
  if (type === "app" && (typeof prop.app !== "string" || prop.app === "")) {
    throw propError(name, "an app prop needs 'app', the app's name slug");
  }
  for (const field of ["label", "description"] as const) {
    if (prop[field] !== undefined && typeof prop[field] !== "string")
      throw propError(name, `${field} must be a string`);
  }
  for (const field of [
    "optional",
    "secret",
    "useQuery",
    "reloadProps",
    "withLabel",
    "customResponse",
  ] as const) {
    if (prop[field] !== undefined && typeof prop[field] !== "boolean")
      throw propError(name, `${field} must be true or false`);
  }
  const base = BASE_TYPES[type] ?? type;
  if (prop.secret && base !== "string" && base !== "string[]")
    throw propError(name, "secret is allowed on string props only");
  if (prop.customResponse !== undefined && type !== "$.interface.http") {
    throw propError(name, "customResponse belongs to $.interface.http props only");
  }
  checkBounds(prop);
  if (prop.options !== undefined) checkStaticOptions(prop);
  if (type === "$.interface.timer") {
    if (prop.default !== undefined) checkSchedule(name, prop.default, "default");
    if (prop.static !== undefined) checkSchedule(name, prop.static, "static");
    return;
  }
  // As on Pipedream, a default on a required prop is used when no value is given.
  if (prop.default !== undefined) coerceValue(prop, prop.default, "default");
}

function checkBounds(prop: PropDefinition): void {
  const { name, type } = prop;
  for (const field of ["min", "max"] as const) {
    const bound = prop[field];
    if (bound === undefined) continue;
    if (type !== "integer" && type !== "integer[]")
      throw propError(name, `${field} is allowed on integer props only`);
    if (!Number.isInteger(bound)) throw propError(name, `${field} must be an integer`);
  }
  if (prop.min !== undefined && prop.max !== undefined && prop.min > prop.max) {
    throw propError(name, `min (${prop.min}) is greater than max (${prop.max})`);
  }
}

function checkStaticOptions(prop: PropDefinition): void {
  if (!Array.isArray(prop.options)) throw propError(prop.name, "options must be an array or a method");
  for (const option of prop.options) {
    const isValue = ["string", "number", "boolean"].includes(typeof option);
    const isLabelled = typeof option === "object" && option !== null && "value" in option;
    if (!isValue && !isLabelled) throw propError(prop.name, "each option must be a value or {label, value}");
  }
}

/** A timer schedule: `{ intervalSeconds }` (at least 1) or `{ cron }`, with an optional `timezone`. */
export function checkSchedule(prop: string, schedule: unknown, field = "value"): void {
  const problem = scheduleProblem(schedule);
  if (problem) throw propError(prop, `the timer ${field} is invalid: ${problem}`);
}

/**
 * Checks configured values against the props and returns what to store: each configurable
 * prop's value (or its default). Interfaces, db and display props take no configured value,
 * except a timer's schedule.
 */
export function configureProps(
  definition: ComponentDefinition,
  configured: unknown,
): Record<string, unknown> {
  if (configured === undefined || configured === null) configured = {};
  if (typeof configured !== "object" || Array.isArray(configured)) {
    throw new InvalidInputError("configured_props must be an object of prop values", "invalid_prop");
  }
  const input = configured as Record<string, unknown>;
  const byName = new Map(definition.props.map((prop) => [prop.name, prop]));
  for (const name of Object.keys(input)) {
    if (!byName.has(name)) {
      const known = definition.props.map((prop) => prop.name).join(", ") || "none";
      throw propError(name, `the component has no such prop (its props: ${known})`);
    }
  }
  const values: Record<string, unknown> = {};
  for (const prop of definition.props) {
    const value = configureProp(prop, input[prop.name]);
    if (value !== undefined) values[prop.name] = value;
  }
  return values;
}

function configureProp(declared: PropDefinition, given: unknown): unknown {
  const base = BASE_TYPES[declared.type];
  const prop = base === undefined ? declared : { ...declared, type: base };
  const { name, type } = prop;
  if (given !== undefined && given !== null) checkSize(name, given);
  if (NO_VALUE.has(type)) return undefined;
  switch (type) {
    case "$.interface.http":
    case "$.service.db":
      return undefined;
    case "app":
      // {"authProvisionId": "apn_…"} (a connected account, checked by core/apps), or inline $auth fields.
      if (given === undefined || given === null) return undefined;
      if (typeof given !== "object" || Array.isArray(given))
        throw propError(
          name,
          'an app prop\'s value is {"authProvisionId": "apn_…"} (a connected account) or an object of $auth fields',
        );
      if ("authProvisionId" in given) {
        const ref = (given as Record<string, unknown>).authProvisionId;
        if (typeof ref !== "string" || !ref.startsWith("apn_") || Object.keys(given).length !== 1)
          throw propError(name, '{"authProvisionId": …} takes one connected account id, apn_…');
        return { authProvisionId: ref };
      }
      return given;
    case "$.interface.timer": {
      if (prop.static !== undefined) {
        if (given !== undefined && given !== null)
          throw propError(name, "this timer's schedule is static and cannot be configured");
        return prop.static;
      }
      const schedule = given ?? prop.default;
      if (schedule === undefined)
        throw propError(name, 'a schedule is required: {"intervalSeconds": N} or {"cron": "…"}');
      const parsed = typeof schedule === "string" ? parseJson(name, schedule) : schedule;
      checkSchedule(name, parsed);
      return parsed;
    }
  }
  if (given === undefined || given === null || given === "") {
    if (prop.default !== undefined) return prop.default;
    if (prop.optional) return undefined;
    throw propError(name, `a value is required (${describeType(prop)})`);
  }
  return coerceValue(prop, given, "value");
}

/** The value as the prop's type, accepting the text forms the CLI sends (`--prop n=5`). */
function coerceValue(prop: PropDefinition, value: unknown, what: string): unknown {
  const { name, type } = prop;
  if (type.endsWith("[]")) {
    const list = typeof value === "string" ? parseJson(name, value) : value;
    if (!Array.isArray(list)) throw propError(name, `the ${what} must be an array (${describeType(prop)})`);
    const element = { ...prop, type: type.slice(0, -2) };
    return list.map((item) => coerceValue(element, item, `${what} item`));
  }
  switch (type) {
    case "string":
      if (typeof value !== "string") throw propError(name, `the ${what} must be a string`);
      checkOption(prop, value);
      return value;
    case "integer": {
      const number = typeof value === "string" && /^-?\d+$/.test(value.trim()) ? Number(value) : value;
      if (typeof number !== "number" || !Number.isInteger(number))
        throw propError(name, `the ${what} must be an integer`);
      if (prop.min !== undefined && number < prop.min)
        throw propError(name, `the ${what} ${number} is below the minimum ${prop.min}`);
      if (prop.max !== undefined && number > prop.max)
        throw propError(name, `the ${what} ${number} is above the maximum ${prop.max}`);
      checkOption(prop, number);
      return number;
    }
    case "boolean":
      if (value === "true" || value === "false") return value === "true";
      if (typeof value !== "boolean") throw propError(name, `the ${what} must be true or false`);
      return value;
    case "data_store": {
      // A store of the account: its ds_ id or its name (created on first use), or {dataStoreId}.
      const ref =
        typeof value === "object" && value !== null && !Array.isArray(value)
          ? (value as Record<string, unknown>).dataStoreId
          : value;
      if (typeof ref !== "string" || ref.trim() === "" || ref.length > 100)
        throw propError(name, `the ${what} must name a data store: its ds_ id or its name`);
      return ref.trim();
    }
    case "http_request":
      return normalizeHttpRequest(name, value);
    case "sql": {
      // A query as text, or Pipedream's object form ({ query, params }).
      if (typeof value === "string") return value;
      if (typeof value !== "object" || value === null || Array.isArray(value))
        throw propError(name, `the ${what} must be a SQL query, as text or {query, params}`);
      if (typeof (value as Record<string, unknown>).query !== "string")
        throw propError(name, `the ${what}'s query must be a string`);
      return value;
    }
    case "object": {
      const object = typeof value === "string" ? parseJson(name, value) : value;
      if (typeof object !== "object" || object === null || Array.isArray(object)) {
        throw propError(name, `the ${what} must be an object`);
      }
      return object;
    }
    default:
      return value;
  }
}

function checkOption(prop: PropDefinition, value: unknown): void {
  if (!Array.isArray(prop.options)) return;
  const allowed = prop.options.map((option) =>
    typeof option === "object" && option !== null ? (option as { value: unknown }).value : option,
  );
  if (!allowed.some((candidate) => candidate === value)) {
    throw propError(
      prop.name,
      `${JSON.stringify(value)} is not one of the options: ${allowed.map((v) => JSON.stringify(v)).join(", ")}`,
    );
  }
}

function checkSize(name: string, value: unknown): void {
  const text = typeof value === "string" ? value : JSON.stringify(value);
  if (text !== undefined && Buffer.byteLength(text) > MAX_CONFIGURED_VALUE_BYTES) {
    throw propError(name, `the value is larger than ${MAX_CONFIGURED_VALUE_BYTES / 1024} KB`);
  }
}

function parseJson(name: string, text: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    throw propError(name, `'${text.slice(0, 60)}' is not valid JSON`);
  }
  checkJsonDepth(value, `prop '${name}'`);
  return value;
}

function describeType(prop: PropDefinition): string {
  const bounds = [
    prop.min !== undefined ? `min ${prop.min}` : "",
    prop.max !== undefined ? `max ${prop.max}` : "",
  ]
    .filter(Boolean)
    .join(", ");
  return bounds ? `${prop.type}, ${bounds}` : prop.type;
}

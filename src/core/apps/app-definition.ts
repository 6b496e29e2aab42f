/**
 * An app's auth half, as Sluice keeps it (never in component code): its auth type and, for a
 * `keys` app, the fields a connected account holds. Parsed from REST bodies and app files alike,
 * with errors that name the field to fix. An app slug nothing registers is an open `keys` app:
 * its connected accounts hold any object of strings, numbers and booleans.
 */
import { InvalidInputError } from "../errors.js";
import { clientSecretOf, type OAuthSettings, parseOAuthSettings } from "./oauth-settings.js";

export type AuthType = "keys" | "oauth" | "none";

export interface AppField {
  readonly name: string;
  readonly label?: string;
  readonly description?: string;
  readonly secret: boolean;
  readonly optional: boolean;
}

export interface AppDefinition {
  readonly slug: string;
  readonly name: string;
  readonly authType: AuthType;
  /**
   * The fields of a keys app (the custom fields of an oauth app, beside its tokens); null for an
   * unregistered (open) keys app, which takes any fields.
   */
  readonly fields: readonly AppField[] | null;
  /** The OAuth settings of an oauth app; null for other apps. */
  readonly oauth: OAuthSettings | null;
  /** "server" when an admin registered it for every account; "account" when an account did; "implicit" when nobody did. */
  readonly scope: "server" | "account" | "implicit";
}

const SLUG = /^[a-z0-9][a-z0-9_-]{0,99}$/;
const FIELD_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,99}$/;
const MAX_FIELDS = 50;
const MAX_TEXT = 1000;

export function checkSlug(value: unknown, field = "slug"): string {
  if (typeof value !== "string" || !SLUG.test(value)) {
    throw new InvalidInputError(
      `${field} must be an app's name slug: lower-case letters, digits, _ and -, at most 100 characters (for example "mysql")`,
      "invalid_app",
    );
  }
  return value;
}

/** The definition of an app nobody registered: a keys app with any fields. */
export function implicitApp(slug: string): AppDefinition {
  return { slug, name: slug, authType: "keys", fields: null, oauth: null, scope: "implicit" };
}

/** Parses `{slug, name?, auth_type, fields?, oauth?}` (REST body or one entry of an app file). */
export function parseAppInput(input: unknown, scope: "server" | "account"): AppDefinition {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new InvalidInputError("An app is an object: {slug, name, auth_type, fields}", "invalid_app");
  }
  const body = input as Record<string, unknown>;
  const slug = checkSlug(body.slug);
  const name = body.name === undefined ? slug : text(body.name, "name");
  const authType = body.auth_type;
  if (authType !== "keys" && authType !== "none" && authType !== "oauth") {
    throw new InvalidInputError(`app '${slug}': auth_type must be "keys", "oauth" or "none"`, "invalid_app");
  }
  if (authType === "none") {
    if (body.fields !== undefined && !(Array.isArray(body.fields) && body.fields.length === 0)) {
      throw new InvalidInputError(`app '${slug}': an app with auth_type "none" has no fields`, "invalid_app");
    }
    return { slug, name, authType, fields: [], oauth: null, scope };
  }
  if (authType === "oauth") {
    const oauth = parseOAuthSettings(slug, body.oauth, typeof clientSecretOf(slug, body) === "string");
    const fields = body.fields === undefined || body.fields === null ? [] : parseFields(slug, body.fields);
    const clash = fields.find((field) => field.name.startsWith("oauth_"));
    if (clash) {
      throw new InvalidInputError(
        `app '${slug}': field '${clash.name}' clashes with the OAuth tokens' names (oauth_…); rename it`,
        "invalid_app",
      );
    }
    return { slug, name, authType, fields, oauth, scope };
  }
  if (body.oauth !== undefined) {
    throw new InvalidInputError(`app '${slug}': oauth settings need auth_type "oauth"`, "invalid_app");
  }
  if (!Array.isArray(body.fields) || body.fields.length === 0) {
    throw new InvalidInputError(
      `app '${slug}': a keys app needs fields: [{name, label?, description?, secret?, optional?}, …]`,
      "invalid_app",
    );
  }
  return { slug, name, authType, fields: parseFields(slug, body.fields), oauth: null, scope };
}

function parseFields(slug: string, input: unknown): AppField[] {
  if (!Array.isArray(input)) {
    throw new InvalidInputError(
      `app '${slug}': fields must be a list: [{name, label?, description?, secret?, optional?}, …]`,
      "invalid_app",
    );
  }
  if (input.length > MAX_FIELDS) {
    throw new InvalidInputError(`app '${slug}': at most ${MAX_FIELDS} fields`, "invalid_app");
  }
  const fields = input.map((field, index) => parseField(slug, field, index));
  const names = new Set<string>();
  for (const field of fields) {
    if (names.has(field.name))
      throw new InvalidInputError(`app '${slug}': field '${field.name}' is listed twice`, "invalid_app");
    names.add(field.name);
  }
  return fields;
}

function parseField(slug: string, input: unknown, index: number): AppField {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw new InvalidInputError(
      `app '${slug}': fields[${index}] must be an object with a name`,
      "invalid_app",
    );
  }
  const field = input as Record<string, unknown>;
  if (typeof field.name !== "string" || !FIELD_NAME.test(field.name)) {
    throw new InvalidInputError(
      `app '${slug}': fields[${index}].name must be an identifier (letters, digits, _)`,
      "invalid_app",
    );
  }
  for (const flag of ["secret", "optional"] as const) {
    if (field[flag] !== undefined && typeof field[flag] !== "boolean") {
      throw new InvalidInputError(
        `app '${slug}': field '${field.name}': ${flag} must be true or false`,
        "invalid_app",
      );
    }
  }
  return {
    name: field.name,
    ...(field.label === undefined ? {} : { label: text(field.label, `field '${field.name}' label`) }),
    ...(field.description === undefined
      ? {}
      : { description: text(field.description, `field '${field.name}' description`) }),
    secret: field.secret === true,
    optional: field.optional === true,
  };
}

function text(value: unknown, what: string): string {
  if (typeof value !== "string" || value.length > MAX_TEXT) {
    throw new InvalidInputError(`${what} must be a string of at most ${MAX_TEXT} characters`, "invalid_app");
  }
  return value;
}

/**
 * Checks a connected account's fields against the app: every required field present, no unknown
 * one, each a string, number or boolean. Open apps take any such object. Messages name fields,
 * never values.
 */
export function checkFields(app: AppDefinition, input: unknown): Record<string, string | number | boolean> {
  if (app.authType === "none") {
    if (input !== undefined && input !== null && !(isObject(input) && Object.keys(input).length === 0)) {
      throw new InvalidInputError(
        `app '${app.slug}' takes no credentials (auth_type "none")`,
        "invalid_fields",
      );
    }
    return {};
  }
  if (app.authType === "oauth" && (input === undefined || input === null)) input = {};
  if (!isObject(input)) {
    throw new InvalidInputError(
      `fields must be an object of the app's fields (app '${app.slug}')`,
      "invalid_fields",
    );
  }
  const fields: Record<string, string | number | boolean> = {};
  for (const [name, value] of Object.entries(input)) {
    if (!["string", "number", "boolean"].includes(typeof value)) {
      throw new InvalidInputError(
        `field '${name}' must be a string, a number or a boolean (app '${app.slug}')`,
        "invalid_fields",
      );
    }
    if (typeof value === "string" && Buffer.byteLength(value) > 16 * 1024) {
      throw new InvalidInputError(`field '${name}' is larger than 16 KB`, "invalid_fields");
    }
    fields[name] = value as string | number | boolean;
  }
  if (Object.keys(fields).length > MAX_FIELDS) {
    throw new InvalidInputError(`at most ${MAX_FIELDS} fields`, "invalid_fields");
  }
  if (app.fields === null) return fields;
  const known = new Map(app.fields.map((field) => [field.name, field]));
  for (const name of Object.keys(fields)) {
    if (!known.has(name)) {
      throw new InvalidInputError(
        `app '${app.slug}' has no field '${name}' (its fields: ${[...known.keys()].join(", ")})`,
        "invalid_fields",
      );
    }
  }
  const missing = app.fields.filter(
    (field) => !field.optional && (fields[field.name] === undefined || fields[field.name] === ""),
  );
  if (missing.length > 0) {
    throw new InvalidInputError(
      `app '${app.slug}' needs the field${missing.length > 1 ? "s" : ""} ${missing.map((field) => `'${field.name}'`).join(", ")}`,
      "invalid_fields",
    );
  }
  return fields;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

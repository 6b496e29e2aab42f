/**
 * A deployed source's configured props at rest and in use: secret values are sealed by the secret
 * box before they are stored, masked in every view, and unsealed only to hand them to the runner.
 */
import type { ComponentDefinition, PropDefinition } from "../../runtime/component-definition.js";
import type { PropValue } from "../../runtime/sandbox/sandbox.js";
import type { SecretBox } from "../secret-box.js";

export const SECRET_MASK = "********";
const SEALED = "$sealed";

type Values = Record<string, unknown>;

/** Secret strings, and app props: their value is the connected account's credentials. */
function isSecret(prop: PropDefinition | undefined): boolean {
  return prop?.secret === true || prop?.type === "app";
}

/** `{"authProvisionId": "apn_…"}`: a reference to a connected account, stored and shown as is. */
function isAuthReference(value: unknown): boolean {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Record<string, unknown>).authProvisionId === "string"
  );
}

function isSealed(value: unknown): value is { [SEALED]: string } {
  return (
    typeof value === "object" &&
    value !== null &&
    typeof (value as Record<string, unknown>)[SEALED] === "string"
  );
}

/** The values to store: secret props sealed (arrays of secrets as one sealed JSON). */
export function sealProps(definition: ComponentDefinition, values: Values, secrets: SecretBox): Values {
  const byName = new Map(definition.props.map((prop) => [prop.name, prop]));
  const sealed: Values = {};
  for (const [name, value] of Object.entries(values)) {
    sealed[name] =
      isSecret(byName.get(name)) && !isAuthReference(value)
        ? { [SEALED]: secrets.encrypt(JSON.stringify(value)) }
        : value;
  }
  return sealed;
}

export function unsealProps(stored: Values, secrets: SecretBox): Values {
  const values: Values = {};
  for (const [name, value] of Object.entries(stored)) {
    values[name] = isSealed(value) ? JSON.parse(secrets.decrypt(value[SEALED])) : value;
  }
  return values;
}

/** Stored values with the sealed (secret) ones masked. */
export function maskSealed(stored: Values): Values {
  return Object.fromEntries(
    Object.entries(stored).map(([name, value]) => [name, isSealed(value) ? SECRET_MASK : value]),
  );
}

/** Stored values as an API response shows them: secrets masked, HTTP interfaces with their URL. */
export function viewProps(
  definition: ComponentDefinition,
  stored: Values,
  endpointUrl: string | null,
): Values {
  const view: Values = {};
  for (const [name, value] of Object.entries(stored)) view[name] = isSealed(value) ? SECRET_MASK : value;
  for (const prop of definition.props) {
    if (prop.type === "$.interface.http" && endpointUrl) view[prop.name] = { endpoint_url: endpointUrl };
  }
  return view;
}

/**
 * Merges an update's configured values over the current (unsealed) ones: a value given replaces,
 * null clears, and the mask itself on a secret prop (a UI sending back what it was shown) keeps
 * the current secret.
 */
export function mergeForUpdate(definition: ComponentDefinition, current: Values, update: Values): Values {
  const secret = new Set(definition.props.filter(isSecret).map((prop) => prop.name));
  const merged: Values = { ...current };
  for (const [name, value] of Object.entries(update)) {
    if (value === SECRET_MASK && secret.has(name) && name in current) continue;
    if (value === null) delete merged[name];
    else merged[name] = value;
  }
  return merged;
}

/** What `this.<prop>` is for each prop in the runner. */
export function runnerProps(
  definition: ComponentDefinition,
  values: Values,
  endpointUrl: string | null,
): Record<string, PropValue> {
  const props: Record<string, PropValue> = {};
  for (const prop of definition.props) {
    switch (prop.type) {
      case "$.interface.http":
        props[prop.name] = {
          kind: "http",
          endpoint: endpointUrl ?? "",
          customResponse: prop.customResponse === true,
        };
        break;
      case "$.service.db":
        props[prop.name] = { kind: "db" };
        break;
      case "app":
        props[prop.name] = {
          kind: "app",
          auth: (values[prop.name] as Record<string, unknown> | undefined) ?? {},
        };
        break;
      case "http_request":
        if (prop.name in values) props[prop.name] = { kind: "http_request", value: values[prop.name] };
        break;
      case "data_store":
        if (typeof values[prop.name] === "string")
          props[prop.name] = { kind: "data_store", storeId: values[prop.name] as string };
        break;
      case "alert":
      case "dir":
      case "$.interface.apphook":
        break;
      default:
        if (prop.name in values) props[prop.name] = { kind: "value", value: values[prop.name] };
    }
  }
  return props;
}

const PUBLIC_AUTH_KEYS = new Set(["oauth_uid", "oauth_client_id"]);

/**
 * The secret strings among the values (secret props, and the string fields of app credentials),
 * so that logs can be scrubbed of them. Very short strings are left out: masking them would
 * garble ordinary text.
 */
export function secretStrings(definition: ComponentDefinition, values: Values): string[] {
  const found: string[] = [];
  const collect = (value: unknown): void => {
    if (typeof value === "string") {
      if (value.length >= 4) found.push(value);
    } else if (Array.isArray(value)) value.forEach(collect);
    else if (typeof value === "object" && value !== null) Object.values(value).forEach(collect);
  };
  for (const prop of definition.props) {
    if (!isSecret(prop)) continue;
    const value = values[prop.name];
    if (prop.type === "app" && typeof value === "object" && value !== null && !Array.isArray(value)) {
      // The provider's user id and the OAuth client id identify, they do not authenticate.
      for (const [key, field] of Object.entries(value)) if (!PUBLIC_AUTH_KEYS.has(key)) collect(field);
    } else collect(value);
  }
  // Longest first, so that a secret containing another is masked whole.
  return found.sort((a, b) => b.length - a.length);
}

export function maskSecrets(text: string, secrets: readonly string[]): string {
  let masked = text;
  for (const secret of secrets) if (masked.includes(secret)) masked = masked.replaceAll(secret, SECRET_MASK);
  return masked;
}

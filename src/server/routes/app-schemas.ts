/**
 * The schemas of /v1/apps. `appParamsDocument` describes `POST /v1/apps`'s body field by field for
 * the OpenAPI document (the client's `AppParams`); the route validates the loose `appInput`, and
 * core's parseAppInput checks every rule with messages that say what to fix.
 */

/** One field of a keys app (an oauth app's custom fields), as registering takes it. */
const appFieldInput = {
  type: "object",
  properties: {
    name: { type: "string", description: "an identifier: letters, digits and _" },
    label: { type: "string" },
    description: { type: "string" },
    secret: { type: "boolean", description: "masked in forms and never shown again" },
    optional: { type: "boolean" },
  },
  required: ["name"],
} as const;

const oauthSettingsInput = {
  type: "object",
  description: "for auth_type oauth",
  properties: {
    authorize_url: { type: "string" },
    token_url: { type: "string" },
    client_id: { type: "string" },
    client_secret: {
      type: ["string", "null"],
      description: "omitted: keep the registered one; null: remove it (a public client, with PKCE)",
    },
    scopes: {
      anyOf: [{ type: "array", items: { type: "string" } }, { type: ["string", "null"] }],
      description: "a list, or one string split at scope_separator",
    },
    scope_separator: { type: "string", description: "default: a space" },
    pkce: { type: "boolean", description: "default: true" },
    authorize_params: {
      type: ["object", "null"],
      additionalProperties: { type: ["string", "number", "boolean"] },
      description: "extra query parameters of the authorize URL",
    },
    user_info_url: { type: ["string", "null"] },
    uid_field: { type: "string", description: "the user info field that names the account; default sub" },
    token_auth_method: {
      type: ["string", "null"],
      enum: ["client_secret_basic", "client_secret_post", null],
      description: "default: client_secret_basic",
    },
  },
  required: ["authorize_url", "token_url", "client_id"],
} as const;

/** Whose registration a request means: the server's (admin only) or the caller's account's. */
const registrationScope = {
  type: "string",
  enum: ["server", "account"],
  default: "account",
  description: "server: for every account (admin only); account: for this account",
} as const;

export const appParamsDocument = {
  type: "object",
  properties: {
    slug: { type: "string", description: "the app's name slug, the `app` of an app prop" },
    name: { type: "string", description: "default: the slug" },
    auth_type: { type: "string", enum: ["keys", "oauth", "none"] },
    fields: {
      type: ["array", "null"],
      items: appFieldInput,
      description: "a keys app's fields (at least one); an oauth app's custom fields",
    },
    oauth: oauthSettingsInput,
    scope: registrationScope,
  },
  required: ["slug", "auth_type"],
} as const;

const fieldSchema = {
  type: "object",
  properties: {
    name: { type: "string" },
    label: { type: "string" },
    description: { type: "string" },
    secret: { type: "boolean" },
    optional: { type: "boolean" },
  },
} as const;

const oauthSchema = {
  type: ["object", "null"],
  description: "the OAuth settings of an oauth app (never its client secret); null for other apps",
  properties: {
    authorize_url: { type: "string" },
    token_url: { type: "string" },
    scopes: { type: "array", items: { type: "string" } },
    scope_separator: { type: "string" },
    pkce: { type: "boolean" },
    authorize_params: { type: "object", additionalProperties: { type: "string" } },
    user_info_url: { type: ["string", "null"] },
    uid_field: { type: "string" },
    client_id: { type: "string" },
    token_auth_method: { type: "string", enum: ["client_secret_basic", "client_secret_post"] },
    has_client_secret: { type: "boolean" },
    redirect_uri: { type: "string", description: "the callback URL to register with the provider" },
  },
} as const;

/** An app as the routes answer it. */
export const appSchema = {
  type: "object",
  properties: {
    name_slug: { type: "string" },
    name: { type: "string" },
    auth_type: { type: "string", enum: ["keys", "oauth", "none"] },
    fields: {
      type: ["array", "null"],
      items: fieldSchema,
      description:
        "the fields of a keys app (an oauth app's custom fields); null for an app nobody registered: its connected accounts take any fields",
    },
    oauth: oauthSchema,
    scope: { type: "string", enum: ["server", "account", "implicit"] },
  },
} as const;

/** What `POST /v1/apps` validates; core's parseAppInput checks the rest. */
export const appInput = {
  type: "object",
  properties: {
    slug: { type: "string", description: "the app's name slug, the `app` of an app prop" },
    name: { type: "string" },
    auth_type: { type: "string", description: "keys, oauth or none" },
    fields: { type: "array", items: { type: "object", additionalProperties: true } },
    oauth: {
      type: "object",
      additionalProperties: true,
      description:
        "for auth_type oauth: {authorize_url, token_url, client_id, client_secret?, scopes?, scope_separator?, pkce?, authorize_params?, user_info_url?, uid_field?, token_auth_method?}; client_secret omitted keeps the registered one, null removes it",
    },
    scope: registrationScope,
  },
  required: ["slug", "auth_type"],
} as const;

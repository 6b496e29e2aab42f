/**
 * The body of `POST /v1/apps` as the OpenAPI document describes it, field by field, so the
 * client's `AppParams` is generated from it. Only the document: the route validates its loose
 * `appInput` and core's parseAppInput checks every rule (identifiers, URLs, which fields go with
 * which auth_type) with messages that say what to fix, so this schema takes the same shapes,
 * nulls included where core allows them (it ignores fields it does not know, as every route does).
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
    scope: {
      type: "string",
      enum: ["server", "account"],
      default: "account",
      description: "server: for every account (admin only); account: for this account",
    },
  },
  required: ["slug", "auth_type"],
} as const;

/**
 * The OAuth half of an `oauth` app: where to send the person (authorize URL, scopes, PKCE, extra
 * parameters), where to exchange and refresh tokens, how to learn the provider's user id, and the
 * OAuth client. Parsed from REST bodies and app files with errors that name the setting to fix.
 * The client secret is not part of the settings: it is sealed on its own and never shown.
 */
import { InvalidInputError } from "../errors.js";

export type TokenAuthMethod = "client_secret_basic" | "client_secret_post";

export interface OAuthSettings {
  readonly authorizeUrl: string;
  readonly tokenUrl: string;
  readonly scopes: readonly string[];
  readonly scopeSeparator: string;
  readonly pkce: boolean;
  /** Added to the authorize URL (`access_type=offline`, `prompt=consent`, …). */
  readonly authorizeParams: Readonly<Record<string, string>>;
  /** GET with the access token after connecting; its `uidField` becomes `$auth.oauth_uid`. */
  readonly userInfoUrl: string | null;
  readonly uidField: string;
  readonly clientId: string;
  /** How the client authenticates at the token endpoint (RFC 6749 2.3.1): HTTP Basic, or in the form body. */
  readonly tokenAuthMethod: TokenAuthMethod;
  /** Whether a client secret is registered (it is stored sealed, apart from these settings). */
  readonly hasClientSecret: boolean;
}

/** Parameters Sluice sets on the authorize URL itself; `authorize_params` may not replace them. */
const RESERVED_PARAMS = new Set([
  "client_id",
  "redirect_uri",
  "response_type",
  "state",
  "scope",
  "code_challenge",
  "code_challenge_method",
]);
const MAX_TEXT = 2000;

function invalid(slug: string, message: string): InvalidInputError {
  return new InvalidInputError(`app '${slug}': ${message}`, "invalid_app");
}

function url(slug: string, value: unknown, name: string): string {
  if (typeof value !== "string" || value.length > MAX_TEXT) {
    throw invalid(slug, `oauth.${name} is required: an http or https URL`);
  }
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw invalid(slug, `oauth.${name} '${value}' is not an absolute URL`);
  }
  if (parsed.protocol !== "https:" && parsed.protocol !== "http:") {
    throw invalid(slug, `oauth.${name} must be an http or https URL`);
  }
  return parsed.toString();
}

function text(slug: string, value: unknown, name: string): string {
  if (typeof value !== "string" || value === "" || value.length > MAX_TEXT) {
    throw invalid(slug, `oauth.${name} must be a non-empty string of at most ${MAX_TEXT} characters`);
  }
  return value;
}

/**
 * Parses the `oauth` object of an app: `{authorize_url, token_url, client_id, scopes?,
 * scope_separator?, pkce?, authorize_params?, user_info_url?, uid_field?, token_auth_method?}`.
 * `hasClientSecret` says whether a secret is (or stays) registered.
 */
export function parseOAuthSettings(slug: string, input: unknown, hasClientSecret: boolean): OAuthSettings {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    throw invalid(
      slug,
      'an app with auth_type "oauth" needs oauth: {authorize_url, token_url, client_id, client_secret, scopes, …}',
    );
  }
  const body = input as Record<string, unknown>;
  const scopeSeparator =
    body.scope_separator === undefined ? " " : text(slug, body.scope_separator, "scope_separator");
  let scopes: string[] = [];
  if (typeof body.scopes === "string") {
    scopes = body.scopes.split(scopeSeparator).filter((scope) => scope !== "");
  } else if (Array.isArray(body.scopes)) {
    scopes = body.scopes.map((scope, index) => text(slug, scope, `scopes[${index}]`));
  } else if (body.scopes !== undefined && body.scopes !== null) {
    throw invalid(slug, "oauth.scopes must be a list of strings, or one string of scopes");
  }
  if (body.pkce !== undefined && typeof body.pkce !== "boolean") {
    throw invalid(slug, "oauth.pkce must be true or false");
  }
  const authorizeParams: Record<string, string> = {};
  if (body.authorize_params !== undefined && body.authorize_params !== null) {
    if (typeof body.authorize_params !== "object" || Array.isArray(body.authorize_params)) {
      throw invalid(slug, "oauth.authorize_params must be an object of strings");
    }
    for (const [name, value] of Object.entries(body.authorize_params)) {
      if (RESERVED_PARAMS.has(name)) {
        throw invalid(slug, `oauth.authorize_params may not set '${name}': Sluice sets it`);
      }
      if (!["string", "number", "boolean"].includes(typeof value)) {
        throw invalid(slug, `oauth.authorize_params.${name} must be a string`);
      }
      authorizeParams[name] = String(value);
    }
  }
  const method = body.token_auth_method ?? "client_secret_basic";
  if (method !== "client_secret_basic" && method !== "client_secret_post") {
    throw invalid(slug, 'oauth.token_auth_method must be "client_secret_basic" or "client_secret_post"');
  }
  return {
    authorizeUrl: url(slug, body.authorize_url, "authorize_url"),
    tokenUrl: url(slug, body.token_url, "token_url"),
    scopes,
    scopeSeparator,
    pkce: body.pkce !== false,
    authorizeParams,
    userInfoUrl:
      body.user_info_url === undefined || body.user_info_url === null
        ? null
        : url(slug, body.user_info_url, "user_info_url"),
    uidField: body.uid_field === undefined ? "sub" : text(slug, body.uid_field, "uid_field"),
    clientId: text(slug, body.client_id, "client_id"),
    tokenAuthMethod: method,
    hasClientSecret,
  };
}

/**
 * The client secret of an app's input: a string to register, null to remove it (a public client,
 * with PKCE), or undefined to keep the one registered (so app files need not hold it).
 */
export function clientSecretOf(slug: string, input: unknown): string | null | undefined {
  const oauth = (input as { oauth?: { client_secret?: unknown } } | null)?.oauth;
  const secret = oauth?.client_secret;
  if (secret === undefined || secret === null) return secret;
  if (typeof secret !== "string" || secret === "" || secret.length > MAX_TEXT) {
    throw invalid(slug, "oauth.client_secret must be a non-empty string");
  }
  return secret;
}

/** The settings as stored (JSON in the app's definition column), without the secret flag. */
export function storedOAuthSettings(settings: OAuthSettings): Omit<OAuthSettings, "hasClientSecret"> {
  const { hasClientSecret: _, ...stored } = settings;
  return stored;
}

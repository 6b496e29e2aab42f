/**
 * The OAuth 2.0 authorization code grant with PKCE (RFC 6749 4.1, RFC 7636) and the refresh grant,
 * as a client of any provider; every request goes through the SSRF guard (an app's URLs are user input).
 * No client library: those are OpenID Connect clients that insist on standard token responses, and
 * the providers an app platform connects to (GitHub, Slack, …) need a lenient reading.
 */
import { createHash, randomBytes } from "node:crypto";
import type { Dispatcher } from "undici";
import { request } from "undici";
import { type AddressPolicy, BlockedAddressError, checkUrlHost } from "../outbound/ssrf-guard.js";
import type { OAuthSettings } from "./oauth-settings.js";

const TIMEOUT_MS = 15_000;
const MAX_RESPONSE_BYTES = 256 * 1024;

/** The provider answered with an OAuth error (`invalid_grant`, `access_denied`, …). */
export class OAuthProviderError extends Error {
  override readonly name = "OAuthProviderError";
  constructor(
    readonly error: string,
    readonly description: string | undefined,
    readonly status: number,
  ) {
    super(description ? `${error}: ${description}` : error);
  }
}

/** The provider could not be reached, or answered something that is not a token response. */
export class OAuthTransportError extends Error {
  override readonly name = "OAuthTransportError";
}

export interface OAuthTransport {
  readonly policy: AddressPolicy;
  readonly dispatcher: Dispatcher;
}

export interface TokenSet {
  readonly accessToken: string;
  readonly refreshToken: string | null;
  /** Epoch ms; null when the provider gave no `expires_in` (a token that does not expire). */
  readonly expiresAt: number | null;
  readonly scope: string | null;
  readonly tokenType: string | null;
}

export interface OAuthClient {
  readonly settings: OAuthSettings;
  /** Unsealed; null for a public client (PKCE only). */
  readonly clientSecret: string | null;
}

/** A random `state` and PKCE verifier (43 characters of base64url, within RFC 7636's 43–128). */
export function newState(): string {
  return randomBytes(32).toString("base64url");
}

export function newCodeVerifier(): string {
  return randomBytes(32).toString("base64url");
}

export function codeChallenge(verifier: string): string {
  return createHash("sha256").update(verifier).digest("base64url");
}

/** The URL to send the person to: the provider's authorize URL with Sluice's parameters. */
export function authorizeUrl(
  settings: OAuthSettings,
  params: { redirectUri: string; state: string; codeVerifier: string | null },
): string {
  const url = new URL(settings.authorizeUrl);
  for (const [name, value] of Object.entries(settings.authorizeParams)) url.searchParams.set(name, value);
  url.searchParams.set("response_type", "code");
  url.searchParams.set("client_id", settings.clientId);
  url.searchParams.set("redirect_uri", params.redirectUri);
  url.searchParams.set("state", params.state);
  if (settings.scopes.length > 0)
    url.searchParams.set("scope", settings.scopes.join(settings.scopeSeparator));
  if (params.codeVerifier !== null) {
    url.searchParams.set("code_challenge", codeChallenge(params.codeVerifier));
    url.searchParams.set("code_challenge_method", "S256");
  }
  return url.toString();
}

export function exchangeCode(
  transport: OAuthTransport,
  client: OAuthClient,
  params: { code: string; redirectUri: string; codeVerifier: string | null },
): Promise<TokenSet> {
  const form: Record<string, string> = {
    grant_type: "authorization_code",
    code: params.code,
    redirect_uri: params.redirectUri,
  };
  if (params.codeVerifier !== null) form.code_verifier = params.codeVerifier;
  return tokenRequest(transport, client, form);
}

export function refreshTokens(
  transport: OAuthTransport,
  client: OAuthClient,
  refreshToken: string,
): Promise<TokenSet> {
  return tokenRequest(transport, client, { grant_type: "refresh_token", refresh_token: refreshToken });
}

/** The provider's id of the person: the user-info URL's `uidField` (`sub`, else `id`), as a string. */
export async function fetchUserId(
  transport: OAuthTransport,
  settings: OAuthSettings,
  accessToken: string,
): Promise<string | null> {
  if (settings.userInfoUrl === null) return null;
  const { status, body } = await send(transport, settings.userInfoUrl, {
    method: "GET",
    headers: { authorization: `Bearer ${accessToken}`, accept: "application/json" },
  });
  if (status < 200 || status > 299) {
    throw new OAuthTransportError(`the user-info URL answered ${status}`);
  }
  const info = parseBody(body);
  const uid = info[settings.uidField] ?? (settings.uidField === "sub" ? info.id : undefined);
  return typeof uid === "string" || typeof uid === "number" ? String(uid) : null;
}

async function tokenRequest(
  transport: OAuthTransport,
  client: OAuthClient,
  form: Record<string, string>,
): Promise<TokenSet> {
  const { settings, clientSecret } = client;
  const headers: Record<string, string> = {
    "content-type": "application/x-www-form-urlencoded",
    accept: "application/json",
  };
  if (clientSecret !== null && settings.tokenAuthMethod === "client_secret_basic") {
    // RFC 6749 2.3.1: both parts form-encoded, then base64.
    const pair = `${formEncode(settings.clientId)}:${formEncode(clientSecret)}`;
    headers.authorization = `Basic ${Buffer.from(pair).toString("base64")}`;
  } else {
    form.client_id = settings.clientId;
    if (clientSecret !== null) form.client_secret = clientSecret;
  }
  const { status, body } = await send(transport, settings.tokenUrl, {
    method: "POST",
    headers,
    body: new URLSearchParams(form).toString(),
  });
  const answer = parseBody(body);
  // Some providers (GitHub) answer an error with 200.
  if (typeof answer.error === "string") {
    throw new OAuthProviderError(
      answer.error,
      typeof answer.error_description === "string" ? answer.error_description : undefined,
      status,
    );
  }
  if (status < 200 || status > 299) {
    throw new OAuthTransportError(`the token URL answered ${status}`);
  }
  const accessToken = answer.access_token;
  if (typeof accessToken !== "string" || accessToken === "") {
    throw new OAuthTransportError("the token URL's answer has no access_token");
  }
  const expiresIn = Number(answer.expires_in);
  return {
    accessToken,
    refreshToken: typeof answer.refresh_token === "string" ? answer.refresh_token : null,
    expiresAt:
      answer.expires_in !== undefined && Number.isFinite(expiresIn) && expiresIn > 0
        ? Date.now() + expiresIn * 1000
        : null,
    scope: typeof answer.scope === "string" ? answer.scope : null,
    tokenType: typeof answer.token_type === "string" ? answer.token_type : null,
  };
}

function formEncode(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, "+");
}

/** JSON, or a form-encoded body (GitHub's default); anything else reads as no fields. */
function parseBody(body: string): Record<string, unknown> {
  try {
    const parsed: unknown = JSON.parse(body);
    if (typeof parsed === "object" && parsed !== null && !Array.isArray(parsed)) {
      return parsed as Record<string, unknown>;
    }
  } catch {
    if (/^[\w.~%+-]+=[^\s]*$/.test(body.trim())) return Object.fromEntries(new URLSearchParams(body.trim()));
  }
  return {};
}

async function send(
  transport: OAuthTransport,
  target: string,
  init: { method: "GET" | "POST"; headers: Record<string, string>; body?: string },
): Promise<{ status: number; body: string }> {
  const url = new URL(target);
  try {
    checkUrlHost(transport.policy, url);
    const response = await request(url, {
      method: init.method,
      headers: init.headers,
      ...(init.body === undefined ? {} : { body: init.body }),
      dispatcher: transport.dispatcher,
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    let size = 0;
    const chunks: Buffer[] = [];
    for await (const chunk of response.body) {
      size += (chunk as Buffer).length;
      if (size > MAX_RESPONSE_BYTES) {
        response.body.destroy();
        throw new OAuthTransportError(`${url.host} answered more than 256 KB`);
      }
      chunks.push(chunk as Buffer);
    }
    return { status: response.statusCode, body: Buffer.concat(chunks).toString("utf8") };
  } catch (error) {
    if (error instanceof OAuthTransportError) throw error;
    const cause = (error as { cause?: unknown }).cause;
    const blocked =
      error instanceof BlockedAddressError ? error : cause instanceof BlockedAddressError ? cause : null;
    if (blocked) throw new OAuthTransportError(blocked.message);
    const reason = cause instanceof Error ? cause.message : (error as Error).message;
    throw new OAuthTransportError(`could not reach ${url.origin}: ${reason}`);
  }
}

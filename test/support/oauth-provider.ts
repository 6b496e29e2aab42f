/**
 * A real OAuth 2.0 provider on 127.0.0.1 (`oauth2-mock-server`), made to behave like a strict one:
 * it checks the client's credentials, issues access tokens that expire when they say, rotates
 * refresh tokens (each one works once; a reuse is `invalid_grant`), honours revocation, and its
 * user-info endpoint accepts only a live access token. It counts the token requests by grant.
 */
import type { IncomingMessage } from "node:http";
import { OAuth2Server } from "oauth2-mock-server";
import type { appsApi } from "../../src/client/apps-client.js";
import { letTimePassUntil } from "./wait.js";

export interface OAuthProvider {
  readonly url: string;
  readonly clientId: string;
  readonly clientSecret: string;
  /** The `oauth` settings of an app registered against this provider. */
  appSettings(extra?: Record<string, unknown>): Record<string, unknown>;
  /** Token requests so far, by grant type. */
  readonly requests: { authorization_code: number; refresh_token: number };
  /** What the last code exchange carried. */
  readonly lastExchange: { codeVerifier: string | undefined; basicAuth: boolean } | undefined;
  /** Every access and refresh token issued (to grep responses, logs and databases for). */
  readonly issued: string[];
  /** expires_in of the tokens issued next (seconds). */
  expiresIn: number;
  /** Revokes every refresh token issued so far. */
  revokeRefreshTokens(): void;
  /** The next authorize redirect carries `error=access_denied` instead of a code. */
  denyNextAuthorization(): void;
  close(): Promise<void>;
}

interface TokenBody {
  grant_type?: string;
  code_verifier?: string;
  refresh_token?: string;
  client_id?: string;
  client_secret?: string;
}

export async function startOAuthProvider(): Promise<OAuthProvider> {
  const server = new OAuth2Server();
  await server.issuer.keys.generate("RS256");
  await server.start(0, "127.0.0.1");
  const url = (server.issuer.url ?? "").replace(/\/$/, "");
  const clientId = "sluice-test-client";
  const clientSecret = "client-secret-that-must-never-leak-4417";
  const accessTokens = new Map<string, number>();
  const refreshTokens = new Map<string, "live" | "used" | "revoked">();
  const issued: string[] = [];
  let denyNext = false;

  const provider: OAuthProvider = {
    url,
    clientId,
    clientSecret,
    requests: { authorization_code: 0, refresh_token: 0 },
    lastExchange: undefined,
    issued,
    expiresIn: 3600,
    appSettings: (extra = {}) => ({
      authorize_url: `${url}/authorize`,
      token_url: `${url}/token`,
      user_info_url: `${url}/userinfo`,
      client_id: clientId,
      client_secret: clientSecret,
      scopes: ["openid", "profile", "offline_access"],
      ...extra,
    }),
    revokeRefreshTokens() {
      for (const token of refreshTokens.keys()) refreshTokens.set(token, "revoked");
    },
    denyNextAuthorization() {
      denyNext = true;
    },
    close: () => server.stop(),
  };

  const clientAuthenticated = (req: IncomingMessage & { body?: TokenBody }) => {
    const header = req.headers.authorization;
    if (header?.startsWith("Basic ")) {
      const [id, secret] = Buffer.from(header.slice(6), "base64").toString().split(":");
      return { ok: id === clientId && decodeURIComponent(secret ?? "") === clientSecret, basic: true };
    }
    return { ok: req.body?.client_id === clientId && req.body?.client_secret === clientSecret, basic: false };
  };

  server.service.on(
    "beforeResponse",
    (
      response: { body: Record<string, unknown>; statusCode: number },
      req: IncomingMessage & { body: TokenBody },
    ) => {
      const grant = req.body.grant_type;
      if (grant !== "authorization_code" && grant !== "refresh_token") return;
      provider.requests[grant]++;
      const client = clientAuthenticated(req);
      if (!client.ok) {
        response.statusCode = 401;
        response.body = { error: "invalid_client", error_description: "unknown client or wrong secret" };
        return;
      }
      if (grant === "authorization_code") {
        (provider as { lastExchange: OAuthProvider["lastExchange"] }).lastExchange = {
          codeVerifier: req.body.code_verifier,
          basicAuth: client.basic,
        };
      } else {
        const state = refreshTokens.get(req.body.refresh_token ?? "");
        if (state !== "live") {
          response.statusCode = 400;
          response.body = {
            error: "invalid_grant",
            error_description:
              state === undefined ? "unknown refresh token" : `the refresh token was ${state}`,
          };
          return;
        }
        refreshTokens.set(req.body.refresh_token ?? "", "used");
      }
      const access = String(response.body.access_token);
      const refresh = String(response.body.refresh_token);
      response.body.expires_in = provider.expiresIn;
      accessTokens.set(access, Date.now() + provider.expiresIn * 1000);
      refreshTokens.set(refresh, "live");
      issued.push(access, refresh);
    },
  );

  server.service.on(
    "beforeUserinfo",
    (response: { body: Record<string, unknown>; statusCode: number }, req: IncomingMessage) => {
      const token = /^Bearer (.+)$/.exec(req.headers.authorization ?? "")?.[1] ?? "";
      const expiresAt = accessTokens.get(token);
      if (expiresAt === undefined || expiresAt <= Date.now()) {
        response.statusCode = 401;
        response.body = { error: "invalid_token", error_description: "expired or unknown access token" };
      }
    },
  );

  server.service.on("beforeAuthorizeRedirect", (redirect: { url: URL }) => {
    if (!denyNext) return;
    denyNext = false;
    redirect.url.searchParams.delete("code");
    redirect.url.searchParams.set("error", "access_denied");
    redirect.url.searchParams.set("error_description", "The user said no");
  });

  return provider;
}

/** What a browser's navigation sends as Accept. */
export const BROWSER_ACCEPT = "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8";

/** A browser's way through the authorize URL: the provider's redirect, then Sluice's callback page. */
export async function followAuthorize(
  authorizeUrl: string,
): Promise<{ status: number; html: string; callbackUrl: string; authProvisionId: string | undefined }> {
  const authorize = await fetch(authorizeUrl, { redirect: "manual" });
  const callbackUrl = authorize.headers.get("location");
  if (authorize.status !== 302 || !callbackUrl) {
    throw new Error(
      `the provider answered ${authorize.status} without a redirect: ${await authorize.text()}`,
    );
  }
  const page = await fetch(callbackUrl, { redirect: "manual", headers: { accept: BROWSER_ACCEPT } });
  const html = await page.text();
  return {
    status: page.status,
    html,
    callbackUrl,
    authProvisionId: /"authProvisionId":"(apn_[0-9a-z]+)"/.exec(html)?.[1],
  };
}

/**
 * Resolves once the connected account's access token has expired, by the expiry Sluice stored
 * for it: time passing is the point, its length read from the account.
 */
export async function tokenExpired(api: ReturnType<typeof appsApi>, accountId: string): Promise<void> {
  const { expires_at } = await api.getConnectedAccount(accountId);
  if (!expires_at) throw new Error(`account ${accountId} has no token expiry`);
  await letTimePassUntil(expires_at);
}

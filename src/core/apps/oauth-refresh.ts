/**
 * Fresh OAuth tokens for an invocation, refreshed once across the cluster when they expire within
 * 60 s: a single flight per account on a node, and on PostgreSQL the account row's lock, so a
 * rotating refresh token is used once and never burned. `invalid_grant` marks the account
 * unhealthy; any other failure fails only this invocation (or uses the token while still valid).
 */
// Kysely here, not in the store: one locked read and write of a connected account.
import type { Executor } from "../../store/schema.js";
import type { CoreContext } from "../context.js";
import { SluiceError } from "../errors.js";
import { maskSecrets } from "../sources/source-props.js";
import { resolveOAuthApp } from "./app-registry.js";
import { OAuthProviderError, refreshTokens } from "./oauth-client.js";
import type { Auth, RefreshOutcome } from "./refresh-flights.js";

export const REFRESH_MARGIN_MS = 60_000;

/** A connected account that cannot be used for this invocation; the message names it and its app. */
export class AuthUnavailableError extends SluiceError {
  readonly kind = "invalid";
}

export interface OAuthAccountRef {
  readonly id: string;
  readonly accountId: string;
  readonly app: string;
  readonly expiresAt: number | null;
}

function nearExpiry(expiresAt: number | null): boolean {
  return expiresAt !== null && expiresAt - Date.now() <= REFRESH_MARGIN_MS;
}

/**
 * The `$auth` of an OAuth connected account with a token valid for at least the next 60 s
 * (refreshed here when needed). `propName` names the prop in errors.
 */
export async function freshOAuthAuth(
  context: CoreContext,
  propName: string,
  account: OAuthAccountRef,
  auth: Auth,
): Promise<Auth> {
  if (!nearExpiry(account.expiresAt)) return auth;
  const label = `prop '${propName}': connected account ${account.id} (app '${account.app}')`;
  if (typeof auth.oauth_refresh_token !== "string" || auth.oauth_refresh_token === "") {
    if (account.expiresAt !== null && account.expiresAt > Date.now()) return auth;
    throw new AuthUnavailableError(
      "connected_account_expired",
      `${label}: its access token has expired and the provider gave no refresh token; reconnect it`,
    );
  }
  const outcome = await context.oauth.refreshes.join(account.id, () => refreshUnderLock(context, account.id));
  switch (outcome.kind) {
    case "fresh":
      return outcome.auth;
    case "gone":
      throw new AuthUnavailableError(
        "connected_account_unavailable",
        `${label} no longer exists; connect the app again and update the prop`,
      );
    case "revoked":
      throw new AuthUnavailableError(
        "connected_account_unhealthy",
        `${label} is unhealthy: ${outcome.error}; reconnect it`,
      );
    case "failed":
      if (outcome.expiresAt !== null && outcome.expiresAt > Date.now()) return outcome.auth;
      throw new AuthUnavailableError(
        "connected_account_refresh_failed",
        `${label}: its access token has expired and refreshing it failed (${outcome.reason}); try again later`,
      );
  }
}

/** One process (SQLite) needs no row lock: the single flight is the lock, and no transaction stays open across the provider's round trip. */
function refreshUnderLock(context: CoreContext, id: string): Promise<RefreshOutcome> {
  const { store } = context;
  if (store.capabilities.singleProcess) return refreshOnce(context, store.db, id);
  return store.transaction((tx) => refreshOnce(context, store.dbIn(tx), id));
}

async function refreshOnce(context: CoreContext, db: Executor, id: string): Promise<RefreshOutcome> {
  let query = db.selectFrom("connected_accounts").selectAll().where("id", "=", id);
  if (!context.store.capabilities.singleProcess) query = query.forUpdate();
  const row = await query.executeTakeFirst();
  if (!row) return { kind: "gone" };
  if (row.healthy !== 1) return { kind: "revoked", error: row.error ?? "unknown error" };
  const auth = JSON.parse(context.secrets.decrypt(row.credentials)) as Auth;
  const expiresAt = row.expires_at === null ? null : Number(row.expires_at);
  // Another invocation (on this node or another) refreshed it while this one waited for the lock.
  if (!nearExpiry(expiresAt)) return { kind: "fresh", auth };
  const refreshToken = auth.oauth_refresh_token;
  if (typeof refreshToken !== "string")
    return { kind: "failed", reason: "no refresh token", auth, expiresAt };
  let clientSecret: string | null = null;
  try {
    const { app, sealedClientSecret } = await resolveOAuthApp(db, row.account_id, row.app);
    clientSecret = sealedClientSecret === null ? null : context.secrets.decrypt(sealedClientSecret);
    const tokens = await refreshTokens(
      context.oauth.transport,
      { settings: app.oauth, clientSecret },
      refreshToken,
    );
    const fresh: Auth = {
      ...auth,
      oauth_access_token: tokens.accessToken,
      // A provider that does not rotate refresh tokens answers without one: keep the current one.
      oauth_refresh_token: tokens.refreshToken ?? refreshToken,
    };
    const now = Date.now();
    await db
      .updateTable("connected_accounts")
      .set({
        credentials: context.secrets.encrypt(JSON.stringify(fresh)),
        expires_at: tokens.expiresAt,
        last_refreshed_at: now,
        updated_at: now,
      })
      .where("id", "=", id)
      .execute();
    return { kind: "fresh", auth: fresh };
  } catch (error) {
    const secrets = [refreshToken, ...(clientSecret ? [clientSecret] : [])];
    const reason = maskSecrets(error instanceof Error ? error.message : String(error), secrets).slice(0, 500);
    if (error instanceof OAuthProviderError && error.error === "invalid_grant") {
      const message = `refreshing its token failed with ${reason}`;
      await db
        .updateTable("connected_accounts")
        .set({ healthy: 0, error: message, updated_at: Date.now() })
        .where("id", "=", id)
        .execute();
      return { kind: "revoked", error: message };
    }
    return { kind: "failed", reason, auth, expiresAt };
  }
}

/**
 * Connecting an account of an OAuth app: the authorization code flow with `state` and PKCE, as two
 * calls any front end can drive (the REST routes, Connect's link page). The state is stored only as
 * a hash and claimed once; on any failure nothing is stored but the attempt's error. An attempt
 * started with a one-shot grant (a Connect token) lives no longer than it, and its success spends it.
 */
// Kysely here, not in the store: owns oauth_connections and the accounts a connection ends in.
import { createHash } from "node:crypto";
import type { Selectable } from "kysely";
import type { OAuthConnectionsTable } from "../../store/schema.js";
import type { CoreContext } from "../context.js";
import { InvalidInputError } from "../errors.js";
import { newId } from "../ids.js";
import { ownedRow } from "../owned-rows.js";
import { optionalText } from "../validation.js";
import { checkFields, checkSlug } from "./app-definition.js";
import { resolveOAuthApp } from "./app-registry.js";
import { getConnectedAccount } from "./connected-accounts.js";
import {
  authorizeUrl,
  exchangeCode,
  fetchUserId,
  newCodeVerifier,
  newState,
  OAuthProviderError,
  type TokenSet,
} from "./oauth-client.js";

export const DEFAULT_STATE_TTL_MS = 10 * 60 * 1000;
const MAX_NAME_LENGTH = 200;
/** Finished attempts are kept this long (for the starter to read), then removed. */
const KEEP_FINISHED_MS = 24 * 60 * 60 * 1000;
const OAUTH_CONNECTIONS = { table: "oauth_connections", name: "OAuth connection", prefix: "oac" } as const;

export const OAUTH_CALLBACK_PATH = "/v1/connected_accounts/oauth/callback";

export function oauthRedirectUri(baseUrl: string): string {
  return `${baseUrl.replace(/\/+$/, "")}${OAUTH_CALLBACK_PATH}`;
}

export type OAuthConnectionStatus = "pending" | "connected" | "failed" | "expired";

export interface OAuthConnection {
  readonly id: string;
  readonly accountId: string;
  readonly app: string;
  readonly status: OAuthConnectionStatus;
  /** The connected account reconnected, or (once connected) the one created. */
  readonly connectedAccountId: string | null;
  readonly error: string | null;
  readonly openerOrigin: string;
  readonly expiresAt: number;
  readonly createdAt: number;
}

export interface OAuthStartInput {
  readonly app?: unknown;
  readonly name?: unknown;
  /** The app's custom fields (beside the tokens), checked against its field list. */
  readonly fields?: unknown;
  /** Reconnect this connected account (`apn_…`, of the same app) instead of creating one. */
  readonly connected_account_id?: unknown;
}

export interface StartedOAuthConnection {
  readonly connection: OAuthConnection;
  readonly authorizeUrl: string;
  readonly redirectUri: string;
}

/** Rolls back a connection whose connect token another connection spent first. */
class ConnectTokenSpent extends Error {}

function hashState(state: string): string {
  return createHash("sha256").update(state).digest("hex");
}

function toConnection(row: Selectable<OAuthConnectionsTable>): OAuthConnection {
  const expiresAt = Number(row.expires_at);
  const pending = row.status === "pending" || row.status === "exchanging";
  return {
    id: row.id,
    accountId: row.account_id,
    app: row.app,
    status: pending
      ? expiresAt <= Date.now()
        ? "expired"
        : "pending"
      : (row.status as OAuthConnectionStatus),
    connectedAccountId: row.connected_account_id,
    error: row.error,
    openerOrigin: row.opener_origin,
    expiresAt,
    createdAt: Number(row.created_at),
  };
}

export interface OAuthStartOptions {
  /** The origin the callback page posts its result to (the popup's opener); default the server's. */
  readonly openerOrigin?: string;
  /** The connect token that started it (hashed): spent on success; the attempt ends with it. */
  readonly connectToken?: { readonly hash: string; readonly expiresAt: number };
}

/** Starts connecting an account of an OAuth app. */
export async function startOAuthConnection(
  context: CoreContext,
  accountId: string,
  input: OAuthStartInput,
  options: OAuthStartOptions = {},
): Promise<StartedOAuthConnection> {
  const slug = checkSlug(input.app, "app");
  let reconnect: string | null = null;
  if (input.connected_account_id !== undefined && input.connected_account_id !== null) {
    if (typeof input.connected_account_id !== "string") {
      throw new InvalidInputError("connected_account_id must be an apn_ id");
    }
    const existing = await getConnectedAccount(context, accountId, input.connected_account_id);
    if (existing.app !== slug) {
      throw new InvalidInputError(
        `connected account ${existing.id} is for app '${existing.app}', not '${slug}'`,
        "invalid_connected_account",
      );
    }
    reconnect = existing.id;
  }
  const { app } = await resolveOAuthApp(context.store.db, accountId, slug);
  const fields = checkFields(app, input.fields);
  const name = optionalText(input.name, "name", MAX_NAME_LENGTH)?.trim() || null;
  const state = newState();
  const codeVerifier = app.oauth.pkce ? newCodeVerifier() : null;
  const redirectUri = oauthRedirectUri(context.baseUrl);
  const now = Date.now();
  const id = newId("oac");
  await context.store.db
    .deleteFrom("oauth_connections")
    .where("account_id", "=", accountId)
    .where("expires_at", "<", now - KEEP_FINISHED_MS)
    .execute();
  await context.store.db
    .insertInto("oauth_connections")
    .values({
      id,
      account_id: accountId,
      app: slug,
      name,
      fields: context.secrets.encrypt(JSON.stringify(fields)),
      state_hash: hashState(state),
      code_verifier: codeVerifier === null ? null : context.secrets.encrypt(codeVerifier),
      redirect_uri: redirectUri,
      opener_origin: options.openerOrigin ?? new URL(context.baseUrl).origin,
      connected_account_id: reconnect,
      status: "pending",
      error: null,
      expires_at: Math.min(now + context.oauth.stateTtlMs, options.connectToken?.expiresAt ?? Infinity),
      connect_token_hash: options.connectToken?.hash ?? null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  return {
    connection: await getOAuthConnection(context, accountId, id),
    authorizeUrl: authorizeUrl(app.oauth, { redirectUri, state, codeVerifier }),
    redirectUri,
  };
}

/** An attempt of the account (404 for another account's, as for an unknown one). */
export async function getOAuthConnection(
  context: CoreContext,
  accountId: string,
  id: string,
): Promise<OAuthConnection> {
  return toConnection(await ownedRow(context.store.db, OAUTH_CONNECTIONS, accountId, id));
}

/** The query of the provider's redirect to the callback. */
export interface OAuthCallbackQuery {
  readonly state?: unknown;
  readonly code?: unknown;
  readonly error?: unknown;
  readonly error_description?: unknown;
}

export type OAuthCallbackFailureCode =
  | "invalid_state"
  | "state_used"
  | "state_expired"
  | "oauth_provider_error"
  | "oauth_token_failed"
  | "connected_account_unavailable"
  | "connect_token_used";

export type OAuthCallbackOutcome =
  | {
      readonly ok: true;
      readonly connection: OAuthConnection;
      readonly connectedAccountId: string;
      readonly app: string;
      readonly openerOrigin: string;
    }
  | {
      readonly ok: false;
      readonly code: OAuthCallbackFailureCode;
      readonly message: string;
      /** Known once the state was recognised: the page may then tell its opener. */
      readonly openerOrigin: string | null;
      readonly connectionId: string | null;
    };

type CallbackRefusal = Extract<OAuthCallbackOutcome, { ok: false }>;
type AttemptRow = Selectable<OAuthConnectionsTable>;

/** Completes an attempt from the callback's query; never throws for what the provider or the person sent. */
export async function completeOAuthConnection(
  context: CoreContext,
  query: OAuthCallbackQuery,
): Promise<OAuthCallbackOutcome> {
  const claim = await claimAttempt(context, query.state);
  if (!("row" in claim)) return claim;
  const { row, now } = claim;
  if (query.error !== undefined) {
    const description = typeof query.error_description === "string" ? `: ${query.error_description}` : "";
    return failAttempt(
      context,
      row,
      "oauth_provider_error",
      `The provider refused the connection (${String(query.error).slice(0, 200)}${description.slice(0, 500)}).`,
    );
  }
  if (typeof query.code !== "string" || query.code === "") {
    return failAttempt(context, row, "oauth_provider_error", "The provider's redirect has no code.");
  }
  const exchanged = await exchangeForTokens(context, row, query.code);
  if (!("tokens" in exchanged)) return exchanged;
  const stored = await storeConnectedAccount(context, row, exchanged, now);
  if (stored === "connect_token_used") {
    return failAttempt(
      context,
      row,
      "connect_token_used",
      "The connect token was already used to connect an account: ask your server for a new one.",
    );
  }
  if (stored === null) {
    return failAttempt(
      context,
      row,
      "connected_account_unavailable",
      `The connected account ${row.connected_account_id} being reconnected was deleted meanwhile.`,
    );
  }
  return {
    ok: true,
    connection: await getOAuthConnection(context, row.account_id, row.id),
    connectedAccountId: stored,
    app: row.app,
    openerOrigin: row.opener_origin,
  };
}

/** The callback's attempt, claimed once (from `pending` to `exchanging`) while it has not expired. */
async function claimAttempt(
  context: CoreContext,
  state: unknown,
): Promise<{ readonly row: AttemptRow; readonly now: number } | CallbackRefusal> {
  const refused = (code: OAuthCallbackFailureCode, message: string) =>
    ({ ok: false, code, message, openerOrigin: null, connectionId: null }) as const;
  if (typeof state !== "string" || state === "" || state.length > 512) {
    return refused("invalid_state", "The callback has no state: start connecting the app again.");
  }
  const { db } = context.store;
  const row = await db
    .selectFrom("oauth_connections")
    .selectAll()
    .where("state_hash", "=", hashState(state))
    .executeTakeFirst();
  if (!row) {
    return refused("invalid_state", "This state is not one Sluice issued: start connecting the app again.");
  }
  const now = Date.now();
  const claimed = await db
    .updateTable("oauth_connections")
    .set({ status: "exchanging", updated_at: now })
    .where("id", "=", row.id)
    .where("status", "=", "pending")
    .where("expires_at", ">", now)
    .executeTakeFirst();
  if (Number(claimed.numUpdatedRows) === 0) {
    if (row.status === "pending" && Number(row.expires_at) <= now) {
      return refusal(
        row,
        "state_expired",
        "This connection link has expired: start connecting the app again.",
      );
    }
    return refusal(
      row,
      "state_used",
      "This connection link was already used: start connecting the app again for a new one.",
    );
  }
  return { row, now };
}

function refusal(row: AttemptRow, code: OAuthCallbackFailureCode, message: string): CallbackRefusal {
  return { ok: false, code, message, openerOrigin: row.opener_origin, connectionId: row.id };
}

/** Ends a claimed attempt as failed, keeping only its error. */
async function failAttempt(
  context: CoreContext,
  row: AttemptRow,
  code: OAuthCallbackFailureCode,
  message: string,
): Promise<CallbackRefusal> {
  await context.store.db
    .updateTable("oauth_connections")
    .set({ status: "failed", error: message, updated_at: Date.now() })
    .where("id", "=", row.id)
    .execute();
  return refusal(row, code, message);
}

interface ExchangedCode {
  readonly tokens: TokenSet;
  readonly uid: string | null;
  readonly clientId: string;
}

/** The code exchanged for tokens, and the provider's user id; the attempt failed when the provider refuses. */
async function exchangeForTokens(
  context: CoreContext,
  row: AttemptRow,
  code: string,
): Promise<ExchangedCode | CallbackRefusal> {
  try {
    const { app, sealedClientSecret } = await resolveOAuthApp(context.store.db, row.account_id, row.app);
    const client = {
      settings: app.oauth,
      clientSecret: sealedClientSecret === null ? null : context.secrets.decrypt(sealedClientSecret),
    };
    const tokens = await exchangeCode(context.oauth.transport, client, {
      code,
      redirectUri: row.redirect_uri,
      codeVerifier: row.code_verifier === null ? null : context.secrets.decrypt(row.code_verifier),
    });
    const uid = await fetchUserId(context.oauth.transport, app.oauth, tokens.accessToken);
    return { tokens, uid, clientId: app.oauth.clientId };
  } catch (error) {
    if (error instanceof OAuthProviderError) {
      return failAttempt(
        context,
        row,
        "oauth_provider_error",
        `The provider refused the code (${error.message.slice(0, 500)}).`,
      );
    }
    if (error instanceof Error) {
      return failAttempt(
        context,
        row,
        "oauth_token_failed",
        `Exchanging the code failed: ${error.message.slice(0, 500)}.`,
      );
    }
    throw error;
  }
}

/**
 * Stores the tokens sealed in a new connected account, or the one being reconnected, and marks the
 * attempt connected, spending its connect token if it has one, all in one transaction. The
 * account's id; null when the account being reconnected is gone; `connect_token_used` when
 * another attempt spent the token first (nothing is stored).
 */
async function storeConnectedAccount(
  context: CoreContext,
  row: AttemptRow,
  { tokens, uid, clientId }: ExchangedCode,
  now: number,
): Promise<string | null | "connect_token_used"> {
  const fields = JSON.parse(context.secrets.decrypt(row.fields)) as Record<string, unknown>;
  const auth = {
    ...fields,
    oauth_access_token: tokens.accessToken,
    oauth_refresh_token: tokens.refreshToken,
    oauth_uid: uid,
    oauth_client_id: clientId,
  };
  const credentials = context.secrets.encrypt(JSON.stringify(auth));
  return context.store.db
    .transaction()
    .execute(async (tx) => {
      let accountId = row.connected_account_id;
      if (accountId !== null) {
        const updated = await tx
          .updateTable("connected_accounts")
          .set({
            credentials,
            healthy: 1,
            error: null,
            expires_at: tokens.expiresAt,
            last_refreshed_at: now,
            updated_at: now,
          })
          .where("id", "=", accountId)
          .where("account_id", "=", row.account_id)
          .executeTakeFirst();
        if (Number(updated.numUpdatedRows) === 0) return null;
      } else {
        accountId = newId("apn");
        await tx
          .insertInto("connected_accounts")
          .values({
            id: accountId,
            account_id: row.account_id,
            app: row.app,
            name: row.name ?? (uid ? `${row.app} ${uid}` : row.app),
            auth_type: "oauth",
            credentials,
            healthy: 1,
            error: null,
            expires_at: tokens.expiresAt,
            last_refreshed_at: now,
            created_at: now,
            updated_at: now,
          })
          .execute();
      }
      await tx
        .updateTable("oauth_connections")
        .set({ status: "connected", connected_account_id: accountId, error: null, updated_at: Date.now() })
        .where("id", "=", row.id)
        .execute();
      if (
        row.connect_token_hash !== null &&
        !(await context.oauth.spendGrant(tx, row.connect_token_hash, now))
      ) {
        throw new ConnectTokenSpent();
      }
      return accountId;
    })
    .catch((error: unknown) => {
      if (error instanceof ConnectTokenSpent) return "connect_token_used" as const;
      throw error;
    });
}

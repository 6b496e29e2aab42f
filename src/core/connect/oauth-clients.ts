/**
 * OAuth clients for Pipedream's `POST /v1/oauth/token` (client credentials grant). A client acts
 * for the account that created it; its secret is shown once and stored as a SHA-256 hash (it is
 * 256 random bits, so a plain hash is enough). An access token lives an hour (as Pipedream's;
 * SLUICE_ACCESS_TOKEN_SECONDS), is stored hashed too, and dies with its client when the client is
 * revoked.
 */
// Kysely here, not in the store: reads and writes only its own tables (OAuth clients, their tokens).
import { randomBytes } from "node:crypto";
import type { Executor, OAuthClientsTable } from "../../store/schema.js";
import { ACCOUNT_COLUMNS, type Account, toAccount } from "../accounts/accounts.js";
import { InvalidInputError, NotFoundError, SluiceError } from "../errors.js";
import { hashApiKey, looksLikeId, newId } from "../ids.js";
import { optionalText } from "../validation.js";

export const ACCESS_TOKEN_PREFIX = "sat_";
const MAX_NAME_LENGTH = 200;

export interface OAuthClient {
  readonly id: string;
  readonly accountId: string;
  readonly name: string | null;
  readonly createdAt: number;
  readonly lastUsedAt: number | null;
}

function toClient(row: OAuthClientsTable): OAuthClient {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    createdAt: Number(row.created_at),
    lastUsedAt: row.last_used_at === null ? null : Number(row.last_used_at),
  };
}

/** A new client and its secret, which is returned this once. */
export async function createOAuthClient(
  db: Executor,
  accountId: string,
  input: { name?: unknown },
): Promise<{ client: OAuthClient; secret: string }> {
  const name = optionalText(input.name, "name", MAX_NAME_LENGTH)?.trim() || null;
  const secret = `scs_${randomBytes(32).toString("base64url")}`;
  const row: OAuthClientsTable = {
    id: newId("ocl"),
    account_id: accountId,
    name,
    secret_hash: hashApiKey(secret),
    created_at: Date.now(),
    last_used_at: null,
    revoked_at: null,
  };
  await db.insertInto("oauth_clients").values(row).execute();
  return { client: toClient(row), secret };
}

/** The account's clients that are not revoked, newest first. */
export async function listOAuthClients(db: Executor, accountId: string): Promise<OAuthClient[]> {
  const rows = await db
    .selectFrom("oauth_clients")
    .selectAll()
    .where("account_id", "=", accountId)
    .where("revoked_at", "is", null)
    .orderBy("id", "desc")
    .execute();
  return rows.map(toClient);
}

/** Revokes a client: its secret is refused and its access tokens stop working at once. */
export async function revokeOAuthClient(db: Executor, accountId: string, id: string): Promise<string> {
  const result = looksLikeId(id, "ocl")
    ? await db
        .updateTable("oauth_clients")
        .set({ revoked_at: Date.now() })
        .where("id", "=", id)
        .where("account_id", "=", accountId)
        .where("revoked_at", "is", null)
        .executeTakeFirst()
    : undefined;
  if (!result || Number(result.numUpdatedRows) === 0) throw new NotFoundError("OAuth client", id);
  await db.deleteFrom("oauth_access_tokens").where("client_id", "=", id).execute();
  return id;
}

/** OAuth's `invalid_client`: a 401 that says which credentials to check, never which one was wrong. */
export class InvalidClientError extends SluiceError {
  readonly kind = "unauthenticated";
  constructor() {
    super("invalid_client", "The client_id is unknown or revoked, or the client_secret is wrong");
  }
}

export interface TokenRequest {
  readonly grant_type?: unknown;
  readonly client_id?: unknown;
  readonly client_secret?: unknown;
  readonly scope?: unknown;
}

/** `POST /v1/oauth/token`: a client's id and secret exchanged for an hour's access token. */
export async function issueAccessToken(
  db: Executor,
  input: TokenRequest,
  lifetimeSeconds: number,
  now = Date.now(),
): Promise<{ accessToken: string; expiresIn: number; scope: string }> {
  if (input.grant_type !== undefined && input.grant_type !== "client_credentials") {
    throw new InvalidInputError(
      `grant_type '${String(input.grant_type)}' is not supported: use client_credentials`,
      "unsupported_grant_type",
    );
  }
  if (typeof input.client_id !== "string" || typeof input.client_secret !== "string") {
    throw new InvalidInputError("client_id and client_secret are required", "invalid_request");
  }
  if (input.scope !== undefined && input.scope !== null && typeof input.scope !== "string") {
    throw new InvalidInputError("scope must be a string of space-separated scopes", "invalid_scope");
  }
  const row = looksLikeId(input.client_id, "ocl")
    ? await db
        .selectFrom("oauth_clients")
        .select(["id", "secret_hash"])
        .where("id", "=", input.client_id)
        .where("revoked_at", "is", null)
        .executeTakeFirst()
    : undefined;
  if (!row || row.secret_hash !== hashApiKey(input.client_secret)) {
    throw new InvalidClientError();
  }
  const accessToken = `${ACCESS_TOKEN_PREFIX}${randomBytes(32).toString("base64url")}`;
  await db
    .insertInto("oauth_access_tokens")
    .values({
      token_hash: hashApiKey(accessToken),
      client_id: row.id,
      created_at: now,
      expires_at: now + lifetimeSeconds * 1000,
    })
    .execute();
  await db.updateTable("oauth_clients").set({ last_used_at: now }).where("id", "=", row.id).execute();
  // Expired tokens are swept here, when a new one is issued, rather than by a timer.
  await db.deleteFrom("oauth_access_tokens").where("expires_at", "<", now).execute();
  const scope = typeof input.scope === "string" && input.scope.trim() !== "" ? input.scope.trim() : "*";
  return { accessToken, expiresIn: lifetimeSeconds, scope };
}

/** The account an access token acts for, or null when it is unknown, expired or its client revoked. */
export async function authenticateAccessToken(
  db: Executor,
  token: string,
  now = Date.now(),
): Promise<Account | null> {
  const row = await db
    .selectFrom("oauth_access_tokens")
    .innerJoin("oauth_clients", "oauth_clients.id", "oauth_access_tokens.client_id")
    .innerJoin("accounts", "accounts.id", "oauth_clients.account_id")
    .select(ACCOUNT_COLUMNS)
    .where("oauth_access_tokens.token_hash", "=", hashApiKey(token))
    .where("oauth_access_tokens.expires_at", ">", now)
    .where("oauth_clients.revoked_at", "is", null)
    .executeTakeFirst();
  return row ? toAccount(row) : null;
}

/**
 * Connect tokens (`ctok_…`): a short-lived credential for one end user's browser. The product's
 * server creates one (`POST /v1/connect/{project_id}/tokens`) and hands it to the page, which
 * calls the Connect API with it and opens the connect link page where the end user connects an
 * app. A token is spent once it has connected an account, as on Pipedream. Stored only hashed.
 */
// Kysely here, not in the store: reads and writes only its own table (connect_tokens).
import { randomBytes } from "node:crypto";
import type { Executor } from "../../store/schema.js";
import type { Store } from "../../store/store.js";
import { InvalidInputError, SluiceError } from "../errors.js";
import { hashApiKey } from "../ids.js";
import {
  checkExternalUserId,
  type EndUser,
  type Environment,
  ensureEndUser,
  toEndUser,
} from "./end-users.js";
import type { Project } from "./projects.js";

export const CONNECT_TOKEN_PREFIX = "ctok_";
/** Pipedream's default and longest lifetime: four hours. */
export const MAX_CONNECT_TOKEN_SECONDS = 4 * 3600;
const MAX_ORIGINS = 50;
const MAX_URI_LENGTH = 2048;

export interface ConnectTokenInput {
  readonly external_user_id?: unknown;
  readonly expires_in?: unknown;
  readonly allowed_origins?: unknown;
  readonly success_redirect_uri?: unknown;
  readonly error_redirect_uri?: unknown;
  readonly webhook_uri?: unknown;
  readonly scope?: unknown;
  readonly allow_progressive_scopes?: unknown;
}

export interface IssuedConnectToken {
  readonly token: string;
  readonly expiresAt: number;
  readonly endUser: EndUser;
}

/** What a live connect token stands for. */
export interface ConnectTokenGrant {
  readonly tokenHash: string;
  readonly ownerAccountId: string;
  readonly projectId: string;
  readonly environment: Environment;
  readonly endUser: EndUser;
  /** null: any origin. */
  readonly allowedOrigins: readonly string[] | null;
  readonly successRedirectUri: string | null;
  readonly errorRedirectUri: string | null;
  readonly expiresAt: number;
}

/** A connect token that is unknown, expired or spent: the browser must ask its server for another. */
export class ConnectTokenError extends SluiceError {
  readonly kind = "unauthenticated";
}

export async function createConnectToken(
  store: Store,
  project: Pick<Project, "id">,
  environment: Environment,
  input: ConnectTokenInput,
  now = Date.now(),
): Promise<IssuedConnectToken> {
  const externalUserId = checkExternalUserId(input.external_user_id);
  let seconds = MAX_CONNECT_TOKEN_SECONDS;
  if (input.expires_in !== undefined && input.expires_in !== null) {
    const value = Number(input.expires_in);
    if (!Number.isInteger(value) || value < 1 || value > MAX_CONNECT_TOKEN_SECONDS) {
      throw new InvalidInputError(
        `expires_in must be a whole number of seconds from 1 to ${MAX_CONNECT_TOKEN_SECONDS}`,
      );
    }
    seconds = value;
  }
  if (input.webhook_uri !== undefined && input.webhook_uri !== null && input.webhook_uri !== "") {
    throw new InvalidInputError(
      "webhook_uri (connection webhooks) is not supported by Sluice; list the end user's accounts after the connect page reports success",
      "unsupported",
    );
  }
  if (input.scope !== undefined && input.scope !== null && String(input.scope).trim() !== "connect:*") {
    throw new InvalidInputError(
      "scope: Sluice's connect tokens carry every Connect permission of their end user; omit scope or send connect:*",
      "unsupported",
    );
  }
  const origins = checkOrigins(input.allowed_origins);
  const endUser = await ensureEndUser(store, project, environment, externalUserId);
  const { db } = store;
  const token = `${CONNECT_TOKEN_PREFIX}${randomBytes(24).toString("base64url")}`;
  const expiresAt = now + seconds * 1000;
  await db
    .insertInto("connect_tokens")
    .values({
      token_hash: hashApiKey(token),
      end_user_account_id: endUser.accountId,
      allowed_origins: origins === null ? null : JSON.stringify(origins),
      success_redirect_uri: checkUri(input.success_redirect_uri, "success_redirect_uri"),
      error_redirect_uri: checkUri(input.error_redirect_uri, "error_redirect_uri"),
      created_at: now,
      expires_at: expiresAt,
      used_at: null,
    })
    .execute();
  // Tokens a day past their end are swept here, when a new one is made, rather than by a timer.
  await db
    .deleteFrom("connect_tokens")
    .where("expires_at", "<", now - 24 * 3600 * 1000)
    .execute();
  return { token, expiresAt, endUser };
}

/**
 * The grant of a connect token, or ConnectTokenError saying why it cannot be used (unknown,
 * expired, or already used to connect an account).
 */
export async function authenticateConnectToken(
  db: Executor,
  token: string,
  now = Date.now(),
): Promise<ConnectTokenGrant> {
  const row = await db
    .selectFrom("connect_tokens")
    .innerJoin("connect_end_users", "connect_end_users.account_id", "connect_tokens.end_user_account_id")
    .innerJoin("connect_projects", "connect_projects.id", "connect_end_users.project_id")
    .selectAll("connect_end_users")
    .select([
      "connect_tokens.token_hash",
      "connect_tokens.allowed_origins",
      "connect_tokens.success_redirect_uri",
      "connect_tokens.error_redirect_uri",
      "connect_tokens.expires_at",
      "connect_tokens.used_at",
      "connect_projects.account_id as owner_account_id",
    ])
    .where("connect_tokens.token_hash", "=", hashApiKey(token))
    .executeTakeFirst();
  if (!row) throw new ConnectTokenError("invalid_connect_token", "The connect token is not valid");
  if (Number(row.expires_at) <= now) {
    throw new ConnectTokenError(
      "connect_token_expired",
      "The connect token has expired: ask your server for a new one",
    );
  }
  if (row.used_at !== null) {
    throw new ConnectTokenError(
      "connect_token_used",
      "The connect token was already used to connect an account: ask your server for a new one",
    );
  }
  const endUser = toEndUser(row);
  return {
    tokenHash: row.token_hash,
    ownerAccountId: row.owner_account_id,
    projectId: endUser.projectId,
    environment: endUser.environment,
    endUser,
    allowedOrigins: row.allowed_origins === null ? null : (JSON.parse(row.allowed_origins) as string[]),
    successRedirectUri: row.success_redirect_uri,
    errorRedirectUri: row.error_redirect_uri,
    expiresAt: Number(row.expires_at),
  };
}

/** Marks the token spent; false when another request spent it first. */
export async function spendConnectToken(db: Executor, tokenHash: string, now = Date.now()): Promise<boolean> {
  const result = await db
    .updateTable("connect_tokens")
    .set({ used_at: now })
    .where("token_hash", "=", tokenHash)
    .where("used_at", "is", null)
    .executeTakeFirst();
  return Number(result.numUpdatedRows) === 1;
}

function checkOrigins(value: unknown): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || value.length > MAX_ORIGINS) {
    throw new InvalidInputError(
      `allowed_origins must be a list of at most ${MAX_ORIGINS} origins, such as ["https://app.example.com"]`,
    );
  }
  return value.map((origin) => {
    let parsed: URL | undefined;
    try {
      parsed = typeof origin === "string" ? new URL(origin) : undefined;
    } catch {
      parsed = undefined;
    }
    if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
      throw new InvalidInputError(
        `allowed_origins: '${String(origin)}' is not an origin such as https://app.example.com`,
      );
    }
    return parsed.origin;
  });
}

function checkUri(value: unknown, field: string): string | null {
  if (value === undefined || value === null || value === "") return null;
  let parsed: URL | undefined;
  try {
    parsed = typeof value === "string" && value.length <= MAX_URI_LENGTH ? new URL(value) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!parsed || (parsed.protocol !== "http:" && parsed.protocol !== "https:")) {
    throw new InvalidInputError(`${field} must be an absolute http(s) URL`);
  }
  return parsed.toString();
}

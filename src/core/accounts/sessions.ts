/**
 * Web UI sessions. Signing in exchanges an API key for a random session token that the browser
 * keeps in an httpOnly cookie (the key itself never reaches the page's storage). A session lives
 * as long as its key: revoking the key ends every session opened with it, on the next request.
 */
// Kysely here, not in the store: reads and writes only its own table (ui_sessions).
import { randomBytes } from "node:crypto";
import type { Executor } from "../../store/schema.js";
import { hashApiKey } from "../ids.js";
import { ACCOUNT_COLUMNS, type Authenticated, authenticate, toAccount } from "./accounts.js";

/** How long a session lasts after sign-in. */
export const SESSION_LIFETIME_MS = 12 * 60 * 60 * 1000;

export interface OpenedSession extends Authenticated {
  /** The cookie's value; stored only as its hash. */
  readonly token: string;
  readonly expiresAt: number;
}

/** Opens a session for a valid API key, or answers null when the key is unknown or revoked. */
export async function openSession(
  db: Executor,
  apiKey: string,
  now = Date.now(),
): Promise<OpenedSession | null> {
  const authenticated = await authenticate(db, apiKey);
  if (!authenticated) return null;
  const token = `ses_${randomBytes(32).toString("base64url")}`;
  const expiresAt = now + SESSION_LIFETIME_MS;
  await db
    .insertInto("ui_sessions")
    .values({
      token_hash: hashApiKey(token),
      api_key_id: authenticated.keyId,
      created_at: now,
      expires_at: expiresAt,
    })
    .execute();
  // Expired sessions are swept here, at sign-in, rather than by a timer.
  await db.deleteFrom("ui_sessions").where("expires_at", "<", now).execute();
  return { ...authenticated, token, expiresAt };
}

/** The account behind a live session token, or null (unknown, expired, or its key revoked). */
export async function authenticateSession(
  db: Executor,
  token: string,
  now = Date.now(),
): Promise<Authenticated | null> {
  const row = await db
    .selectFrom("ui_sessions")
    .innerJoin("api_keys", "api_keys.id", "ui_sessions.api_key_id")
    .innerJoin("accounts", "accounts.id", "api_keys.account_id")
    .select(["api_keys.id as key_id", ...ACCOUNT_COLUMNS])
    .where("ui_sessions.token_hash", "=", hashApiKey(token))
    .where("ui_sessions.expires_at", ">", now)
    .where("api_keys.revoked_at", "is", null)
    .executeTakeFirst();
  return row ? { keyId: row.key_id, account: toAccount(row) } : null;
}

/** Ends a session (sign-out). Unknown tokens are ignored. */
export async function closeSession(db: Executor, token: string): Promise<void> {
  await db.deleteFrom("ui_sessions").where("token_hash", "=", hashApiKey(token)).execute();
}

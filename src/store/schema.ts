/**
 * The database schema as Kysely sees it. Times are epoch milliseconds (bigint) and booleans are
 * 0/1 integers in both dialects, so one code path reads and writes them everywhere.
 */
import type { Generated, Kysely } from "kysely";

export interface AccountsTable {
  id: string;
  name: string;
  is_admin: number;
  created_at: number;
}

export interface ApiKeysTable {
  id: string;
  account_id: string;
  key_hash: string;
  /** The first characters of the key, to tell keys apart in lists. */
  key_prefix: string;
  name: string | null;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface WebhooksTable {
  id: string;
  account_id: string;
  url: string;
  name: string;
  description: string;
  active: number;
  /** The whsec_ secret, encrypted under the master key. */
  signing_secret: string;
  created_at: number;
  updated_at: number;
}

export type JobState = "queued" | "failed";

export interface JobsTable {
  id: string;
  queue: string;
  /** When set, at most one job with this key exists (scheduling the same tick twice is a no-op). */
  unique_key: string | null;
  payload: string;
  state: JobState;
  run_at: number;
  attempts: number;
  /** Identifies the claim that holds the lease; complete, fail and extend must present it. */
  lease_token: string | null;
  locked_until: number | null;
  last_error: string | null;
  created_at: number;
}

/** Small key-value settings of the installation (bootstrap marker, master key fingerprint). */
export interface MetaTable {
  key: string;
  value: string;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  webhooks: WebhooksTable;
  jobs: JobsTable;
  meta: MetaTable;
}

/** A database handle or an open transaction: store operations accept either. */
export type Executor = Kysely<Database>;

// Generated is re-exported for migrations that add identity columns later.
export type { Generated };

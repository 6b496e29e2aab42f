/** The REST API's resources as they appear on the wire. */
export interface PageInfo {
  total_count: number;
  count: number;
  start_cursor: string | null;
  end_cursor: string | null;
}

export interface PageOf<T> {
  page_info: PageInfo;
  data: T[];
}

export interface PageParams {
  limit?: number;
  after?: string;
  before?: string;
}

export interface Me {
  id: string;
  username: string;
  name: string;
  is_admin: boolean;
  created_at: number;
}

export interface CreatedAccount {
  id: string;
  name: string;
  api_key: string;
}

export interface ApiKeyInfo {
  id: string;
  name: string | null;
  prefix: string;
  created_at: number;
  last_used_at: number | null;
}

export interface CreatedApiKey extends ApiKeyInfo {
  api_key: string;
}

export interface Webhook {
  id: string;
  url: string;
  name: string;
  description: string;
  active: boolean;
  created_at: number;
  updated_at: number;
}

export interface CreatedWebhook extends Webhook {
  signing_secret: string;
}

export interface Deleted {
  id: string;
  deleted: boolean;
}

export interface ConfigurableProp {
  name: string;
  type: string;
  label?: string;
  description?: string;
  optional?: boolean;
  default?: unknown;
  secret?: boolean;
  min?: number;
  max?: number;
  options?: unknown[];
  [field: string]: unknown;
}

export interface Component {
  id: string;
  code: string;
  code_hash: string;
  name: string;
  key: string | null;
  version: string | null;
  type: "source" | "action";
  description: string | null;
  configurable_props: ConfigurableProp[];
  dedupe: string | null;
  lock: Record<string, string>;
  created_at: number;
}

export interface Source {
  id: string;
  owner_id: string;
  component_id: string;
  component_key: string | null;
  configured_props: Record<string, unknown>;
  active: boolean;
  created_at: number;
  updated_at: number;
  name: string;
  name_slug: string;
  endpoint_url: string | null;
  timeout_seconds: number;
  max_events: number;
}

export interface SourceParams {
  component_id?: string;
  component_code?: string;
  component_url?: string;
  key?: string;
  filename?: string;
  name?: string;
  configured_props?: Record<string, unknown>;
  active?: boolean;
  timeout_seconds?: number;
  max_events?: number;
}

export interface EventSummary {
  id: string;
  indexed_at_ms: number;
  event?: unknown;
  event_truncated?: boolean;
  metadata: { emit_id: string; emitter_id: string; name: string; id: string | null; summary: string | null };
}

export interface LogEntry {
  id: string;
  ts: number;
  level: string;
  message: string;
  invocation_id: string;
}

export interface RunResult {
  invocation_id: string;
  ok: boolean;
  failure: { reason: string; message: string; stack?: string } | null;
  duration_ms: number;
  events: string[];
  logs: { ts: number; level: string; message: string }[];
}

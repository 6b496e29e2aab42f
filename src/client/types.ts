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
  /** Deliveries per second at most (per node), or null for no limit. */
  rate_limit: number | null;
  /** Why Sluice disabled the webhook (a 410, five days of failures); null otherwise. */
  disabled_reason: string | null;
  created_at: number;
  updated_at: number;
}

/** What `PUT /v1/webhooks/{id}` changes; `active: true` re-enables a disabled webhook. */
export interface WebhookUpdate {
  active?: boolean;
  name?: string;
  description?: string;
  url?: string;
  /** Deliveries per second at most; null removes the limit. */
  rate_limit?: number | null;
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
  /** The component has additionalProps: `POST /v1/components/props` answers its full props. */
  has_additional_props?: boolean;
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
  component_version: string | null;
  /** Epoch seconds of the newest event; null before the first. */
  last_event_at: number | null;
}

export interface SourceParams {
  component_id?: string;
  component_code?: string;
  component_url?: string;
  key?: string;
  filename?: string;
  name?: string;
  configured_props?: Record<string, unknown>;
  /** dyp_… from `POST /v1/components/props`, for a component whose props were reloaded. */
  dynamic_props_id?: string;
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

/** Joins an emitter (a `dc_` source) to a listener (a `wh_` webhook), optionally for one channel. */
export interface SubscriptionParams {
  emitter_id: string;
  listener_id: string;
  /** The channel; `$default` for the default channel only; every channel when absent. */
  event_name?: string;
}

export interface Subscription {
  id: string;
  emitter_id: string;
  listener_id: string;
  /** The channel filter; null for every channel. */
  event_name: string | null;
  created_at: number;
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

/** One event on its way to one webhook, as the delivery log shows it. */
export interface Delivery {
  id: string;
  webhook_id: string;
  emitter_id: string;
  event_id: string;
  channel: string | null;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_latency_ms: number | null;
  last_error: string | null;
  /** Epoch seconds of the next automatic attempt; null when none is planned. */
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface DeliveryAttempt {
  attempt: number;
  /** Epoch seconds. */
  at: number;
  /** null when no HTTP answer came (a time-out, a refused connection, the SSRF guard). */
  status_code: number | null;
  latency_ms: number | null;
  error: string | null;
  /** The start of the receiver's answer (at most 1 KB). */
  response_body: string | null;
}

export interface DeliveryWithAttempts extends Delivery {
  attempt_log: DeliveryAttempt[];
}

export interface Recovered {
  /** How many failed deliveries were queued to be sent again. */
  resent: number;
}

/** A component published under its key and version (`sluice publish`); the code is left out of lists. */
export interface PublishedComponent extends Omit<Component, "code" | "key" | "version"> {
  key: string;
  version: string;
  /** Epoch seconds. */
  published_at: number;
}

/** `GET /v1/published/{key}`: the version `key` resolves to, its code, and every published version. */
export interface PublishedComponentDetail extends PublishedComponent {
  code: string;
  versions: { version: string; component_id: string; published_at: number }[];
}

export interface Unpublished {
  key: string;
  /** The versions removed, latest first. */
  versions: string[];
  deleted: boolean;
}

/** `POST /v1/actions/run`: one of component_id, component_code, component_url or key names the action. */
export interface ActionRunParams {
  component_id?: string;
  component_code?: string;
  component_url?: string;
  filename?: string;
  /** A published key (its latest version) or `key@version`. */
  key?: string;
  configured_props?: Record<string, unknown>;
  /** What `run({ steps })` receives. */
  steps?: Record<string, unknown>;
  timeout_seconds?: number;
  /** A `dyp_` id from `POST /v1/components/props`: the action's additional props. */
  dynamic_props_id?: string;
}

/** One `$.send.*` call of an action and what became of it. */
export interface ActionSendReport {
  kind: "http" | "email" | "emit" | "sse" | "s3";
  input: Record<string, unknown>;
  outcome: {
    ok: boolean;
    /** The HTTP status of an http send. */
    status?: number;
    error?: string;
    message_id?: string;
    /** emit and sse: kept in the result (a workflow routes them). */
    recorded?: boolean;
    /** Not attempted: the run failed. */
    skipped?: boolean;
  };
}

export interface ActionRunResult {
  component_id: string;
  component_key: string | null;
  component_version: string | null;
  ok: boolean;
  return_value: unknown;
  exports: Record<string, unknown>;
  summary: string | null;
  logs: { ts: number; level: string; message: string }[];
  flow_exit: { reason: string | null } | null;
  respond: {
    status: number;
    headers: Record<string, string>;
    body: unknown;
    body_encoding?: "base64";
    immediate: boolean;
  } | null;
  sends: ActionSendReport[];
  duration_ms: number;
  failure: { reason: string; message: string; stack?: string } | null;
}

/** A saved component as lists show it: without its code. */
export type ComponentSummary = Omit<Component, "code">;

export type * from "./workflow-types.js";

/** A component in a registry, as search and the public registry list it (the latest version of its key). */
export interface ListedComponent {
  /** sc_… of the published code. */
  id: string;
  key: string;
  version: string;
  registry: "public" | "private";
  app: string | null;
  type: "source" | "action";
  name: string;
  description: string | null;
  /** Epoch seconds. */
  published_at: number;
  deprecated: boolean;
}

/** `POST /v1/registry/components`: `unchanged` when the same code was already published under that version. */
export interface PublicPublished extends ListedComponent {
  status: "published" | "unchanged";
}

/** `GET /v1/registry/components/{key}`: the version the key resolves to and every version. */
export interface PublicComponentDetail extends ListedComponent {
  versions: ListedComponent[];
}

export interface ComponentSearchParams extends PageParams {
  q?: string;
  app?: string;
  type?: "source" | "action";
  registry?: "public" | "private" | "all";
}

/** What unpublish and deprecate in the public registry changed. */
export interface PublicVersionsChanged {
  key: string;
  versions: string[];
  deleted?: boolean;
  deprecated?: boolean;
}

/** One component of a package import. */
export interface ImportedComponent {
  file: string;
  status: "published" | "skipped" | "failed";
  key: string | null;
  version: string | null;
  reason?: string;
}

export interface ImportReport {
  registry: "public" | "private";
  components: ImportedComponent[];
}

export interface ImportInput {
  npm?: string;
  files?: Record<string, string>;
  registry?: "public" | "private";
}

/** An import run as a job (`POST /v1/registry/imports`). */
export interface ImportJob extends ImportReport {
  id: string;
  status: "running" | "succeeded" | "failed";
  source: string;
  /** How many components the package has; `components` holds those imported so far. */
  total: number;
  error: string | null;
  created_at: number;
  finished_at: number | null;
}

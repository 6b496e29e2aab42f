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
  /** Deliveries per second at most; null for no limit. */
  rate_limit: number | null;
  /** After a rotation, the old secret (sealed) keeps signing until it expires. */
  previous_secret: string | null;
  previous_secret_expires_at: number | null;
  /** Why the webhook was disabled (a 410, five days of failures), when it was. */
  disabled_reason: string | null;
  /** Since when every attempt has failed; null after a success. */
  failing_since: number | null;
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
  /** Jobs of one group (one webhook) can be left out of a claim by a claimer busy with that group. */
  group_key: string | null;
}

/** Small key-value settings of the installation (bootstrap marker, master key fingerprint). */
export interface MetaTable {
  key: string;
  value: string;
}

export interface ComponentsTable {
  id: string;
  account_id: string;
  key: string | null;
  name: string;
  version: string | null;
  type: string;
  description: string | null;
  code: string;
  code_hash: string;
  /** The compiled ES module, so that every node can materialise the artifact. */
  bundle: string;
  bundle_hash: string;
  /** JSON: npm package name → exact version. */
  lock: string;
  /** JSON: the ComponentDefinition the sandbox described. */
  definition: string;
  created_at: number;
}

export interface SourcesTable {
  id: string;
  account_id: string;
  component_id: string;
  name: string;
  name_slug: string;
  /** JSON; secret values are sealed by the secret box. */
  configured_props: string;
  active: number;
  endpoint_id: string | null;
  timeout_seconds: number;
  /** Retention: the newest this many events are kept. */
  max_events: number;
  /** JSON state of the dedupe strategy (unique: recent ids; greatest/last: one id). */
  dedupe_state: string | null;
  /** The last event id handed out, `<ms>-<seq>`: event ids rise strictly per emitter. */
  last_event_ms: Generated<number>;
  last_event_seq: Generated<number>;
  last_log_ms: Generated<number>;
  last_log_seq: Generated<number>;
  /** Events and log lines stored, so that retention trims only when over its limit. */
  event_count: Generated<number>;
  log_count: Generated<number>;
  created_at: number;
  updated_at: number;
  /** JSON: the additional props (PropDefinition[]) it was deployed with, or null. */
  dynamic_props: string | null;
}

export interface EventsTable {
  emitter_id: string;
  ms: number;
  seq: number;
  account_id: string;
  /** The `name` given to $emit; null is the default channel. */
  channel: string | null;
  /** The `id` given to $emit (the dedupe key), as text. */
  event_key: string | null;
  summary: string | null;
  /** JSON of the emitted event. */
  payload: string;
}

export interface EmitterLogsTable {
  emitter_id: string;
  ms: number;
  seq: number;
  invocation_id: string;
  level: string;
  message: string;
  ts: number;
}

export interface KvTable {
  emitter_id: string;
  key: string;
  /** JSON. */
  value: string;
}

/** `$.service.db` of a workflow's step (an action's state, kept per workflow and step). */
export interface WorkflowStepStateTable {
  workflow_id: string;
  step: string;
  key: string;
  /** JSON. */
  value: string;
}

/** `$.service.db` of an action run on its own (`POST /v1/actions/run`), per account and component key. */
export interface ActionStateTable {
  account_id: string;
  component_key: string;
  key: string;
  /** JSON. */
  value: string;
}

export interface SubscriptionsTable {
  id: string;
  account_id: string;
  emitter_id: string;
  listener_id: string;
  /** The channel filter; "" means every channel. */
  event_name: string;
  created_at: number;
}

export type DeliveryStatus = "pending" | "delivered" | "failed";

export interface DeliveriesTable {
  id: string;
  account_id: string;
  webhook_id: string;
  emitter_id: string;
  event_id: string;
  channel: string | null;
  /** JSON of the emitted event, kept so that retention never loses an undelivered event. */
  payload: string;
  status: DeliveryStatus;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  last_latency_ms: number | null;
  next_attempt_at: number | null;
  created_at: number;
  updated_at: number;
}

export interface DeliveryAttemptsTable {
  delivery_id: string;
  attempt: number;
  at: number;
  status_code: number | null;
  latency_ms: number;
  error: string | null;
  response_body: string | null;
}

/** A saved component published under its key and version (one component per key and version). */
export interface PublishedComponentsTable {
  account_id: string;
  key: string;
  version: string;
  component_id: string;
  published_at: number;
}

export interface PublicComponentsTable {
  key: string;
  version: string;
  /** The publisher. */
  account_id: string;
  component_id: string;
  /** The app slug the key starts with. */
  app: string;
  type: string;
  name: string;
  description: string;
  published_at: number;
  deprecated_at: number | null;
}

/** An import of a Pipedream-layout package, run as a job (core/components/package-import/import-jobs.ts). */
export interface RegistryImportsTable {
  /** `imp_…` */
  id: string;
  account_id: string;
  /** `public` or `private`. */
  registry: string;
  /** `npm:<spec>`, or `files` for a folder the CLI sent. */
  source: string;
  /** `running`, `succeeded` or `failed`. */
  status: string;
  /** How many components the package has. */
  total: number;
  /** JSON: one entry per component imported so far, in the package's order. */
  report: string;
  /** Why the import stopped before its end (`failed`). */
  error: string | null;
  created_at: number;
  /** Renewed while the import runs; one that stops being renewed was cut off (its server died). */
  heartbeat_at: number;
  finished_at: number | null;
}

export interface WorkflowsTable {
  id: string;
  account_id: string;
  name: string;
  active: number;
  /** JSON: the normalized document (steps pinned to saved components, secret values sealed). */
  document: string;
  trigger_type: string;
  endpoint_id: string | null;
  trigger_source_id: string | null;
  owns_trigger_source: Generated<number>;
  concurrency: number;
  retries: number;
  /** 1: a run failed by a time-out or out of memory is retried too. */
  retry_timeouts: Generated<number>;
  timeout_seconds: number;
  expressions_bundle: string | null;
  expressions_hash: string | null;
  max_events: number;
  last_event_ms: Generated<number>;
  last_event_seq: Generated<number>;
  event_count: Generated<number>;
  created_at: number;
  updated_at: number;
}

/** `paused` and `suspended`: waiting, with no process held (`$.flow.delay`, `rerun`, `suspend`). */
export type WorkflowRunStatus =
  | "queued"
  | "running"
  | "paused"
  | "suspended"
  | "success"
  | "error"
  | "exited"
  | "cancelled";

export interface WorkflowRunsTable {
  id: string;
  workflow_id: string;
  account_id: string;
  status: WorkflowRunStatus;
  /** JSON: { event, context }. */
  trigger: string;
  /** JSON: the step records so far, the sends' outcomes and the sends still to go (run-record.ts). */
  steps: string;
  error: string | null;
  exit: string | null;
  attempts: Generated<number>;
  replay_of: string | null;
  created_at: number;
  started_at: number | null;
  finished_at: number | null;
  /** The step the next attempt goes on from: the ones before it have their outcome in `steps`. */
  next_step: Generated<number>;
  /** The lease token of the attempt that may write the run (null before its first). */
  holder: string | null;
  /** How many times the run waited: a resume or cancel URL names the wait it ends. */
  wait_seq: Generated<number>;
  /**
   * While it waits, when it goes on (a delay) or is cancelled (a suspend's time-out); left set when
   * a wait ends, until the next attempt starts, so that attempt is not counted as a new one.
   */
  resume_at: number | null;
  /** The job that carries the run, made due at once by a resume. */
  job_id: string | null;
}

/** A bulk replay of a workflow's runs, paced by a job of its own (core/workflows/replay-pacer.ts). */
export interface WorkflowReplaysTable {
  id: string;
  account_id: string;
  workflow_id: string;
  /** JSON: { statuses, failed_step, since, until } (core/workflows/bulk-replays.ts). */
  filter: string;
  /** The newest run it may replay: runs queued after it started are not its. */
  upto_id: string;
  from_failed_step: number;
  max_in_flight: number;
  total: number;
  queued: Generated<number>;
  skipped: Generated<number>;
  /** The last run it looked at (replayed or skipped); null before the first. */
  cursor: string | null;
  /** JSON: the ids of its replays queued or running when the pacer last looked. */
  in_flight: Generated<string>;
  revision: Generated<number>;
  created_at: number;
  /** When its last replay was queued (or it had none to queue). */
  finished_at: number | null;
}

/** A web UI session (src/core/accounts/sessions.ts); the token itself is only in the browser's cookie. */
export interface UiSessionsTable {
  token_hash: string;
  api_key_id: string;
  created_at: number;
  expires_at: number;
}

/** An app's auth half; `owner` is "" for a server-wide app, else the account's id. */
export interface AppsTable {
  owner: string;
  slug: string;
  name: string;
  auth_type: string;
  /** JSON: keys fields, or OAuth settings without the client secret. */
  definition: string;
  /** The OAuth client secret, sealed. */
  client_secret: string | null;
  created_at: number;
  updated_at: number;
}

/** One attempt to connect an OAuth app (`oac_…`): its hashed state and sealed PKCE verifier. */
export interface OAuthConnectionsTable {
  id: string;
  account_id: string;
  app: string;
  name: string | null;
  /** Sealed JSON of the app's custom fields. */
  fields: string;
  state_hash: string;
  /** Sealed; null without PKCE. */
  code_verifier: string | null;
  redirect_uri: string;
  opener_origin: string;
  connected_account_id: string | null;
  status: string;
  error: string | null;
  expires_at: number;
  created_at: number;
  updated_at: number;
  /** The connect token that started it from the connect link page (spent on success); else null. */
  connect_token_hash: string | null;
}

/** A connected account (`apn_…`): an account's credentials for one app, sealed. */
export interface ConnectedAccountsTable {
  id: string;
  account_id: string;
  app: string;
  name: string;
  auth_type: string;
  /** Sealed JSON of the $auth fields. */
  credentials: string;
  healthy: number;
  error: string | null;
  expires_at: number | null;
  last_refreshed_at: number | null;
  created_at: number;
  updated_at: number;
}

/** The props a component's additionalProps produced for one configuration (`dyp_…`). */
export interface DynamicPropsTable {
  id: string;
  account_id: string;
  component_id: string;
  /** JSON: PropDefinition[]. */
  props: string;
  created_at: number;
}

/** An account's data store (`ds_…`). */
export interface DataStoresTable {
  id: string;
  account_id: string;
  name: string;
  created_at: number;
}

export interface DataStoreRecordsTable {
  store_id: string;
  key: string;
  /** JSON. */
  value: string;
  /** Epoch ms; null: never expires. */
  expires_at: number | null;
  updated_at: number;
}

/** A Pipedream Connect project (`proj_…`) of an account. */
export interface ConnectProjectsTable {
  id: string;
  account_id: string;
  name: string;
  app_name: string | null;
  support_email: string | null;
  created_at: number;
  updated_at: number;
}

/** An end user of a project's environment, and the internal account that holds its resources. */
export interface ConnectEndUsersTable {
  account_id: string;
  project_id: string;
  environment: string;
  external_user_id: string;
  created_at: number;
}

/** An OAuth client (client credentials grant) acting for its account; the secret is only hashed. */
export interface OAuthClientsTable {
  id: string;
  account_id: string;
  name: string | null;
  secret_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

export interface OAuthAccessTokensTable {
  token_hash: string;
  client_id: string;
  created_at: number;
  expires_at: number;
}

/** A connect token (`ctok_…`): one end user's browser, for a short while. */
export interface ConnectTokensTable {
  token_hash: string;
  end_user_account_id: string;
  /** JSON array of origins; null: any. */
  allowed_origins: string | null;
  success_redirect_uri: string | null;
  error_redirect_uri: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
}

/** The next free send of a rate-limited key (a webhook), for every node (core/delivery/rate-slots.ts). */
export interface RateSlotsTable {
  key: string;
  /** Epoch ms; PostgreSQL returns it as a string (bigint). */
  next_at: number;
}

export interface Database {
  accounts: AccountsTable;
  api_keys: ApiKeysTable;
  webhooks: WebhooksTable;
  jobs: JobsTable;
  rate_slots: RateSlotsTable;
  meta: MetaTable;
  components: ComponentsTable;
  sources: SourcesTable;
  events: EventsTable;
  emitter_logs: EmitterLogsTable;
  kv: KvTable;
  workflow_step_state: WorkflowStepStateTable;
  action_state: ActionStateTable;
  subscriptions: SubscriptionsTable;
  deliveries: DeliveriesTable;
  delivery_attempts: DeliveryAttemptsTable;
  published_components: PublishedComponentsTable;
  public_components: PublicComponentsTable;
  registry_imports: RegistryImportsTable;
  workflows: WorkflowsTable;
  workflow_runs: WorkflowRunsTable;
  workflow_replays: WorkflowReplaysTable;
  ui_sessions: UiSessionsTable;
  apps: AppsTable;
  connected_accounts: ConnectedAccountsTable;
  oauth_connections: OAuthConnectionsTable;
  dynamic_props: DynamicPropsTable;
  data_stores: DataStoresTable;
  data_store_records: DataStoreRecordsTable;
  connect_projects: ConnectProjectsTable;
  connect_end_users: ConnectEndUsersTable;
  oauth_clients: OAuthClientsTable;
  oauth_access_tokens: OAuthAccessTokensTable;
  connect_tokens: ConnectTokensTable;
}

/** A database handle or an open transaction: store operations accept either. */
export type Executor = Kysely<Database>;

/**
 * A typed client of Sluice's REST API, shared by the CLI, the web UI and the tests. It speaks only
 * HTTP: it knows nothing of the server's internals. Every non-2xx answer becomes an ApiError that
 * carries the API's stable code and message.
 */
import type {
  ApiKeyInfo,
  BodyOf,
  Component,
  ComponentSummary,
  CreatedAccount,
  CreatedApiKey,
  CreatedWebhook,
  DataOf,
  Deleted,
  Delivery,
  DeliveryStatus,
  DeliveryWithAttempts,
  EventSummary,
  LogEntry,
  Me,
  PageOf,
  PageParams,
  Recovered,
  RunResult,
  Source,
  SourceParams,
  Subscription,
  SubscriptionParams,
  Webhook,
  WebhookUpdate,
  Workflow,
  WorkflowParams,
  WorkflowReplay,
  WorkflowReplayCount,
  WorkflowReplayParams,
  WorkflowReplayStart,
  WorkflowRun,
  WorkflowRunsQuery,
} from "./types.js";

export interface ClientOptions {
  readonly baseUrl: string;
  readonly apiKey?: string;
  /** Sent with every request (the web UI sends its CSRF header; it authenticates by cookie). */
  readonly headers?: Readonly<Record<string, string>>;
}

export class ApiError extends Error {
  override readonly name = "ApiError";
  constructor(
    readonly status: number,
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

type Query = Record<string, string | number | boolean | undefined>;

export class SluiceClient {
  private readonly baseUrl: string;

  constructor(private readonly options: ClientOptions) {
    this.baseUrl = options.baseUrl.replace(/\/+$/, "");
  }

  me(): Promise<Me> {
    return this.data("GET", "/v1/users/me");
  }

  createAccount(name: string): Promise<CreatedAccount> {
    return this.data("POST", "/v1/accounts", { body: { name } });
  }

  createApiKey(name?: string): Promise<CreatedApiKey> {
    return this.data("POST", "/v1/api_keys", { body: { name } });
  }

  listApiKeys(): Promise<ApiKeyInfo[]> {
    return this.data("GET", "/v1/api_keys");
  }

  revokeApiKey(id: string): Promise<Deleted> {
    return this.data("DELETE", `/v1/api_keys/${encodeURIComponent(id)}`);
  }

  createWebhook(input: { url: string; name: string; description?: string }): Promise<CreatedWebhook> {
    return this.data("POST", "/v1/webhooks", { body: input });
  }

  listWebhooks(page: PageParams = {}): Promise<PageOf<Webhook>> {
    return this.request("GET", "/v1/users/me/webhooks", { query: { ...page } });
  }

  getWebhook(id: string): Promise<Webhook> {
    return this.data("GET", `/v1/webhooks/${encodeURIComponent(id)}`);
  }

  deleteWebhook(id: string): Promise<Deleted> {
    return this.data("DELETE", `/v1/webhooks/${encodeURIComponent(id)}`);
  }

  /** Changes a webhook; `active: true` re-enables one Sluice disabled. */
  updateWebhook(id: string, changes: WebhookUpdate): Promise<Webhook> {
    return this.data("PUT", `/v1/webhooks/${encodeURIComponent(id)}`, { body: changes });
  }

  /** A new signing secret, returned this once; for 24 h deliveries carry both signatures. */
  rotateWebhookSecret(id: string): Promise<CreatedWebhook> {
    return this.data("POST", `/v1/webhooks/${encodeURIComponent(id)}/rotate_secret`, { body: {} });
  }

  /** Subscribes a webhook to an emitter's events; subscribing twice returns the same subscription. */
  subscribe(params: SubscriptionParams): Promise<Subscription> {
    return this.data("POST", "/v1/subscriptions", { body: params });
  }

  unsubscribe(params: SubscriptionParams): Promise<Subscription> {
    return this.data("DELETE", "/v1/subscriptions", { body: params });
  }

  listSubscriptions(page: PageParams = {}): Promise<PageOf<Subscription>> {
    return this.request("GET", "/v1/users/me/subscriptions", { query: { ...page } });
  }

  /** A webhook's delivery log, newest first. */
  listDeliveries(
    webhookId: string,
    page: PageParams & { status?: DeliveryStatus } = {},
  ): Promise<PageOf<Delivery>> {
    return this.request("GET", `/v1/webhooks/${encodeURIComponent(webhookId)}/deliveries`, {
      query: { ...page },
    });
  }

  /** One delivery with its attempts (`attempt_log`). */
  getDelivery(id: string): Promise<DeliveryWithAttempts> {
    return this.data("GET", `/v1/deliveries/${encodeURIComponent(id)}`);
  }

  /** Sends a delivered or failed delivery again now (409 delivery_pending while it is pending). */
  retryDelivery(id: string): Promise<Delivery> {
    return this.data("POST", `/v1/deliveries/${encodeURIComponent(id)}/retry`, { body: {} });
  }

  /** Resends every failed delivery of the webhook created since `since` (epoch seconds or ISO 8601). */
  recoverWebhook(id: string, since: number | string): Promise<Recovered> {
    return this.data("POST", `/v1/webhooks/${encodeURIComponent(id)}/recover`, { body: { since } });
  }

  saveComponent(input: {
    component_code?: string;
    component_url?: string;
    filename?: string;
  }): Promise<Component> {
    return this.data("POST", "/v1/components", { body: input });
  }

  getComponent(keyOrId: string): Promise<Component> {
    return this.data("GET", `/v1/components/${encodeURIComponent(keyOrId)}`);
  }

  deploySource(input: SourceParams): Promise<Source> {
    return this.data("POST", "/v1/sources", { body: input });
  }

  updateSource(idOrName: string, input: SourceParams): Promise<Source> {
    return this.data("PUT", `/v1/sources/${encodeURIComponent(idOrName)}`, { body: input });
  }

  deleteSource(idOrName: string): Promise<Deleted> {
    return this.data("DELETE", `/v1/sources/${encodeURIComponent(idOrName)}`);
  }

  getSource(idOrName: string): Promise<Source> {
    return this.data("GET", `/v1/sources/${encodeURIComponent(idOrName)}`);
  }

  listComponents(page: PageParams = {}): Promise<PageOf<ComponentSummary>> {
    return this.request("GET", "/v1/users/me/components", { query: { ...page } });
  }

  /** `q`: only the sources whose name, id, component key or endpoint holds it. */
  listSources(page: PageParams & { q?: string } = {}): Promise<PageOf<Source>> {
    return this.request("GET", "/v1/users/me/sources", { query: { ...page } });
  }

  runSource(idOrName: string): Promise<RunResult> {
    return this.data("POST", `/v1/sources/${encodeURIComponent(idOrName)}/run`, { body: {} });
  }

  listEvents(
    idOrName: string,
    query: PageParams & { expand?: "event"; event_name?: string } = {},
  ): Promise<PageOf<EventSummary>> {
    return this.request("GET", `/v1/sources/${encodeURIComponent(idOrName)}/event_summaries`, {
      query: { ...query },
    });
  }

  deleteEvents(
    idOrName: string,
    range: BodyOf<"deleteSourceEvents"> = {},
  ): Promise<DataOf<"deleteSourceEvents">> {
    return this.data("DELETE", `/v1/sources/${encodeURIComponent(idOrName)}/events`, { body: range });
  }

  listLogs(idOrName: string, page: PageParams = {}): Promise<PageOf<LogEntry>> {
    return this.request("GET", `/v1/sources/${encodeURIComponent(idOrName)}/logs`, { query: { ...page } });
  }

  /**
   * Follows a server-sent-events stream (`/sse/dc/{id}/emits` or `/observations`), calling `onItem`
   * with each item, until `signal` aborts. Reconnects with Last-Event-ID after a dropped connection.
   * `lastEventId` starts the stream after that item (so nothing between a listing and the stream is
   * missed); without it the stream starts with what is new when it connects.
   */
  async follow<T extends { id: string }>(
    path: string,
    onItem: (item: T) => void,
    signal: AbortSignal,
    options: { onOpen?: () => void; lastEventId?: string } = {},
  ): Promise<void> {
    let lastId: string | undefined = options.lastEventId;
    while (!signal.aborted) {
      const headers: Record<string, string> = { accept: "text/event-stream" };
      if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
      if (lastId) headers["last-event-id"] = lastId;
      let response: Response;
      try {
        response = await fetch(this.baseUrl + path, { headers, signal });
      } catch {
        if (signal.aborted) return;
        await new Promise((resolve) => setTimeout(resolve, 1000));
        continue;
      }
      if (!response.ok || !response.body) {
        const text = await response.text();
        let error: { code?: string; message?: string } | undefined;
        try {
          error = (JSON.parse(text) as { error?: { code?: string; message?: string } }).error;
        } catch {
          error = undefined;
        }
        throw new ApiError(response.status, error?.code ?? `http_${response.status}`, error?.message ?? text);
      }
      options.onOpen?.();
      const decoder = new TextDecoder();
      let buffer = "";
      try {
        for await (const chunk of response.body) {
          buffer += decoder.decode(chunk as Uint8Array, { stream: true });
          let end = buffer.indexOf("\n\n");
          while (end >= 0) {
            const message = buffer.slice(0, end);
            buffer = buffer.slice(end + 2);
            const data = message
              .split("\n")
              .filter((line) => line.startsWith("data:"))
              .map((line) => line.slice(5).trimStart())
              .join("\n");
            if (data !== "") {
              const item = JSON.parse(data) as T;
              lastId = item.id;
              onItem(item);
            }
            end = buffer.indexOf("\n\n");
          }
        }
      } catch {
        if (signal.aborted) return;
      }
    }
  }

  /** Calls a route and returns the `data` member of its answer. */
  async data<T>(method: string, path: string, options: { query?: Query; body?: unknown } = {}): Promise<T> {
    const answer = await this.request<{ data: T }>(method, path, options);
    return answer.data;
  }

  /** Calls a route and returns its whole JSON answer. */
  async request<T>(
    method: string,
    path: string,
    options: { query?: Query; body?: unknown } = {},
  ): Promise<T> {
    const url = new URL(this.baseUrl + path);
    for (const [name, value] of Object.entries(options.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = { ...this.options.headers, accept: "application/json" };
    if (this.options.apiKey) headers.authorization = `Bearer ${this.options.apiKey}`;
    let body: string | undefined;
    if (options.body !== undefined) {
      headers["content-type"] = "application/json";
      body = JSON.stringify(options.body);
    }
    let response: Response;
    try {
      response = await fetch(url, { method, headers, body });
    } catch (error) {
      const cause = (error as { cause?: { code?: string; message?: string; errors?: { code?: string }[] } })
        .cause;
      const reason = cause?.code ?? cause?.errors?.[0]?.code ?? cause?.message ?? (error as Error).message;
      throw new ApiError(
        0,
        "connection_failed",
        `Cannot reach the Sluice server at ${this.baseUrl} (${reason})`,
      );
    }
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text === "" ? undefined : JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    if (!response.ok) {
      const error = (parsed as { error?: { code?: string; message?: string } } | undefined)?.error;
      throw new ApiError(
        response.status,
        error?.code ?? `http_${response.status}`,
        error?.message ?? `The server answered ${response.status} ${response.statusText}`,
      );
    }
    return parsed as T;
  }

  /** Creates a workflow from its document; a name already used in the account is 409 workflow_exists. */
  createWorkflow(document: WorkflowParams): Promise<Workflow> {
    return this.data("POST", "/v1/workflows", { body: document });
  }

  getWorkflow(id: string): Promise<Workflow> {
    return this.data("GET", `/v1/workflows/${encodeURIComponent(id)}`);
  }

  /** Replaces a workflow's document (its p_ id and endpoint stay), and/or sets `active`. */
  updateWorkflow(id: string, changes: WorkflowParams | { active: boolean }): Promise<Workflow> {
    return this.data("PUT", `/v1/workflows/${encodeURIComponent(id)}`, { body: changes });
  }

  /** Deletes a workflow. The route answers 204 with no body; this answers as deleteSource does. */
  async deleteWorkflow(id: string): Promise<Deleted> {
    const answer = await this.request<{ data?: Deleted } | undefined>(
      "DELETE",
      `/v1/workflows/${encodeURIComponent(id)}`,
    );
    return answer?.data ?? { id, deleted: true };
  }

  listWorkflows(page: PageParams = {}): Promise<PageOf<Workflow>> {
    return this.request("GET", "/v1/users/me/workflows", { query: { ...page } });
  }

  /** Queues a manual run with `event` as its trigger event. */
  runWorkflow(id: string, event?: unknown): Promise<WorkflowRun> {
    return this.data("POST", `/v1/workflows/${encodeURIComponent(id)}/runs`, { body: { event } });
  }

  /** A workflow's runs, newest first; only those of `status` (one, or a comma-separated list) when given. */
  listWorkflowRuns(id: string, query: WorkflowRunsQuery = {}): Promise<PageOf<WorkflowRun>> {
    return this.request("GET", `/v1/workflows/${encodeURIComponent(id)}/runs`, { query: { ...query } });
  }

  getWorkflowRun(runId: string): Promise<WorkflowRun> {
    return this.data("GET", `/v1/workflow_runs/${encodeURIComponent(runId)}`);
  }

  /**
   * Queues a new run with the same trigger event; it has `replay_of` set. From a step, it reuses
   * the original's outcomes of the steps before it.
   */
  replayWorkflowRun(runId: string, start: WorkflowReplayStart = {}): Promise<WorkflowRun> {
    return this.data("POST", `/v1/workflow_runs/${encodeURIComponent(runId)}/replay`, { body: start });
  }

  /** Starts a bulk replay of the runs a filter matches (202), or counts them with `dry_run`. */
  replayWorkflowRuns(
    id: string,
    params: WorkflowReplayParams,
  ): Promise<WorkflowReplay | WorkflowReplayCount> {
    return this.data("POST", `/v1/workflows/${encodeURIComponent(id)}/replays`, { body: params });
  }

  /** A bulk replay's progress. */
  getWorkflowReplay(id: string, replayId: string): Promise<WorkflowReplay> {
    return this.data(
      "GET",
      `/v1/workflows/${encodeURIComponent(id)}/replays/${encodeURIComponent(replayId)}`,
    );
  }

  /** Resumes a paused or suspended run now; `data` is a suspended step's `$resume_data.body`. */
  resumeWorkflowRun(runId: string, data?: unknown): Promise<WorkflowRun> {
    return this.data("POST", `/v1/workflow_runs/${encodeURIComponent(runId)}/resume`, { body: { data } });
  }

  /** Cancels a paused or suspended run (or one waiting for a retry). */
  cancelWorkflowRun(runId: string): Promise<WorkflowRun> {
    return this.data("POST", `/v1/workflow_runs/${encodeURIComponent(runId)}/cancel`, { body: {} });
  }

  /** The events a workflow emitted (`$.send.emit`, and `$errors` for failed runs). */
  listWorkflowEvents(
    id: string,
    query: PageParams & { expand?: "event"; event_name?: string } = {},
  ): Promise<PageOf<EventSummary>> {
    return this.request("GET", `/v1/workflows/${encodeURIComponent(id)}/event_summaries`, {
      query: { ...query },
    });
  }

  /** Publishes a component under its key and version; the same key and version with other code is a 409. */
  publishComponent(input: {
    component_code?: string;
    component_url?: string;
    component_id?: string;
    filename?: string;
  }): Promise<import("./types.js").PublishedComponent> {
    return this.data("POST", "/v1/components/publish", { body: input });
  }

  /** Unpublishes every version of a key, or one (`key@version`). */
  unpublish(ref: string): Promise<import("./types.js").Unpublished> {
    return this.data("DELETE", `/v1/published/${encodeURIComponent(ref)}`);
  }

  /** The account's published components, every version, newest first. */
  listPublished(
    query: PageParams & { key?: string } = {},
  ): Promise<PageOf<import("./types.js").PublishedComponent>> {
    return this.request("GET", "/v1/users/me/published", { query: { ...query } });
  }

  /** The version a key resolves to (`key@version`, or the latest), with every published version. */
  getPublished(ref: string): Promise<import("./types.js").PublishedComponentDetail> {
    return this.data("GET", `/v1/published/${encodeURIComponent(ref)}`);
  }

  /** Publishes a component in the server's public registry (Pipedream's key, version, name and description rules). */
  publishPublic(input: {
    component_code?: string;
    component_url?: string;
    component_id?: string;
    filename?: string;
  }): Promise<import("./types.js").PublicPublished> {
    return this.data("POST", "/v1/registry/components", { body: input });
  }

  /** A public key (its latest version) or key@version, with every version. */
  getPublic(ref: string): Promise<import("./types.js").PublicComponentDetail> {
    return this.data("GET", `/v1/registry/components/${encodeURIComponent(ref)}`);
  }

  /** Unpublishes a public key, or one version: its publisher or an admin. */
  unpublishPublic(ref: string): Promise<import("./types.js").PublicVersionsChanged> {
    return this.data("DELETE", `/v1/registry/components/${encodeURIComponent(ref)}`);
  }

  /** Deprecates a public key or key@version (`false` restores it). */
  deprecatePublic(ref: string, deprecated = true): Promise<import("./types.js").PublicVersionsChanged> {
    return this.data("POST", `/v1/registry/components/${encodeURIComponent(ref)}/deprecate`, {
      body: { deprecated },
    });
  }

  /** Searches the account's published components and the public registry. */
  searchComponents(
    query: import("./types.js").ComponentSearchParams = {},
  ): Promise<PageOf<import("./types.js").ListedComponent>> {
    return this.request("GET", "/v1/components", { query: { ...query } });
  }

  /** The account's component for a key (`key@version`): its own, else the public registry's, copied in. */
  componentForKey(key: string): Promise<Component> {
    return this.data("POST", "/v1/components", { body: { key } });
  }

  /** Publishes every source and action of a Pipedream-layout package (npm:<spec>, or a folder's files). */
  importPackage(input: import("./types.js").ImportInput): Promise<import("./types.js").ImportReport> {
    return this.data("POST", "/v1/registry/import", { body: input });
  }

  /** Starts an import in the background; follow it with getImport. */
  startImport(input: import("./types.js").ImportInput): Promise<import("./types.js").ImportJob> {
    return this.data("POST", "/v1/registry/imports", { body: input });
  }

  getImport(id: string): Promise<import("./types.js").ImportJob> {
    return this.data("GET", `/v1/registry/imports/${encodeURIComponent(id)}`);
  }

  /** Runs an action once: its return value, exports, summary, logs and sends. */
  runAction(input: import("./types.js").ActionRunParams): Promise<import("./types.js").ActionRunResult> {
    return this.data("POST", "/v1/actions/run", { body: input });
  }
}

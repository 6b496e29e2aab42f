/**
 * What the property suite must know of each route beyond what the server tells it. The server's
 * own list of routes (Fastify's onRoute) is the truth: a route it registers that is missing here
 * fails the suite, so a new route cannot go unfuzzed. Known query and body parameters come from the
 * route's schema in /v1/openapi.json; this table adds what no schema says: which resource each
 * path parameter names, and how hard to try.
 *
 * Keys are `METHOD url` in Fastify's syntax; `ANY` for a route registered for every method. HEAD
 * routes that Fastify adds for GETs are covered by their GET (its property also sends HEADs).
 */
import { actionCode, ECHO_SOURCE, type IdKind, publicActionCode } from "./accounts.js";
import type { World } from "./arbitraries.js";

export type ParamKind = IdKind | "subpath";

export interface RouteSpec {
  /** The resource each path parameter names (`*` is a wildcard's rest of the path). */
  readonly params?: Readonly<Record<string, ParamKind>>;
  /** fast-check runs for this route; the default is DEFAULT_RUNS. */
  readonly runs?: number;
  /** Headers the route reads; each is sent now and then, with an event id or junk. */
  readonly headers?: readonly string[];
  /**
   * Parameters that make a valid request as B. Many generated requests start from them and change
   * a field or two, which reaches code past the first check that random input would fail.
   */
  readonly valid?: (world: World) => Readonly<Record<string, unknown>>;
}

export const DEFAULT_RUNS = 80;
/** Routes that compile code or start a sandbox take longer per request. */
const SLOW_RUNS = 60;
/** Connect's routes run fewer times each: there are many, mostly the same handlers twice. */
const CONNECT_RUNS = 12;
const CONNECT_SLOW_RUNS = 6;

const id = (kind: ParamKind) => ({ params: { id: kind } });
const page = () => ({ limit: 5 });
/** What the emitter source passes on (emitterCode): to its logs, its db and $emit's meta. */
const EMITTER_INPUT = { n: 1, channel: "orders", id: "e-1", summary: "an order", log: "hello", kv: "seen" };

export const ROUTE_TABLE: Readonly<Record<string, RouteSpec>> = {
  "GET /health": { runs: 10 },
  "GET /ready": { runs: 10 },
  "GET /metrics": { runs: 10 },
  "GET /v1/openapi.json": { runs: 10 },

  "GET /v1/users/me": {},
  "POST /v1/sessions": { valid: ({ b }) => ({ api_key: b.apiKey }) },
  "DELETE /v1/sessions/current": {},
  "GET /assets/*": { runs: 10, params: { "*": "subpath" } },
  "POST /v1/accounts": { valid: () => ({ name: "someone" }) },
  "POST /v1/api_keys": { valid: () => ({ name: "another" }) },
  "GET /v1/api_keys": {},
  "DELETE /v1/api_keys/:id": id("apiKey"),

  "POST /v1/webhooks": { valid: ({ receiver }) => ({ url: `${receiver}/new`, name: "new", rate_limit: 3 }) },
  "GET /v1/users/me/webhooks": { valid: page },
  "GET /v1/webhooks/:id": id("webhook"),
  "PUT /v1/webhooks/:id": { ...id("webhook"), valid: () => ({ name: "renamed", active: true }) },
  "POST /v1/webhooks/:id/rotate_secret": id("webhook"),
  "DELETE /v1/webhooks/:id": id("webhook"),

  "POST /v1/components": { runs: SLOW_RUNS, valid: () => ({ component_code: ECHO_SOURCE }) },
  "GET /v1/users/me/components": { valid: page },
  "GET /v1/components/:key": { params: { key: "component" } },

  "POST /v1/sources": {
    runs: SLOW_RUNS,
    valid: ({ b }) => ({
      component_id: b.named.emitterComponent,
      name: "fuzzed",
      configured_props: { label: "l", token: "t", o: {} },
    }),
  },
  "PUT /v1/sources/:id": {
    ...id("source"),
    runs: SLOW_RUNS,
    valid: () => ({ configured_props: { label: "changed" }, timeout_seconds: 10 }),
  },
  "DELETE /v1/sources/:id": id("source"),
  "GET /v1/sources/:id": id("source"),
  "GET /v1/users/me/sources": { valid: page },
  "POST /v1/sources/:id/run": { ...id("source"), runs: SLOW_RUNS },
  "GET /v1/sources/:id/event_summaries": {
    ...id("source"),
    valid: ({ b }) => ({ limit: 5, expand: "event", event_name: "orders", after: b.named.events[0] }),
  },
  "DELETE /v1/sources/:id/events": {
    ...id("source"),
    valid: ({ b }) => ({ start_id: b.named.events.at(-1), end_id: b.named.events[0] }),
  },
  "GET /v1/sources/:id/logs": { ...id("source"), valid: page },

  "POST /v1/subscriptions": {
    valid: ({ b }) => ({
      emitter_id: b.named.emitter,
      listener_id: b.named.spareWebhook,
      event_name: "orders",
    }),
  },
  "DELETE /v1/subscriptions": {
    valid: ({ b }) => ({ emitter_id: b.named.emitter, listener_id: b.named.subscribedWebhook }),
  },
  "GET /v1/users/me/subscriptions": { valid: page },

  "GET /v1/webhooks/:id/deliveries": { ...id("webhook"), valid: () => ({ status: "delivered", limit: 5 }) },
  "GET /v1/deliveries/:id": id("delivery"),
  "POST /v1/deliveries/:id/retry": id("delivery"),
  "POST /v1/webhooks/:id/recover": { ...id("webhook"), valid: () => ({ since: "0" }) },

  "POST /v1/actions/run": {
    runs: SLOW_RUNS,
    valid: ({ b }) => ({
      component_id: b.named.actionComponent,
      configured_props: { greeting: "hi", a: [1] },
      steps: { trigger: { event: {} } },
    }),
  },
  "POST /v1/components/publish": {
    runs: SLOW_RUNS,
    valid: ({ b }) => ({ component_code: actionCode(b.named.actionKey, "0.1.0") }),
  },
  "POST /v1/components/configure": {
    runs: SLOW_RUNS,
    valid: ({ b }) => ({ id: b.named.dynamicAction, prop_name: "label", configured_props: {} }),
  },
  "POST /v1/components/props": {
    runs: SLOW_RUNS,
    valid: ({ b }) => ({ id: b.named.dynamicAction, configured_props: { label: "one" } }),
  },
  "GET /v1/users/me/published": { valid: ({ b }) => ({ limit: 5, key: b.named.actionKey }) },
  "GET /v1/published/:key": { params: { key: "published" } },
  "DELETE /v1/published/:key": { params: { key: "published" } },

  "GET /v1/components": {
    valid: ({ b }) => ({ q: b.named.actionKey, registry: "all", type: "action", limit: 5 }),
  },
  "POST /v1/registry/components": {
    runs: SLOW_RUNS,
    valid: ({ b }) => ({ component_code: publicActionCode(b.named.actionKey, "0.1.0") }),
  },
  "GET /v1/registry/components/:key": { params: { key: "published" } },
  "DELETE /v1/registry/components/:key": { params: { key: "published" } },
  "POST /v1/registry/components/:key/deprecate": {
    params: { key: "published" },
    valid: () => ({ deprecated: true }),
  },

  "POST /v1/registry/import": {
    // Each request may fetch from the npm registry or compile a package's components.
    runs: 10,
    valid: ({ b }) => ({
      files: { "actions/fuzzed/fuzzed.mjs": actionCode(b.named.actionKey, "0.1.0") },
      registry: "private",
    }),
  },

  "POST /v1/registry/imports": {
    runs: 10,
    valid: ({ b }) => ({
      files: { "actions/fuzzed/fuzzed.mjs": actionCode(b.named.actionKey, "0.1.0") },
      registry: "private",
    }),
  },
  "GET /v1/registry/imports": { valid: page },
  "GET /v1/registry/imports/:id": id("registryImport"),

  "POST /v1/workflows": {
    runs: SLOW_RUNS,
    valid: ({ b }) => ({
      name: "fuzzed flow",
      trigger: { http: { customResponse: false } },
      steps: [
        { name: "a", component_id: b.named.actionComponent, props: { greeting: "{{steps.trigger.event}}" } },
      ],
    }),
  },
  "PUT /v1/workflows/:id": { ...id("workflow"), runs: SLOW_RUNS, valid: () => ({ active: true }) },
  "DELETE /v1/workflows/:id": id("workflow"),
  "GET /v1/workflows/:id": id("workflow"),
  "GET /v1/users/me/workflows": { valid: page },
  "POST /v1/workflows/:id/runs": { ...id("workflow"), valid: () => ({ event: { n: 1 } }) },
  "GET /v1/workflows/:id/runs": { ...id("workflow"), valid: page },
  "GET /v1/workflow_runs/:id": id("workflowRun"),
  "POST /v1/workflow_runs/:id/replay": id("workflowRun"),
  "POST /v1/workflow_runs/:id/resume": { ...id("workflowRun"), valid: () => ({ data: { ok: true } }) },
  "POST /v1/workflow_runs/:id/cancel": id("workflowRun"),
  "POST /v1/workflows/:id/replays": {
    ...id("workflow"),
    valid: () => ({ filter: { status: "error" }, dry_run: true }),
  },
  "GET /v1/workflows/:id/replays/:replay_id": { params: { id: "workflow", replay_id: "subpath" } },
  "GET /flow/:runId/resume/:token": { params: { runId: "workflowRun", token: "subpath" } },
  "POST /flow/:runId/resume/:token": { params: { runId: "workflowRun", token: "subpath" } },
  "GET /flow/:runId/cancel/:token": { params: { runId: "workflowRun", token: "subpath" } },
  "POST /flow/:runId/cancel/:token": { params: { runId: "workflowRun", token: "subpath" } },
  "GET /v1/workflows/:id/event_summaries": {
    ...id("workflow"),
    valid: () => ({ limit: 5, expand: "event" }),
  },
  "GET /sse/p/:id/emits": { ...id("workflow"), headers: ["last-event-id"] },

  "POST /v1/apps": {
    valid: () => ({ slug: "fuzzapp", auth_type: "keys", fields: [{ name: "token", secret: true }] }),
  },
  "GET /v1/apps": {},
  "GET /v1/apps/:slug": { params: { slug: "app" } },
  "DELETE /v1/apps/:slug": { params: { slug: "app" } },
  "POST /v1/connected_accounts": {
    valid: ({ b }) => ({ app: b.ids.app[0], name: "fuzzed", fields: { token: "t0k3n" } }),
  },
  "GET /v1/connected_accounts": { valid: ({ b }) => ({ limit: 5, app: b.ids.app[0] }) },
  "GET /v1/connected_accounts/:id": id("connectedAccount"),
  "PATCH /v1/connected_accounts/:id": { ...id("connectedAccount"), valid: () => ({ name: "renamed" }) },
  "DELETE /v1/connected_accounts/:id": { ...id("connectedAccount"), valid: () => ({ force: true }) },
  "POST /v1/connected_accounts/oauth": { valid: ({ b }) => ({ app: b.ids.app[0], name: "new" }) },
  "GET /v1/connected_accounts/oauth/:id": id("connectedAccount"),
  "GET /v1/connected_accounts/oauth/callback": { valid: () => ({ state: "a-state", code: "a-code" }) },

  "GET /v1/data_stores": {},
  "POST /v1/data_stores": { valid: () => ({ name: "fuzzed store" }) },
  "DELETE /v1/data_stores/:id": id("dataStore"),
  "GET /v1/data_stores/:id/records": id("dataStore"),
  "GET /v1/data_stores/:id/records/:key": { params: { id: "dataStore", key: "subpath" } },
  "PUT /v1/data_stores/:id/records/:key": {
    params: { id: "dataStore", key: "subpath" },
    valid: () => ({ value: { a: 1 }, ttl: 60 }),
  },
  "DELETE /v1/data_stores/:id/records/:key": { params: { id: "dataStore", key: "subpath" } },

  "GET /sse/dc/:id/emits": { ...id("source"), headers: ["last-event-id"] },
  "GET /sse/dc/:id/observations": { ...id("source"), headers: ["last-event-id"] },

  ...connectRoutes(),

  "ANY /e/:endpointId": { params: { endpointId: "endpoint" }, valid: () => EMITTER_INPUT },
  "ANY /e/:endpointId/*": { params: { endpointId: "endpoint", "*": "subpath" }, valid: () => EMITTER_INPUT },
};

/**
 * Pipedream Connect's routes: each under /v1/connect/:project_id and, for connect tokens, under
 * /v1/connect; requests name B's project, end user and resources (or A's, which must stay out of
 * reach).
 */
function connectRoutes(): Record<string, RouteSpec> {
  const routes: Record<string, RouteSpec> = {};
  const user = ({ b }: World) => b.ids.externalUser[0];
  for (const [base, project] of [
    ["/v1/connect/:project_id", { project_id: "project" }],
    ["/v1/connect", {}],
  ] as const) {
    const at = (
      params: Readonly<Record<string, ParamKind>>,
      valid?: (world: World) => Readonly<Record<string, unknown>>,
      runs = CONNECT_RUNS,
    ): RouteSpec => ({ params: { ...project, ...params }, runs, ...(valid ? { valid } : {}) });
    for (const kind of ["components", "actions", "triggers"]) {
      routes[`GET ${base}/${kind}`] = at({}, ({ b }) => ({
        q: b.named.triggerKey,
        app: b.ids.app[0],
        limit: 5,
      }));
      routes[`GET ${base}/${kind}/:component_id`] = at({ component_id: "published" });
      const dynamic = ({ b }: World) => (kind === "actions" ? b.named.dynamicAction : b.named.dynamicTrigger);
      routes[`POST ${base}/${kind}/configure`] = at(
        {},
        (world) => ({ id: dynamic(world), prop_name: "label", external_user_id: user(world) }),
        CONNECT_SLOW_RUNS,
      );
      routes[`POST ${base}/${kind}/props`] = at(
        {},
        (world) => ({
          id: dynamic(world),
          external_user_id: user(world),
          configured_props: { label: "one" },
        }),
        CONNECT_SLOW_RUNS,
      );
    }
    routes[`POST ${base}/actions/run`] = at(
      {},
      (world) => ({
        id: world.b.named.actionKey,
        external_user_id: user(world),
        configured_props: { greeting: "hi" },
      }),
      CONNECT_SLOW_RUNS,
    );
    routes[`POST ${base}/triggers/deploy`] = at(
      {},
      (world) => ({
        id: world.b.named.triggerKey,
        external_user_id: user(world),
        configured_props: { label: "fuzzed" },
        webhook_url: `${world.receiver}/connect`,
      }),
      CONNECT_SLOW_RUNS,
    );
    routes[`GET ${base}/deployed-triggers`] = at({}, (world) => ({
      external_user_id: user(world),
      limit: 5,
    }));
    for (const method of ["GET", "PUT", "DELETE"]) {
      routes[`${method} ${base}/deployed-triggers/:trigger_id`] = at(
        { trigger_id: "trigger" },
        (world) => ({
          external_user_id: user(world),
          ...(method === "PUT" ? { active: true, name: "renamed" } : {}),
        }),
        method === "GET" ? CONNECT_RUNS : CONNECT_SLOW_RUNS,
      );
    }
    routes[`GET ${base}/deployed-triggers/:trigger_id/events`] = at({ trigger_id: "trigger" }, (world) => ({
      external_user_id: user(world),
      n: 5,
    }));
    routes[`GET ${base}/deployed-triggers/:trigger_id/webhooks`] = at({ trigger_id: "trigger" }, (world) => ({
      external_user_id: user(world),
    }));
    routes[`PUT ${base}/deployed-triggers/:trigger_id/webhooks`] = at({ trigger_id: "trigger" }, (world) => ({
      external_user_id: user(world),
      webhook_urls: [`${world.receiver}/connect`],
    }));
    routes[`GET ${base}/accounts`] = at({}, (world) => ({ external_user_id: user(world), limit: 5 }));
    routes[`POST ${base}/accounts`] = at({}, ({ b }) => ({
      app_slug: b.ids.app[0],
      cfmap_json: JSON.stringify({ token: "t0k3n" }),
      connect_token: b.ids.connectToken[0],
    }));
    routes[`POST ${base}/accounts/oauth`] = at({}, ({ b }) => ({
      app_slug: b.ids.app[0],
      connect_token: b.ids.connectToken[0],
    }));
    routes[`GET ${base}/accounts/:account_id`] = at({ account_id: "endUserAccount" });
    routes[`DELETE ${base}/accounts/:account_id`] = at({ account_id: "endUserAccount" });
    routes[`GET ${base}/users/:external_user_id/accounts`] = at({ external_user_id: "externalUser" });
    routes[`DELETE ${base}/users/:external_user_id`] = at({ external_user_id: "externalUser" });
  }
  return {
    ...routes,
    "POST /v1/connect/projects": { runs: CONNECT_RUNS, valid: () => ({ name: "fuzzed project" }) },
    "GET /v1/connect/projects": { runs: CONNECT_RUNS, valid: () => ({ limit: 5 }) },
    "GET /v1/connect/projects/:project_id": { runs: CONNECT_RUNS, params: { project_id: "project" } },
    "DELETE /v1/connect/projects/:project_id": { runs: CONNECT_RUNS, params: { project_id: "project" } },
    "POST /v1/connect/:project_id/tokens": {
      runs: CONNECT_RUNS,
      params: { project_id: "project" },
      valid: (world) => ({ external_user_id: user(world), expires_in: 60 }),
    },
    "GET /v1/connect/tokens/:ctok/validate": {
      runs: CONNECT_RUNS,
      params: { ctok: "connectToken" },
      valid: ({ b }) => ({ app_id: b.ids.app[0] }),
    },
    "GET /v1/connect/apps": { runs: CONNECT_RUNS, valid: () => ({ limit: 5, q: "app" }) },
    "GET /v1/connect/apps/:app_id": { runs: CONNECT_RUNS, params: { app_id: "app" } },
    "OPTIONS /v1/connect/*": { runs: 10, params: { "*": "subpath" } },
    "POST /v1/oauth/token": {
      runs: CONNECT_RUNS,
      valid: ({ b }) => ({
        grant_type: "client_credentials",
        client_id: b.named.oauthClient,
        client_secret: b.named.oauthClientSecret,
      }),
    },
    "POST /v1/oauth_clients": { runs: CONNECT_RUNS, valid: () => ({ name: "fuzzed client" }) },
    "GET /v1/oauth_clients": { runs: 10 },
    "DELETE /v1/oauth_clients/:id": { runs: CONNECT_RUNS, params: { id: "oauthClient" } },
    "GET /_static/connect.html": { runs: 10 },
  };
}

/** The path parameters of a Fastify URL: `:name` segments and a trailing `*`. */
export function pathParams(url: string): string[] {
  return url
    .split("/")
    .filter((segment) => segment.startsWith(":") || segment === "*")
    .map((segment) => segment.replace(/^:/, ""));
}

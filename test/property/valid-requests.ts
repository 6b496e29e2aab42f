/**
 * One valid request per route, sent in every run before the random ones: each must answer 2xx, so
 * every route is known to work past its validation, and the suite fails naming those that did not.
 *
 * By default a route's valid request is B's first resource of each path parameter's kind, the
 * route table's `valid` parameters (a query for GET, HEAD and DELETE, else a JSON body) and B's API
 * key; Connect's project-less twins take B's connect token instead. The templates below say what
 * else a route needs: most often a resource of its own to delete or spend, made just before, so
 * B's fixture stays as provisioned.
 */
import { randomBytes } from "node:crypto";
import type { SluiceClient } from "../../src/client/client.js";
import type { OAuthProvider } from "../support/oauth-provider.js";
import { waitUntil } from "../support/webhook-delivery.js";
import { actionCode, ECHO_SOURCE, publicActionCode } from "./accounts.js";
import type { World } from "./arbitraries.js";
import { SESSION_COOKIE } from "./credentials.js";
import type { RawRequest } from "./raw-http.js";
import { pathParams, type RouteSpec } from "./route-table.js";

/** What a template may use beside the world. */
export interface Bench {
  readonly world: World;
  /** The admin account (the bootstrap key): accounts and the public registry need it. */
  readonly admin: { readonly apiKey: string; readonly client: SluiceClient };
  readonly provider: OAuthProvider;
  /** B's OAuth app, registered against `provider`. */
  readonly oauthApp: string;
}

export interface ValidRequest {
  readonly method?: string;
  /** Path parameters, unencoded; default B's first id of each parameter's kind. */
  readonly params?: Readonly<Record<string, string>>;
  /** Default the route table's `valid` parameters. */
  readonly input?: Readonly<Record<string, unknown>>;
  /** Where `input` goes; default the query for GET, HEAD and DELETE, else a JSON body. */
  readonly inBody?: boolean;
  /** Default B's API key, or B's connect token on Connect's project-less routes. */
  readonly authorization?: string;
  readonly headers?: Readonly<Record<string, string>>;
  /** A whole path and query, sent as is (a link the server made). */
  readonly rawPath?: string;
}

type Template = (bench: Bench) => Promise<ValidRequest> | ValidRequest;

const unique = () => randomBytes(5).toString("hex");
const bearer = (token: string) => `Bearer ${token}`;

async function data<T>(client: SluiceClient, method: string, path: string, body?: unknown): Promise<T> {
  const answer = await client.request<{ data: T }>(method, path, body === undefined ? {} : { body });
  return answer.data;
}

/** A live connect token of B's end user (or of `externalUser`) in B's first project. */
async function connectToken({ world }: Bench, externalUser?: string): Promise<string> {
  const answer = await world.b.client.request<{ token: string }>(
    "POST",
    `/v1/connect/${world.b.ids.project[0]}/tokens`,
    { body: { external_user_id: externalUser ?? world.b.ids.externalUser[0] } },
  );
  return answer.token;
}

/** A keys account of B's end user, connected with a connect token it spends. */
async function endUserAccount(bench: Bench): Promise<string> {
  const { b } = bench.world;
  const account = await b.client.request<{ id: string }>("POST", `/v1/connect/${b.ids.project[0]}/accounts`, {
    body: {
      app_slug: b.ids.app[0],
      cfmap_json: JSON.stringify({ token: "t0k3n" }),
      connect_token: await connectToken(bench),
    },
  });
  return account.id;
}

async function deployedTrigger({ world }: Bench): Promise<string> {
  const { b } = world;
  const trigger = await data<{ id: string }>(
    b.client,
    "POST",
    `/v1/connect/${b.ids.project[0]}/triggers/deploy`,
    { id: b.named.triggerKey, external_user_id: b.ids.externalUser[0], configured_props: { label: "own" } },
  );
  return trigger.id;
}

async function publishedKey({ world }: Bench): Promise<string> {
  const key = `${world.b.named.actionKey}-${unique()}`;
  await world.b.client.publishComponent({ component_code: actionCode(key, "0.0.1") });
  return key;
}

async function registryKey({ admin, world }: Bench): Promise<string> {
  const key = `${world.b.named.actionKey}-${unique()}`;
  await admin.client.request("POST", "/v1/registry/components", {
    body: { component_code: publicActionCode(key, "0.0.1") },
  });
  return key;
}

/** An OAuth connection of B's OAuth app, started: its id and where the browser goes next. */
async function oauthConnection({ world, oauthApp }: Bench) {
  return data<{ id: string; authorize_url: string }>(world.b.client, "POST", "/v1/connected_accounts/oauth", {
    app: oauthApp,
    name: "own",
  });
}

/**
 * A run of a workflow of its own, suspended by its first step, which exported its resume and
 * cancel URLs: the resume, cancel and flow URL routes each spend one.
 */
async function suspendedRun({ world }: Bench) {
  const { client } = world.b;
  const workflow = await data<{ id: string }>(client, "POST", "/v1/workflows", {
    name: `waits ${unique()}`,
    steps: [
      {
        name: "wait",
        code: `export default { type: "action", async run({ $ }) { $.export("urls", $.flow.suspend()); } };`,
      },
      { name: "after", code: `export default { type: "action", async run() { return 1; } };` },
    ],
  });
  const run = await data<{ id: string }>(client, "POST", `/v1/workflows/${workflow.id}/runs`, { event: {} });
  return waitUntil(`run ${run.id} to be suspended`, async () => {
    const view = await data<{ status: string; steps: { exports: Record<string, unknown> }[] }>(
      client,
      "GET",
      `/v1/workflow_runs/${run.id}`,
    );
    if (!["queued", "running", "suspended"].includes(view.status))
      throw new Error(`run ${run.id} is ${view.status}`);
    if (view.status !== "suspended") return undefined;
    const urls = view.steps[0]?.exports.urls as { resume_url: string; cancel_url: string };
    return { id: run.id, resume: new URL(urls.resume_url), cancel: new URL(urls.cancel_url) };
  });
}

/** The resume and cancel routes' template: a suspended run of their own. */
const suspendedRunId: Template = async (bench) => ({ params: { id: (await suspendedRun(bench)).id } });

/** A flow URL's template: the URL, spent by `method`. */
function flowUrl(method: string, action: "resume" | "cancel"): Template {
  return async (bench) => {
    const run = await suspendedRun(bench);
    const url = action === "resume" ? run.resume : run.cancel;
    return { method, rawPath: url.pathname, authorization: "" };
  };
}

export const TEMPLATES: Readonly<Record<string, Template>> = {
  "POST /v1/workflow_runs/:id/resume": suspendedRunId,
  "POST /v1/workflow_runs/:id/cancel": suspendedRunId,
  "GET /flow/:runId/resume/:token": flowUrl("GET", "resume"),
  "POST /flow/:runId/resume/:token": flowUrl("POST", "resume"),
  "GET /flow/:runId/cancel/:token": flowUrl("GET", "cancel"),
  "POST /flow/:runId/cancel/:token": flowUrl("POST", "cancel"),
  "GET /v1/workflows/:id/replays/:replay_id": async ({ world }) => {
    const workflow = world.b.ids.workflow[0] ?? "";
    const replay = await world.b.client.request<{ data: { id: string } }>(
      "POST",
      `/v1/workflows/${workflow}/replays`,
      // No run of B's failed: a replay of none, finished at once, and B's runs stay as they are.
      { body: { filter: { status: "error" } } },
    );
    return { params: { id: workflow, replay_id: replay.data.id } };
  },
  "POST /v1/sessions": ({ world }) => ({ input: { api_key: world.b.apiKey }, authorization: "" }),
  "DELETE /v1/sessions/current": async ({ world }) => {
    const signIn = await fetch(`${world.serverUrl}/v1/sessions`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ api_key: world.b.apiKey }),
    });
    const cookie = /sluice_session=([^;]+)/.exec(signIn.headers.get("set-cookie") ?? "")?.[1] ?? "";
    return { authorization: "", headers: { cookie: `${SESSION_COOKIE}=${cookie}`, "x-sluice-csrf": "1" } };
  },
  "GET /assets/*": async ({ world }) => {
    const page = await (await fetch(`${world.serverUrl}/`)).text();
    return { params: { "*": /\/assets\/([^"']+)/.exec(page)?.[1] ?? "index.js" } };
  },
  "POST /v1/accounts": ({ admin }) => ({ authorization: bearer(admin.apiKey) }),
  "DELETE /v1/api_keys/:id": async ({ world }) => ({
    params: { id: (await world.b.client.createApiKey("deleted")).id },
  }),
  "DELETE /v1/webhooks/:id": async ({ world }) => ({
    params: { id: (await world.b.client.createWebhook({ url: `${world.receiver}/gone`, name: "gone" })).id },
  }),
  "DELETE /v1/sources/:id": async ({ world }) => ({
    params: { id: (await world.b.client.deploySource({ component_code: ECHO_SOURCE })).id },
  }),
  "DELETE /v1/sources/:id/events": async ({ world }) => {
    // An event of its own, so B's emitter keeps the events other routes page after.
    const source = await world.b.client.deploySource({ component_code: ECHO_SOURCE });
    await fetch(source.endpoint_url ?? "", { method: "POST" });
    const [event] = (await world.b.client.listEvents(source.id, { limit: 1 })).data;
    return {
      params: { id: source.id },
      input: { start_id: event?.id ?? "0-0", end_id: event?.id ?? "0-0" },
      inBody: true,
    };
  },
  "POST /v1/subscriptions": async ({ world }) => ({
    input: {
      emitter_id: world.b.named.emitter,
      listener_id: (await world.b.client.createWebhook({ url: `${world.receiver}/listens`, name: "listens" }))
        .id,
      event_name: "orders",
    },
  }),
  "DELETE /v1/subscriptions": async ({ world }) => {
    const listener = await world.b.client.createWebhook({
      url: `${world.receiver}/unsubscribed`,
      name: "unsubscribed",
    });
    await world.b.client.subscribe({ emitter_id: world.b.named.emitter, listener_id: listener.id });
    return { input: { emitter_id: world.b.named.emitter, listener_id: listener.id }, inBody: true };
  },
  "POST /v1/components/publish": ({ world }) => ({
    input: { component_code: actionCode(`${world.b.named.actionKey}-${unique()}`, "0.0.1") },
  }),
  "DELETE /v1/published/:key": async (bench) => ({ params: { key: await publishedKey(bench) } }),
  "POST /v1/registry/components": ({ world }) => ({
    input: { component_code: publicActionCode(`${world.b.named.actionKey}-${unique()}`, "0.0.1") },
  }),
  "GET /v1/registry/components/:key": async (bench) => ({ params: { key: await registryKey(bench) } }),
  "DELETE /v1/registry/components/:key": async (bench) => ({
    params: { key: await registryKey(bench) },
    authorization: bearer(bench.admin.apiKey),
  }),
  "POST /v1/registry/components/:key/deprecate": async (bench) => ({
    params: { key: await registryKey(bench) },
    authorization: bearer(bench.admin.apiKey),
  }),
  "DELETE /v1/workflows/:id": async ({ world }) => ({
    params: {
      id: (
        await world.b.client.createWorkflow({
          name: "deleted",
          trigger: { http: {} },
          steps: [{ name: "a", component_id: world.b.named.actionComponent }],
        })
      ).id,
    },
  }),
  "POST /v1/apps": () => ({
    input: { slug: `app${unique()}`, auth_type: "keys", fields: [{ name: "token", secret: true }] },
  }),
  "DELETE /v1/apps/:slug": async ({ world }) => {
    const slug = `gone${unique()}`;
    await world.b.client.request("POST", "/v1/apps", {
      body: { slug, auth_type: "keys", fields: [{ name: "token" }] },
    });
    return { params: { slug } };
  },
  "DELETE /v1/connected_accounts/:id": async ({ world }) => {
    const account = await data<{ id: string }>(world.b.client, "POST", "/v1/connected_accounts", {
      app: world.b.ids.app[0],
      name: "gone",
      fields: { token: "t" },
    });
    return { params: { id: account.id } };
  },
  "POST /v1/connected_accounts/oauth": ({ oauthApp }) => ({ input: { app: oauthApp, name: "new" } }),
  "GET /v1/connected_accounts/oauth/:id": async (bench) => ({
    params: { id: (await oauthConnection(bench)).id },
  }),
  "GET /v1/connected_accounts/oauth/callback": async (bench) => {
    // The provider's redirect back, with its code and Sluice's state: a browser's own request.
    const authorize = await fetch((await oauthConnection(bench)).authorize_url, { redirect: "manual" });
    const callback = new URL(authorize.headers.get("location") ?? "");
    return { rawPath: `${callback.pathname}${callback.search}`, authorization: "" };
  },
  "DELETE /v1/data_stores/:id": async ({ world }) => ({
    params: {
      id: (await data<{ id: string }>(world.b.client, "POST", "/v1/data_stores", { name: "gone" })).id,
    },
  }),
  "DELETE /v1/data_stores/:id/records/:key": async ({ world }) => {
    const key = `gone-${unique()}`;
    await world.b.client.request("PUT", `/v1/data_stores/${world.b.ids.dataStore[0]}/records/${key}`, {
      body: { value: 1 },
    });
    return { params: { key } };
  },
  "ANY /e/:endpointId": () => ({ method: "POST" }),
  "ANY /e/:endpointId/*": () => ({ method: "POST", params: { "*": "orders/1" } }),
  "OPTIONS /v1/connect/*": () => ({
    params: { "*": "actions/run" },
    headers: { origin: "http://app.example" },
  }),
  "DELETE /v1/connect/projects/:project_id": async ({ world }) => ({
    params: {
      project_id: (
        await world.b.client.request<{ id: string }>("POST", "/v1/connect/projects", {
          body: { name: "gone" },
        })
      ).id,
    },
  }),
  "POST /v1/oauth/token": ({ world }) => ({
    input: {
      grant_type: "client_credentials",
      client_id: world.b.named.oauthClient,
      client_secret: world.b.named.oauthClientSecret,
    },
    authorization: "",
  }),
  "DELETE /v1/oauth_clients/:id": async ({ world }) => ({
    params: {
      id: (await data<{ client_id: string }>(world.b.client, "POST", "/v1/oauth_clients", { name: "gone" }))
        .client_id,
    },
  }),
  ...connectTemplates(),
};

/** Connect's routes that spend or delete, under both bases: the project's and a connect token's. */
function connectTemplates(): Record<string, Template> {
  const templates: Record<string, Template> = {};
  for (const base of ["/v1/connect/:project_id", "/v1/connect"]) {
    const twin = base === "/v1/connect";
    // The route table's path parameter is any published key; this one reads triggers only.
    templates[`GET ${base}/triggers/:component_id`] = ({ world }) => ({
      params: { component_id: world.b.named.triggerKey },
    });
    templates[`POST ${base}/accounts`] = async (bench) => {
      const token = await connectToken(bench);
      const { b } = bench.world;
      const input = { app_slug: b.ids.app[0], cfmap_json: JSON.stringify({ token: "t0k3n" }) };
      return twin ? { input, authorization: bearer(token) } : { input: { ...input, connect_token: token } };
    };
    templates[`POST ${base}/accounts/oauth`] = async (bench) => {
      const token = await connectToken(bench);
      const input = { app_slug: bench.oauthApp };
      return twin ? { input, authorization: bearer(token) } : { input: { ...input, connect_token: token } };
    };
    templates[`DELETE ${base}/accounts/:account_id`] = async (bench) => {
      const account = await endUserAccount(bench);
      return twin
        ? { params: { account_id: account }, authorization: bearer(await connectToken(bench)) }
        : { params: { account_id: account } };
    };
    templates[`DELETE ${base}/deployed-triggers/:trigger_id`] = async (bench) => ({
      params: { trigger_id: await deployedTrigger(bench) },
    });
    templates[`DELETE ${base}/users/:external_user_id`] = async (bench) => {
      const user = `gone${unique()}`;
      await connectToken(bench, user);
      return { params: { external_user_id: user } };
    };
  }
  return templates;
}

/**
 * Routes no valid request can make answer 2xx, by design, and why: the suite prints them and
 * asserts nothing of their success.
 */
export const CANNOT_SUCCEED: Readonly<Record<string, string>> = {
  "DELETE /v1/connect/users/:external_user_id":
    "deleting an end user is for the project's server (server_side_only), and only a connect token names the project",
};

/** Whether a route is one of Connect's project-less twins, which only a connect token can call. */
function isConnectTwin(key: string): boolean {
  const url = key.slice(key.indexOf(" ") + 1);
  return (
    /^\/v1\/connect\/(components|actions|triggers|deployed-triggers|accounts|users)(\/|$)/.test(url) &&
    !url.includes(":project_id")
  );
}

/** The valid request of the route `key`, as sent. */
export async function validRequest(key: string, spec: RouteSpec, bench: Bench): Promise<RawRequest> {
  const { world } = bench;
  const template = await (TEMPLATES[key]?.(bench) ?? {});
  const [method = "GET", url = ""] = key.split(" ");
  const sentMethod = template.method ?? method;
  let path = url;
  for (const name of pathParams(url)) {
    const kind = spec.params?.[name];
    const fallback = kind === undefined || kind === "subpath" ? "k" : (world.b.ids[kind][0] ?? "");
    const value = template.params?.[name] ?? fallback;
    path =
      name === "*"
        ? path.replace(/\*$/, value.split("/").map(encodeURIComponent).join("/"))
        : path.replace(`:${name}`, encodeURIComponent(value));
  }
  const input = template.input ?? spec.valid?.(world) ?? {};
  const inBody = template.inBody ?? !["GET", "HEAD", "DELETE"].includes(sentMethod);
  const headers: Record<string, string> = { ...template.headers };
  const authorization =
    template.authorization ??
    bearer(isConnectTwin(key) ? (world.b.ids.connectToken[0] ?? "") : world.b.apiKey);
  if (authorization !== "") headers.authorization = authorization;
  let body: Buffer | undefined;
  if (inBody && Object.keys(input).length > 0) {
    headers["content-type"] = "application/json";
    body = Buffer.from(JSON.stringify(input));
  } else if (Object.keys(input).length > 0) {
    const query = new URLSearchParams(
      Object.entries(input).map(([name, value]): [string, string] => [
        name,
        typeof value === "string" ? value : JSON.stringify(value),
      ]),
    );
    path = `${path}?${query}`;
  }
  return { method: sentMethod, path: template.rawPath ?? path, headers, ...(body ? { body } : {}) };
}

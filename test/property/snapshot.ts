/**
 * Everything an account can read about itself over REST, in one value: compared before and after
 * another account's random requests, it must not have moved.
 */
import { ApiError } from "../../src/client/client.js";
import type { AccountFixture } from "./accounts.js";

interface Page {
  data?: { id: string; key?: string; version?: string }[];
}

export async function snapshotAccount(fixture: AccountFixture): Promise<unknown> {
  const { client, ids } = fixture;
  // An answer that is an error goes into the snapshot too: a resource gone missing shows in the diff.
  const get = <T = unknown>(path: string) =>
    client.request<T>("GET", path).catch((error: unknown) => {
      if (error instanceof ApiError) return { error: { status: error.status, code: error.code } } as T;
      throw error;
    });
  const list = (path: string) => get<Page>(`${path}${path.includes("?") ? "&" : "?"}limit=100`);

  const [me, keys, webhooks, subscriptions, sources, components, published, workflows] = await Promise.all([
    get("/v1/users/me"),
    get<{ data: { id: string; last_used_at: unknown }[] }>("/v1/api_keys"),
    list("/v1/users/me/webhooks"),
    list("/v1/users/me/subscriptions"),
    list("/v1/users/me/sources"),
    list("/v1/users/me/components"),
    list("/v1/users/me/published"),
    list("/v1/users/me/workflows"),
  ]);
  const each = (items: { id: string }[], paths: ((id: string) => string)[]) =>
    Promise.all(items.map((item) => Promise.all(paths.map((path) => get(path(item.id))))));
  const [webhookDetails, sourceDetails, componentDetails, publishedDetails, workflowDetails] =
    await Promise.all([
      each(webhooks.data ?? [], [
        (id) => `/v1/webhooks/${id}`,
        (id) => `/v1/webhooks/${id}/deliveries?limit=100`,
      ]),
      each(sources.data ?? [], [
        (id) => `/v1/sources/${id}`,
        (id) => `/v1/sources/${id}/event_summaries?limit=100&expand=event`,
        (id) => `/v1/sources/${id}/logs?limit=100`,
      ]),
      each(components.data ?? [], [(id) => `/v1/components/${id}`]),
      Promise.all(
        [...new Set((published.data ?? []).map((item) => item.key ?? ""))].map((key) =>
          get(`/v1/published/${encodeURIComponent(key)}`),
        ),
      ),
      each(workflows.data ?? [], [
        (id) => `/v1/workflows/${id}`,
        (id) => `/v1/workflows/${id}/runs?limit=100`,
        (id) => `/v1/workflows/${id}/event_summaries?limit=100&expand=event`,
      ]),
    ]);
  const deliveries = await Promise.all(ids.delivery.map((id) => get(`/v1/deliveries/${id}`)));
  // Server-wide apps are shared by design (an admin may register them); the account's own are its.
  const apps = await get<{ data?: { scope?: string }[] }>("/v1/apps");
  const ownApps = (apps.data ?? []).filter((app) => app.scope === "account");
  const connectedAccounts = await list("/v1/connected_accounts");
  const dataStores = await get("/v1/data_stores");
  const dataStoreRecords = await Promise.all(ids.dataStore.map((id) => get(`/v1/data_stores/${id}/records`)));
  // Connect: the account's projects, and each one's end users' accounts and triggers.
  const projects = await list("/v1/connect/projects");
  const user = encodeURIComponent(ids.externalUser[0] ?? "");
  const projectDetails = await each(projects.data ?? [], [
    (id) => `/v1/connect/projects/${id}`,
    (id) => `/v1/connect/${id}/accounts?limit=100`,
    (id) => `/v1/connect/${id}/deployed-triggers?external_user_id=${user}&limit=100`,
    (id) => `/v1/connect/${id}/deployed-triggers/${ids.trigger[0]}/events?external_user_id=${user}&n=100`,
    (id) => `/v1/connect/${id}/deployed-triggers/${ids.trigger[0]}/webhooks?external_user_id=${user}`,
  ]);
  const oauthClients = await get("/v1/oauth_clients");
  return {
    me,
    // The snapshot itself uses the main key: only its last use may move.
    keys: keys.data.map((key) =>
      key.id === fixture.mainKeyId ? { ...key, last_used_at: "(the snapshot's key)" } : key,
    ),
    webhooks,
    webhookDetails,
    subscriptions,
    sources,
    sourceDetails,
    components,
    componentDetails,
    published,
    publishedDetails,
    workflows,
    workflowDetails,
    deliveries,
    ownApps,
    connectedAccounts,
    dataStores,
    dataStoreRecords,
    projects,
    projectDetails,
    oauthClients,
  };
}

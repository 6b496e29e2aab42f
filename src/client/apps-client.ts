/**
 * The apps, connected accounts and dynamic props routes, over a SluiceClient: `appsApi(client)`.
 * Kept beside client.ts so the client file stays one concern per file.
 */
import type { SluiceClient } from "./client.js";
import type { Deleted, PageOf, PageParams } from "./types.js";

export interface AppField {
  name: string;
  label?: string;
  description?: string;
  secret?: boolean;
  optional?: boolean;
}

export interface App {
  name_slug: string;
  name: string;
  auth_type: "keys" | "none";
  /** null for an app nobody registered: it takes any fields. */
  fields: AppField[] | null;
  scope: "server" | "account" | "implicit";
}

export interface AppParams {
  slug: string;
  name?: string;
  auth_type: "keys" | "none";
  fields?: AppField[];
  /** server: for every account (admin only). */
  scope?: "server" | "account";
}

export interface ConnectedAccount {
  id: string;
  name: string;
  app: string;
  auth_type: string;
  healthy: boolean;
  dead: boolean;
  error: string | null;
  expires_at: string | null;
  last_refreshed_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConnectedAccountParams {
  app: string;
  name?: string;
  fields?: Record<string, string | number | boolean>;
}

/** `POST /v1/components/configure` and `/props` take these (Pipedream Connect's shapes). */
export interface ConfigureParams {
  /** A component key, a saved component id (sc_…) or a deployed source id (dc_…). */
  id: string;
  prop_name: string;
  configured_props?: Record<string, unknown>;
  dynamic_props_id?: string;
  query?: string;
  page?: number;
  prev_context?: unknown;
}

export interface ConfigureResult {
  options: { label: string; value: unknown }[] | null;
  stringOptions: string[] | null;
  context: unknown;
  errors: string[];
  observations: unknown[];
}

export interface ReloadPropsParams {
  id: string;
  configured_props?: Record<string, unknown>;
  dynamic_props_id?: string;
}

export interface ReloadPropsResult {
  dynamicProps: { id: string; configurableProps: Record<string, unknown>[] };
  errors: string[];
  observations: unknown[];
}

export function appsApi(client: SluiceClient) {
  const path = (id: string) => `/v1/connected_accounts/${encodeURIComponent(id)}`;
  return {
    registerApp: (app: AppParams) => client.data<App>("POST", "/v1/apps", { body: app }),
    listApps: () => client.data<App[]>("GET", "/v1/apps"),
    getApp: (slug: string) => client.data<App>("GET", `/v1/apps/${encodeURIComponent(slug)}`),
    unregisterApp: (slug: string, scope?: "server" | "account") =>
      client.data<{ name_slug: string; deleted: boolean }>("DELETE", `/v1/apps/${encodeURIComponent(slug)}`, {
        query: { scope },
      }),
    createConnectedAccount: (params: ConnectedAccountParams) =>
      client.data<ConnectedAccount>("POST", "/v1/connected_accounts", { body: params }),
    listConnectedAccounts: (params: PageParams & { app?: string } = {}) =>
      client.request<PageOf<ConnectedAccount>>("GET", "/v1/connected_accounts", { query: { ...params } }),
    getConnectedAccount: (id: string) => client.data<ConnectedAccount>("GET", path(id)),
    renameConnectedAccount: (id: string, name: string) =>
      client.data<ConnectedAccount>("PATCH", path(id), { body: { name } }),
    deleteConnectedAccount: (id: string, force = false) =>
      client.data<Deleted>("DELETE", path(id), { query: { force: force ? "true" : undefined } }),
    configure: (params: ConfigureParams) =>
      client.request<ConfigureResult>("POST", "/v1/components/configure", { body: params }),
    reloadProps: (params: ReloadPropsParams) =>
      client.request<ReloadPropsResult>("POST", "/v1/components/props", { body: params }),
  };
}

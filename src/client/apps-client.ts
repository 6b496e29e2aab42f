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

/** An oauth app's settings as the API shows them (never the client secret). */
export interface OAuthSettings {
  authorize_url: string;
  token_url: string;
  scopes: string[];
  scope_separator: string;
  pkce: boolean;
  authorize_params: Record<string, string>;
  user_info_url: string | null;
  uid_field: string;
  client_id: string;
  token_auth_method: "client_secret_basic" | "client_secret_post";
  has_client_secret: boolean;
  /** The callback URL to register with the provider. */
  redirect_uri: string;
}

export interface App {
  name_slug: string;
  name: string;
  auth_type: "keys" | "oauth" | "none";
  /** null for an app nobody registered: it takes any fields. */
  fields: AppField[] | null;
  oauth: OAuthSettings | null;
  scope: "server" | "account" | "implicit";
}

export interface OAuthSettingsParams {
  authorize_url: string;
  token_url: string;
  client_id: string;
  /** Omitted: keep the registered one; null: remove it (a public client). */
  client_secret?: string | null;
  scopes?: string[] | string;
  scope_separator?: string;
  pkce?: boolean;
  authorize_params?: Record<string, string>;
  user_info_url?: string;
  uid_field?: string;
  token_auth_method?: "client_secret_basic" | "client_secret_post";
}

export interface AppParams {
  slug: string;
  name?: string;
  auth_type: "keys" | "oauth" | "none";
  fields?: AppField[];
  oauth?: OAuthSettingsParams;
  /** server: for every account (admin only). */
  scope?: "server" | "account";
}

export interface OAuthConnection {
  id: string;
  app: string;
  status: "pending" | "connected" | "failed" | "expired";
  connected_account_id: string | null;
  error: string | null;
  expires_at: string;
  created_at: string;
}

export interface StartedOAuthConnection extends OAuthConnection {
  /** Open it in a browser; it works once, until expires_at. */
  authorize_url: string;
  redirect_uri: string;
}

export interface OAuthStartParams {
  app: string;
  name?: string;
  fields?: Record<string, string | number | boolean>;
  /** Reconnect this connected account instead of creating one. */
  connected_account_id?: string;
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
    startOAuthConnection: (params: OAuthStartParams) =>
      client.data<StartedOAuthConnection>("POST", "/v1/connected_accounts/oauth", { body: params }),
    getOAuthConnection: (id: string) =>
      client.data<OAuthConnection>("GET", `/v1/connected_accounts/oauth/${encodeURIComponent(id)}`),
    configure: (params: ConfigureParams) =>
      client.request<ConfigureResult>("POST", "/v1/components/configure", { body: params }),
    reloadProps: (params: ReloadPropsParams) =>
      client.request<ReloadPropsResult>("POST", "/v1/components/props", { body: params }),
  };
}

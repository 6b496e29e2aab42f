/**
 * The apps, connected accounts and dynamic props routes, over a SluiceClient: `appsApi(client)`.
 * Kept beside client.ts so the client file stays one concern per file.
 */
import type { SluiceClient } from "./client.js";
import type { BodyOf, DataOf, Deleted, PageOf, PageParams, ResponseOf } from "./types.js";

export type App = DataOf<"getApp">;
/** An oauth app's settings as the API shows them (never the client secret). */
export type OAuthSettings = NonNullable<App["oauth"]>;

/** What registering an app (`POST /v1/apps`) takes. */
export type AppParams = BodyOf<"registerApp">;
/** One field of a keys app (an oauth app's custom fields), as registering takes it. */
export type AppField = NonNullable<AppParams["fields"]>[number];
/** `client_secret` omitted keeps the registered one; null removes it (a public client). */
export type OAuthSettingsParams = NonNullable<AppParams["oauth"]>;

export type OAuthConnection = DataOf<"getOAuthConnection">;
export type StartedOAuthConnection = DataOf<"startOAuthConnection">;
export type OAuthStartParams = BodyOf<"startOAuthConnection">;

export type ConnectedAccount = DataOf<"getConnectedAccount">;
export type ConnectedAccountParams = BodyOf<"createConnectedAccount">;
/** A new name, and/or a keys account's fields to replace (reconnecting it). */
export type ConnectedAccountUpdate = BodyOf<"updateConnectedAccount">;

/** `POST /v1/components/configure` and `/props` take these (Pipedream Connect's shapes). */
export type ConfigureParams = BodyOf<"configureComponentProp">;
export type ConfigureResult = ResponseOf<"configureComponentProp">;
export type ReloadPropsParams = BodyOf<"reloadComponentProps">;
/** `dynamicProps` is null when additionalProps failed: `errors` says why. */
export type ReloadPropsResult = ResponseOf<"reloadComponentProps">;

export function appsApi(client: SluiceClient) {
  const path = (id: string) => `/v1/connected_accounts/${encodeURIComponent(id)}`;
  return {
    registerApp: (app: AppParams) => client.data<App>("POST", "/v1/apps", { body: app }),
    listApps: () => client.data<App[]>("GET", "/v1/apps"),
    getApp: (slug: string) => client.data<App>("GET", `/v1/apps/${encodeURIComponent(slug)}`),
    unregisterApp: (slug: string, scope?: "server" | "account") =>
      client.data<DataOf<"deleteApp">>("DELETE", `/v1/apps/${encodeURIComponent(slug)}`, {
        query: { scope },
      }),
    createConnectedAccount: (params: ConnectedAccountParams) =>
      client.data<ConnectedAccount>("POST", "/v1/connected_accounts", { body: params }),
    listConnectedAccounts: (params: PageParams & { app?: string } = {}) =>
      client.request<PageOf<ConnectedAccount>>("GET", "/v1/connected_accounts", { query: { ...params } }),
    getConnectedAccount: (id: string) => client.data<ConnectedAccount>("GET", path(id)),
    renameConnectedAccount: (id: string, name: string) =>
      client.data<ConnectedAccount>("PATCH", path(id), { body: { name } }),
    /** Renames, or reconnects a keys account with new fields (an OAuth one: startOAuthConnection with its id). */
    updateConnectedAccount: (id: string, update: ConnectedAccountUpdate) =>
      client.data<ConnectedAccount>("PATCH", path(id), { body: update }),
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

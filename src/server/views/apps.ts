/** The REST API's shapes of apps (snake_case, as Pipedream's API shows them): core returns domain objects, the routes answer these. */
import type { AppDefinition } from "../../core/apps/app-definition.js";
import type { ConnectedAccount } from "../../core/apps/connected-accounts.js";
import type { OAuthConnection } from "../../core/apps/oauth-connections.js";
import type { OAuthSettings } from "../../core/apps/oauth-settings.js";

export function oauthConnectionView(connection: OAuthConnection) {
  return {
    id: connection.id,
    app: connection.app,
    status: connection.status,
    connected_account_id: connection.status === "connected" ? connection.connectedAccountId : null,
    error: connection.error,
    expires_at: new Date(connection.expiresAt).toISOString(),
    created_at: new Date(connection.createdAt).toISOString(),
  };
}

/** As the API shows the settings: never the client secret. */
export function oauthSettingsView(settings: OAuthSettings) {
  return {
    authorize_url: settings.authorizeUrl,
    token_url: settings.tokenUrl,
    scopes: settings.scopes,
    scope_separator: settings.scopeSeparator,
    pkce: settings.pkce,
    authorize_params: settings.authorizeParams,
    user_info_url: settings.userInfoUrl,
    uid_field: settings.uidField,
    client_id: settings.clientId,
    token_auth_method: settings.tokenAuthMethod,
    has_client_secret: settings.hasClientSecret,
  };
}

/** The app as the API shows it (never the OAuth client secret). */
export function appView(app: AppDefinition) {
  return {
    name_slug: app.slug,
    name: app.name,
    auth_type: app.authType,
    fields: app.fields,
    oauth: app.oauth ? oauthSettingsView(app.oauth) : null,
    scope: app.scope,
  };
}

/** As the API shows it: never the credentials. */
export function connectedAccountView(account: ConnectedAccount) {
  const seconds = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: account.id,
    name: account.name,
    app: account.app,
    auth_type: account.authType,
    healthy: account.healthy,
    dead: !account.healthy,
    error: account.error,
    expires_at: seconds(account.expiresAt),
    last_refreshed_at: seconds(account.lastRefreshedAt),
    created_at: seconds(account.createdAt),
    updated_at: seconds(account.updatedAt),
  };
}

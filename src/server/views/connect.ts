/** The REST API's shapes of connect (snake_case, as Pipedream's API shows them): core returns domain objects, the routes answer these. */
import type { AppDefinition } from "../../core/apps/app-definition.js";
import type { SavedComponent } from "../../core/components/saved-components.js";
import type { EndUserAccount } from "../../core/connect/accounts.js";
import { configurableProp } from "../../core/connect/components.js";
import type { OAuthClient } from "../../core/connect/oauth-clients.js";
import type { Project } from "../../core/connect/projects.js";
import type { CoreContext } from "../../core/context.js";
import type { DeployedSource } from "../../core/sources/sources.js";
import { sourceFields } from "./sources.js";

/** A deployed trigger as Pipedream's API shows it (times in epoch milliseconds, as its reference says). */
export function deployedTriggerView(
  context: CoreContext,
  source: DeployedSource,
  extra: { readonly webhookSigningKey?: string; readonly emitOnDeploy?: boolean } = {},
) {
  return {
    ...sourceFields(context, source),
    configurable_props: source.definition.props.map(configurableProp),
    created_at: source.createdAt,
    updated_at: source.updatedAt,
    type: "DeployedComponent" as const,
    ...(extra.emitOnDeploy === undefined ? {} : { emit_on_deploy: extra.emitOnDeploy }),
    ...(extra.webhookSigningKey === undefined ? {} : { webhook_signing_key: extra.webhookSigningKey }),
  };
}

/** As Pipedream's API shows a project (with Sluice's times besides). */
export function projectView(project: Project) {
  return {
    id: project.id,
    name: project.name,
    app_name: project.appName,
    support_email: project.supportEmail,
    created_at: new Date(project.createdAt).toISOString(),
    updated_at: new Date(project.updatedAt).toISOString(),
  };
}

export function oauthClientView(client: OAuthClient) {
  return {
    id: client.id,
    client_id: client.id,
    name: client.name,
    created_at: new Date(client.createdAt).toISOString(),
    last_used_at: client.lastUsedAt === null ? null : new Date(client.lastUsedAt).toISOString(),
  };
}

export function connectComponentView(component: SavedComponent) {
  return {
    key: component.key ?? component.id,
    name: component.name,
    version: component.version ?? "0.0.0",
    description: component.description,
    component_type: component.type === "action" ? "action" : "trigger",
    configurable_props: component.definition.props.map(configurableProp),
  };
}

/** An app as Pipedream's API shows it (Sluice has no app ids, logos or categories: the slug names it). */
export function connectAppView(app: AppDefinition) {
  return {
    name_slug: app.slug,
    name: app.name,
    auth_type: app.authType,
    description: null,
    img_src: "",
    custom_fields_json: JSON.stringify(
      (app.fields ?? []).map((field) => ({
        name: field.name,
        label: field.label ?? field.name,
        description: field.description,
        optional: field.optional,
        secret: field.secret,
        type: field.secret ? "password" : "string",
      })),
    ),
    categories: [] as string[],
    featured_weight: 0,
    scope_profiles: [] as unknown[],
  };
}

/** An end user's connected account as Pipedream's API shows it; credentials only when given. */
export function connectAccountView({ account, externalId, app, credentials }: EndUserAccount) {
  const iso = (ms: number | null) => (ms === null ? null : new Date(ms).toISOString());
  return {
    id: account.id,
    name: account.name,
    external_id: externalId,
    healthy: account.healthy,
    dead: !account.healthy,
    app: connectAppView(app),
    created_at: iso(account.createdAt),
    updated_at: iso(account.updatedAt),
    expires_at: iso(account.expiresAt),
    last_refreshed_at: iso(account.lastRefreshedAt),
    error: account.error,
    ...(credentials === undefined ? {} : { credentials }),
  };
}

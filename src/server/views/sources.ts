/** The REST API's shapes of sources (snake_case, as Pipedream's API shows them): core returns domain objects, the routes answer these. */
import type { CoreContext } from "../../core/context.js";
import { endpointUrl } from "../../core/sources/invoker.js";
import { viewProps } from "../../core/sources/source-props.js";
import type { DeployedSource } from "../../core/sources/sources.js";

/** What every view of a deployed source shows alike (its own API's and Connect's triggers'). */
export function sourceFields(context: CoreContext, source: DeployedSource) {
  const url = endpointUrl(context, source.endpointId);
  return {
    id: source.id,
    owner_id: source.accountId,
    component_id: source.componentId,
    component_key: source.componentKey,
    configured_props: viewProps(source.definition, source.storedProps, url),
    active: source.active,
    name: source.name,
    name_slug: source.nameSlug,
    endpoint_url: url,
  };
}

/** The source as the API shows it (Pipedream's fields first), secrets masked. */
export function sourceView(context: CoreContext, source: DeployedSource) {
  return {
    ...sourceFields(context, source),
    created_at: Math.floor(source.createdAt / 1000),
    updated_at: Math.floor(source.updatedAt / 1000),
    timeout_seconds: source.timeoutSeconds,
    max_events: source.maxEvents,
    component_version: source.definition.version ?? null,
    last_event_at: source.lastEventAt === null ? null : Math.floor(source.lastEventAt / 1000),
  };
}

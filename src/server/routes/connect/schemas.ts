/**
 * JSON schemas of the Connect routes, in Pipedream's shapes. Objects the SDK reads leniently
 * (props, configured values, accounts' credentials) allow additional properties; the rest are
 * spelled out so the OpenAPI document can generate clients.
 */
import { commonErrors, errorResponse, operationsOf, pageInfo, pathParams } from "../../schemas.js";

/** The errors every Connect route may answer besides its own: a connect token may be refused (403). */
export const connectErrors = { ...commonErrors, 403: errorResponse } as const;

/** A Connect route's schema: tagged "connect", answering its own responses and the Connect errors. */
export const connectSchema = operationsOf("connect", connectErrors);

/** The answer of a delete that has nothing to say. */
export const noContent = { 204: { type: "null", description: "deleted" } } as const;

export const looseObject = { type: "object", additionalProperties: true } as const;

export const externalUserId = {
  type: "string",
  maxLength: 250,
  description: "your own id for the end user",
} as const;

export const projectParams = pathParams({
  project_id: { type: "string", maxLength: 200, description: "proj_…" },
});

/** The path parameters of a route with `extra`, with or without the project segment. */
export function paramsOf(
  withProject: boolean,
  extra: Record<string, { type: "string"; maxLength: number }> = {},
) {
  return pathParams({ ...(withProject ? projectParams.properties : {}), ...extra });
}

export const connectPageQuery = {
  limit: { type: "integer", minimum: 1, maximum: 100, default: 10 },
  after: { type: "string", maxLength: 200, description: "cursor: the page after this one" },
  before: { type: "string", maxLength: 200, description: "cursor: the page before this one" },
} as const;

export function pageOfItems<Item extends object>(item: Item) {
  return {
    type: "object",
    properties: { data: { type: "array", items: item }, page_info: pageInfo },
  } as const;
}

/** The answer of a list whose end user does not exist yet: nothing, rather than a 404. */
export const emptyPage = {
  data: [],
  page_info: { total_count: 0, count: 0, start_cursor: null, end_cursor: null },
};

export const configurablePropSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    name: { type: "string" },
    type: { type: "string" },
    label: { type: "string" },
    description: { type: "string" },
    optional: { type: "boolean" },
    remoteOptions: { type: "boolean" },
    useQuery: { type: "boolean" },
    reloadProps: { type: "boolean" },
    withLabel: { type: "boolean" },
  },
} as const;

export const componentSchema = {
  type: "object",
  properties: {
    key: { type: "string" },
    name: { type: "string" },
    version: { type: "string" },
    description: { type: ["string", "null"] },
    component_type: { type: "string", enum: ["trigger", "action"] },
    configurable_props: { type: "array", items: configurablePropSchema },
  },
} as const;

export const appSchema = {
  type: "object",
  properties: {
    name_slug: { type: "string" },
    name: { type: "string" },
    auth_type: { type: "string" },
    description: { type: ["string", "null"] },
    img_src: { type: "string" },
    custom_fields_json: { type: "string", description: "JSON of the app's fields" },
    categories: { type: "array", items: { type: "string" } },
    featured_weight: { type: "number" },
    scope_profiles: { type: "array", items: looseObject },
  },
} as const;

export const accountSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "apn_…" },
    name: { type: "string" },
    external_id: { type: "string" },
    healthy: { type: "boolean" },
    dead: { type: "boolean" },
    app: appSchema,
    created_at: { type: ["string", "null"] },
    updated_at: { type: ["string", "null"] },
    expires_at: { type: ["string", "null"] },
    last_refreshed_at: { type: ["string", "null"] },
    error: { type: ["string", "null"] },
    credentials: { ...looseObject, description: "only with include_credentials, for a server-side caller" },
  },
} as const;

export const deployedTriggerSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "dc_…" },
    owner_id: { type: "string" },
    component_id: { type: "string" },
    component_key: { type: ["string", "null"] },
    configurable_props: { type: "array", items: configurablePropSchema },
    configured_props: looseObject,
    active: { type: "boolean" },
    created_at: { type: "integer", description: "epoch milliseconds" },
    updated_at: { type: "integer", description: "epoch milliseconds" },
    name: { type: "string" },
    name_slug: { type: "string" },
    type: { type: "string", enum: ["DeployedComponent"] },
    endpoint_url: { type: ["string", "null"] },
    emit_on_deploy: { type: "boolean" },
    webhook_signing_key: {
      type: "string",
      description: "the whsec_ secret that signs deliveries to webhook_url; in the deploy's answer only",
    },
  },
} as const;

export const observationSchema = looseObject;

export const projectSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "proj_…" },
    name: { type: "string" },
    app_name: { type: ["string", "null"] },
    support_email: { type: ["string", "null"] },
    created_at: { type: "string" },
    updated_at: { type: "string" },
  },
} as const;

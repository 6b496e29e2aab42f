/**
 * The REST API's resources as they appear on the wire: names for the types generated from the
 * OpenAPI document (./openapi.ts, `npm run generate:client-types`), so callers keep importing
 * `Webhook`, `Source`, … from here while the route schemas stay the one source of truth.
 */
import type { BodyOf, DataOf, ItemOf, QueryOf } from "./wire.js";

export type { BodyOf, DataOf, ItemOf, PageInfo, PageOf, PageParams, QueryOf, ResponseOf } from "./wire.js";

export type Me = DataOf<"getCurrentUser">;
export type CreatedAccount = DataOf<"createAccount">;
export type ApiKeyInfo = ItemOf<"listApiKeys">;
export type CreatedApiKey = DataOf<"createApiKey">;

export type Webhook = DataOf<"getWebhook">;
/** What `PUT /v1/webhooks/{id}` changes; `active: true` re-enables a disabled webhook. */
export type WebhookUpdate = BodyOf<"updateWebhook">;
export type CreatedWebhook = DataOf<"createWebhook">;
export type Deleted = DataOf<"deleteWebhook">;

export type Source = DataOf<"getSource">;
/** What deploying (`POST /v1/sources`) and updating (`PUT /v1/sources/{id}`, which adds `active`) take. */
export type SourceParams = BodyOf<"updateSource">;

/** Joins an emitter (a `dc_` source) to a listener (a `wh_` webhook), optionally for one channel. */
export type SubscriptionParams = BodyOf<"createSubscription">;
export type Subscription = ItemOf<"listSubscriptions">;

/** One event on its way to one webhook, as the delivery log shows it. */
export type Delivery = ItemOf<"listWebhookDeliveries">;
export type DeliveryStatus = Delivery["status"];
export type DeliveryWithAttempts = DataOf<"getDelivery">;
export type DeliveryAttempt = DeliveryWithAttempts["attempt_log"][number];
export type Recovered = DataOf<"recoverWebhookDeliveries">;

export type Unpublished = DataOf<"unpublishComponent">;

/** `POST /v1/actions/run`: one of component_id, component_code, component_url or key names the action. */
export type ActionRunParams = BodyOf<"runAction">;

export type * from "./workflow-types.js";

/** A component in a registry, as search and the public registry list it (the latest version of its key). */
export type ListedComponent = ItemOf<"searchRegistryComponents">;
/** `POST /v1/registry/components`: `unchanged` when the same code was already published under that version. */
export type PublicPublished = DataOf<"publishRegistryComponent">;
export type ComponentSearchParams = QueryOf<"searchRegistryComponents">;
/** What unpublish and deprecate in the public registry changed. */
export type PublicVersionsChanged =
  | DataOf<"unpublishRegistryComponent">
  | DataOf<"deprecateRegistryComponent">;

export type ImportReport = DataOf<"importRegistryPackage">;
/** One component of a package import. */
export type ImportedComponent = ImportReport["components"][number];
export type ImportInput = BodyOf<"startRegistryImport">;
/** An import run as a job (`POST /v1/registry/imports`). */
export type ImportJob = DataOf<"getRegistryImport">;

/** A saved component: its code, described props and lock. */
export type Component = DataOf<"getSavedComponent">;
/** A saved component as lists show it: without its code. */
export type ComponentSummary = ItemOf<"listSavedComponents">;
/** One configurable prop as the component describes it; Pipedream's other fields pass through. */
export type ConfigurableProp = Component["configurable_props"][number];

/** A component published under its key and version (`sluice publish`); the code is left out of lists. */
export type PublishedComponent = DataOf<"publishComponent">;
/** `GET /v1/published/{key}`: the version `key` resolves to, its code, and every published version. */
export type PublishedComponentDetail = DataOf<"getPublishedComponent">;
/** `GET /v1/registry/components/{key}`: the version the key resolves to and every version. */
export type PublicComponentDetail = DataOf<"getRegistryComponent">;

/** An event as lists and the SSE streams show it; `event` is left out of large ones unless expanded. */
export type EventSummary = ItemOf<"listSourceEvents">;
export type LogEntry = ItemOf<"listSourceLogs">;

/** `POST /v1/sources/{id}/run`: the invocation, the ids of the events it emitted and its log lines. */
export type RunResult = DataOf<"runSource">;
export type ActionRunResult = DataOf<"runAction">;
/** One `$.send.*` call of an action and what became of it. */
export type ActionSendReport = ActionRunResult["sends"][number];

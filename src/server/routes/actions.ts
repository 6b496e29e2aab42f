/**
 * Actions and published components: `POST /v1/actions/run` runs an action once;
 * `POST /v1/components/publish`, `GET /v1/users/me/published`, `GET /v1/published/{key}` and
 * `DELETE /v1/published/{key}` publish, list, read and unpublish components by key and version.
 * The sends of actions' `$.send.*` calls go through the context's sender.
 */

import type { FastifyInstance } from "fastify";
import { type ActionRunInput, runAction } from "../../core/actions/actions.js";
import {
  listPublished,
  listVersions,
  type PublishedComponent,
  type PublishInput,
  parseRef,
  publishComponent,
  resolvePublished,
  unpublish,
} from "../../core/components/published.js";
import type { CoreContext } from "../../core/context.js";
import type { PageRequest } from "../../core/pagination.js";
import {
  dataOf,
  epochSeconds,
  errorResponse,
  pageAnswer,
  pageOf,
  pageQueryWith,
  pathParams,
} from "../schemas.js";
import { actionRunView } from "../views/actions.js";
import { publishedDetailSchema, publishedSchema } from "./component-schemas.js";
import { componentView } from "./components.js";
import { routeGroup } from "./route-group.js";
import { actionRunSchema } from "./run-schemas.js";

function publishedView(published: PublishedComponent) {
  const { code: _code, ...component } = componentView(published.component);
  return {
    ...component,
    key: published.key,
    version: published.version,
    published_at: epochSeconds(published.publishedAt),
  };
}

const keyParams = pathParams({
  key: { type: "string", maxLength: 400, description: "a key, or key@version" },
});

/** Registers running an action once, then the account's published components. */
export function actionRoutes(app: FastifyInstance, context: CoreContext): void {
  actionRunRoute(app, context);
  publishedComponentRoutes(app, context);
}

/** Running an action once; its sends go through the context's sender. */
function actionRunRoute(app: FastifyInstance, context: CoreContext): void {
  const actionRoute = routeGroup(app, "actions");
  const { sender } = context;

  actionRoute.post<{ Body: ActionRunInput }>("/actions/run", {
    operationId: "runAction",
    summary: "Run an action once: its return value, exports, summary, logs and sends",
    body: {
      type: "object",
      properties: {
        component_id: { type: "string", description: "a saved component (sc_…)" },
        component_code: { type: "string", description: "the action's source code" },
        component_url: { type: "string", description: "an http(s) URL to the code" },
        filename: { type: "string" },
        key: { type: "string", description: "a published key (its latest version), or key@version" },
        id: { type: "string", description: "Pipedream Connect's name: a key, key@version or sc_ id" },
        configured_props: { type: "object", additionalProperties: true },
        steps: { type: "object", additionalProperties: true, description: "run({ steps }) receives it" },
        timeout_seconds: { type: "integer" },
        dynamic_props_id: { type: "string", description: "dyp_… from POST /v1/components/props" },
      },
    },
    response: { 200: dataOf(actionRunSchema) },
    handler: async (request) => ({
      data: actionRunView(await runAction(context, sender, request.account.id, request.body)),
    }),
  });
}

/** Publishing components under a key and version, listing, reading and unpublishing them. */
function publishedComponentRoutes(app: FastifyInstance, context: CoreContext): void {
  const componentRoute = routeGroup(app, "components");
  componentRoute.post<{ Body: PublishInput }>("/components/publish", {
    operationId: "publishComponent",
    summary: "Publish a component under its key and version (a new version keeps the older ones)",
    body: {
      type: "object",
      properties: {
        component_code: { type: "string" },
        component_url: { type: "string" },
        component_id: { type: "string", description: "a saved component (sc_…)" },
        filename: { type: "string" },
      },
    },
    response: { 200: dataOf(publishedSchema), 409: errorResponse },
    handler: async (request) => ({
      data: publishedView(await publishComponent(context, request.account.id, request.body)),
    }),
  });

  componentRoute.get<{ Querystring: PageRequest & { key?: string } }>("/users/me/published", {
    operationId: "listPublishedComponents",
    summary: "List the account's published components, every version, newest first",
    querystring: pageQueryWith({ key: { type: "string", maxLength: 400 } }),
    response: { 200: pageOf(publishedSchema) },
    handler: async (request) =>
      pageAnswer(await listPublished(context, request.account.id, request.query), publishedView),
  });

  componentRoute.get<{ Params: { key: string } }>("/published/:key", {
    operationId: "getPublishedComponent",
    summary: "Read a published component: key (its latest version) or key@version, with every version",
    params: keyParams,
    response: { 200: dataOf(publishedDetailSchema) },
    handler: async (request) => {
      const published = await resolvePublished(context, request.account.id, request.params.key);
      const versions = await listVersions(context, request.account.id, parseRef(request.params.key).key);
      return {
        data: {
          ...publishedView(published),
          code: published.component.code,
          versions: versions.map((row) => ({
            version: row.version,
            component_id: row.component_id,
            published_at: epochSeconds(Number(row.published_at)),
          })),
        },
      };
    },
  });

  componentRoute.delete<{ Params: { key: string } }>("/published/:key", {
    operationId: "unpublishComponent",
    summary: "Unpublish every version of a key, or one (key@version)",
    params: keyParams,
    response: {
      200: dataOf({
        type: "object",
        properties: {
          key: { type: "string" },
          versions: { type: "array", items: { type: "string" } },
          deleted: { type: "boolean" },
        },
      }),
    },
    handler: async (request) => {
      const versions = await unpublish(context, request.account.id, request.params.key);
      return { data: { key: parseRef(request.params.key).key, versions, deleted: true } };
    },
  });
}

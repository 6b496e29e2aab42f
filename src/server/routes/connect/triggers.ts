/**
 * Running actions and deploying triggers for an end user (`POST …/actions/run`,
 * `POST …/triggers/deploy`) and the end user's deployed triggers (`…/deployed-triggers`: list,
 * read, update, delete, events, webhooks). Another end user's trigger is not found.
 */

import type { FastifyInstance, FastifyRequest } from "fastify";
import { type RunActionInput, runConnectAction } from "../../../core/connect/actions.js";
import {
  type DeployTriggerInput,
  deleteTrigger,
  deployTrigger,
  getTrigger,
  listTriggers,
  setTriggerWebhooks,
  type TriggerUpdateInput,
  triggerEvents,
  triggerWebhooks,
  updateTrigger,
} from "../../../core/connect/deployed-triggers.js";
import { checkExternalUserId } from "../../../core/connect/end-users.js";
import type { CoreContext } from "../../../core/context.js";
import type { PageRequest } from "../../../core/pagination.js";
import { dataOf, listOf, pageAnswer } from "../../schemas.js";
import { deployedTriggerView } from "../../views/connect.js";
import { routeGroup } from "../route-group.js";
import { type EndUserMode, endUserOf, optionalEndUserOf, scopeOf } from "./connect-auth.js";
import type { ConnectMount, ConnectRoutes } from "./mount.js";
import {
  connectPageQuery,
  deployedTriggerSchema,
  emptyPage,
  externalUserId,
  looseObject,
  noContent,
  observationSchema,
  pageOfItems,
} from "./schemas.js";

type WithUser<T> = T & { external_user_id?: unknown };

const triggerParams = { trigger_id: { type: "string", maxLength: 200 } } as const;
const userQuery = {
  type: "object",
  properties: { external_user_id: externalUserId },
} as const;
const oneTrigger = { 200: dataOf(deployedTriggerSchema) };
const webhooksAnswer = {
  type: "object",
  properties: {
    webhook_urls: { type: "array", items: { type: "string" } },
    webhooks: {
      type: "array",
      items: {
        type: "object",
        properties: {
          id: { type: "string" },
          url: { type: "string" },
          signing_key: { type: "string" },
          signing_key_set: { type: "boolean" },
        },
      },
    },
  },
} as const;

/** The body of running an action or deploying a trigger for the end user: its key, props and `more`. */
const componentToRun = (type: "action" | "trigger", more: Record<string, object>) =>
  ({
    type: "object",
    properties: {
      id: { type: "string", maxLength: 400, description: `the ${type}'s key` },
      version: { type: "string", maxLength: 100 },
      external_user_id: externalUserId,
      configured_props: looseObject,
      dynamic_props_id: { type: "string", maxLength: 200 },
      ...more,
    },
    required: ["id"],
  }) as const;

const triggerEventsAnswer = listOf({
  type: "object",
  properties: {
    e: {},
    k: { type: "string" },
    ts: { type: "integer", description: "epoch milliseconds" },
    id: { type: "string" },
    sum: { type: "string" },
  },
});

function webhooksView(webhooks: readonly { id: string; url: string; signingKey?: string }[]) {
  return {
    webhook_urls: webhooks.map((webhook) => webhook.url),
    webhooks: webhooks.map((webhook) => ({
      id: webhook.id,
      url: webhook.url,
      ...(webhook.signingKey === undefined ? {} : { signing_key: webhook.signingKey }),
      signing_key_set: true,
    })),
  };
}

/** Registers the routes at `mount`. */
export function triggerRoutes(app: FastifyInstance, context: CoreContext, mount: ConnectMount): void {
  const route = routeGroup(app, mount.schema);
  runRoutes(route, context, mount);
  deployedTriggerReadRoutes(route, context, mount);
  deployedTriggerChangeRoutes(route, context, mount);
  deployedTriggerOutputRoutes(route, context, mount);
}

/** The end user the request names (made on first use with "create"), in the request's project. */
async function endUserFor(request: FastifyRequest, context: CoreContext, given: unknown, mode: EndUserMode) {
  const { store } = context;
  return endUserOf(request, store, await scopeOf(request, store.db), given, mode);
}

/** Running an action and deploying a trigger for the end user. */
function runRoutes(route: ConnectRoutes, context: CoreContext, { base }: ConnectMount): void {
  const { db } = context.store;

  route.post<{ Body: WithUser<RunActionInput> }>(`${base}/actions/run`, {
    operationId: "runConnectAction",
    summary: "Run an action for the end user; answers its exports, observations (os) and return value (ret)",
    body: componentToRun("action", { stash_id: {} }),
    response: {
      200: {
        type: "object",
        properties: {
          exports: looseObject,
          os: { type: "array", items: observationSchema },
          ret: {},
          stash_id: { type: ["string", "null"] },
        },
      },
    },
    handler: async (request) => {
      const scope = await scopeOf(request, db);
      const endUser = await endUserOf(request, context.store, scope, request.body.external_user_id, "create");
      return runConnectAction(context, scope.project, endUser, request.body);
    },
  });

  route.post<{ Body: WithUser<DeployTriggerInput> }>(`${base}/triggers/deploy`, {
    operationId: "deployConnectTrigger",
    summary: "Deploy a trigger for the end user; with webhook_url its events are delivered there, signed",
    body: componentToRun("trigger", {
      webhook_url: { type: "string", maxLength: 2048 },
      workflow_id: { type: "string", maxLength: 200 },
      emit_on_deploy: { type: "boolean" },
    }),
    response: oneTrigger,
    handler: async (request) => {
      const scope = await scopeOf(request, db);
      const endUser = await endUserOf(request, context.store, scope, request.body.external_user_id, "create");
      const deployed = await deployTrigger(context, scope.project, endUser, request.body);
      return {
        data: deployedTriggerView(context, deployed.source, {
          emitOnDeploy: deployed.emitOnDeploy,
          ...(deployed.webhookSigningKey === undefined
            ? {}
            : { webhookSigningKey: deployed.webhookSigningKey }),
        }),
      };
    },
  });
}

/** Listing the end user's deployed triggers and reading one. */
function deployedTriggerReadRoutes(route: ConnectRoutes, context: CoreContext, { base }: ConnectMount): void {
  const { db } = context.store;

  route.get<{ Querystring: PageRequest & { external_user_id?: string } }>(`${base}/deployed-triggers`, {
    operationId: "listConnectDeployedTriggers",
    summary: "List the end user's deployed triggers, newest first",
    querystring: {
      type: "object",
      properties: {
        ...connectPageQuery,
        external_user_id: externalUserId,
        emitter_type: { type: "string", enum: ["source"] },
      },
    },
    response: { 200: pageOfItems(deployedTriggerSchema) },
    handler: async (request) => {
      const scope = await scopeOf(request, db);
      // Pipedream lists one end user's triggers: the id is required (a connect token names it).
      if (request.connect.grant === null) checkExternalUserId(request.query.external_user_id);
      const endUser = await optionalEndUserOf(request, db, scope, request.query.external_user_id);
      if (endUser === null || endUser === "none") {
        return emptyPage;
      }
      return pageAnswer(await listTriggers(context, endUser, request.query), (source) =>
        deployedTriggerView(context, source),
      );
    },
  });

  route.get<{ Params: { trigger_id: string }; Querystring: { external_user_id?: string } }>(
    `${base}/deployed-triggers/:trigger_id`,
    {
      operationId: "getConnectDeployedTrigger",
      summary: "Read one of the end user's deployed triggers",
      params: triggerParams,
      querystring: userQuery,
      response: oneTrigger,
      handler: async (request) => {
        const endUser = await endUserFor(request, context, request.query.external_user_id, "require");
        return {
          data: deployedTriggerView(context, await getTrigger(context, endUser, request.params.trigger_id)),
        };
      },
    },
  );
}

/** Updating and deleting one of the end user's deployed triggers. */
function deployedTriggerChangeRoutes(
  route: ConnectRoutes,
  context: CoreContext,
  { base }: ConnectMount,
): void {
  route.put<{ Params: { trigger_id: string }; Body: WithUser<TriggerUpdateInput> }>(
    `${base}/deployed-triggers/:trigger_id`,
    {
      operationId: "updateConnectDeployedTrigger",
      summary: "Update a deployed trigger: active, name or configured_props",
      params: triggerParams,
      body: {
        type: "object",
        properties: {
          external_user_id: externalUserId,
          active: { type: "boolean" },
          configured_props: looseObject,
          name: { type: "string", maxLength: 200 },
          emit_on_deploy: { type: "boolean" },
        },
      },
      response: oneTrigger,
      handler: async (request) => {
        const endUser = await endUserFor(request, context, request.body.external_user_id, "require");
        const source = await updateTrigger(context, endUser, request.params.trigger_id, request.body);
        return { data: deployedTriggerView(context, source) };
      },
    },
  );

  route.delete<{
    Params: { trigger_id: string };
    Querystring: { external_user_id?: string; ignore_hook_errors?: boolean };
  }>(`${base}/deployed-triggers/:trigger_id`, {
    operationId: "deleteConnectDeployedTrigger",
    summary:
      "Delete a deployed trigger and the webhooks made for it (a failing deactivate hook does not stop it)",
    params: triggerParams,
    querystring: {
      type: "object",
      properties: { external_user_id: externalUserId, ignore_hook_errors: { type: "boolean" } },
    },
    response: noContent,
    handler: async (request, reply) => {
      const endUser = await endUserFor(request, context, request.query.external_user_id, "require");
      await deleteTrigger(context, endUser, request.params.trigger_id);
      return reply.code(204).send();
    },
  });
}

/** What a deployed trigger emitted, and the URLs its events are delivered to. */
function deployedTriggerOutputRoutes(
  route: ConnectRoutes,
  context: CoreContext,
  { base }: ConnectMount,
): void {
  route.get<{ Params: { trigger_id: string }; Querystring: { external_user_id?: string; n?: number } }>(
    `${base}/deployed-triggers/:trigger_id/events`,
    {
      operationId: "listConnectDeployedTriggerEvents",
      summary: "The deployed trigger's newest events (n, default 20), newest first",
      params: triggerParams,
      querystring: {
        type: "object",
        properties: { external_user_id: externalUserId, n: { type: "integer", minimum: 1, maximum: 100 } },
      },
      response: { 200: triggerEventsAnswer },
      handler: async (request) => {
        const endUser = await endUserFor(request, context, request.query.external_user_id, "require");
        return { data: await triggerEvents(context, endUser, request.params.trigger_id, request.query.n) };
      },
    },
  );
  route.get<{ Params: { trigger_id: string }; Querystring: { external_user_id?: string } }>(
    `${base}/deployed-triggers/:trigger_id/webhooks`,
    {
      operationId: "listConnectDeployedTriggerWebhooks",
      summary: "The URLs the deployed trigger's events are delivered to",
      params: triggerParams,
      querystring: userQuery,
      response: { 200: webhooksAnswer },
      handler: async (request) => {
        const endUser = await endUserFor(request, context, request.query.external_user_id, "require");
        const source = await getTrigger(context, endUser, request.params.trigger_id);
        return webhooksView(await triggerWebhooks(context, endUser, source.id));
      },
    },
  );

  route.put<{ Params: { trigger_id: string }; Body: { external_user_id?: unknown; webhook_urls?: unknown } }>(
    `${base}/deployed-triggers/:trigger_id/webhooks`,
    {
      operationId: "setConnectDeployedTriggerWebhooks",
      summary:
        "Set the URLs the deployed trigger's events are delivered to; a new URL's signing_key is in this answer only",
      params: triggerParams,
      body: {
        type: "object",
        properties: {
          external_user_id: externalUserId,
          webhook_urls: { type: "array", items: { type: "string", maxLength: 2048 }, maxItems: 10 },
        },
        required: ["webhook_urls"],
      },
      response: { 200: webhooksAnswer },
      handler: async (request) => {
        const endUser = await endUserFor(request, context, request.body.external_user_id, "require");
        return webhooksView(
          await setTriggerWebhooks(context, endUser, request.params.trigger_id, request.body.webhook_urls),
        );
      },
    },
  );
}

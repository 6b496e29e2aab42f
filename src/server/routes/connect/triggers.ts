/**
 * Running actions and deploying triggers for an end user (`POST …/actions/run`,
 * `POST …/triggers/deploy`) and the end user's deployed triggers (`…/deployed-triggers`: list,
 * read, update, delete, events, webhooks). Another end user's trigger is not found.
 */

import type { FastifyInstance } from "fastify";
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
import { deployedTriggerView } from "../../views/connect.js";
import { endUserOf, optionalEndUserOf, scopeOf } from "./connect-auth.js";
import { type ConnectMount, connectMount } from "./mount.js";
import {
  connectErrors,
  connectPageQuery,
  deployedTriggerSchema,
  emptyPage,
  externalUserId,
  looseObject,
  observationSchema,
  pageOfItems,
  paramsOf,
} from "./schemas.js";

type WithUser<T> = T & { external_user_id?: unknown };

const triggerParams = (withProject: boolean) =>
  paramsOf(withProject, { trigger_id: { type: "string", maxLength: 200 } });
const userQuery = {
  type: "object",
  properties: { external_user_id: externalUserId },
} as const;
const oneTrigger = { 200: { type: "object", properties: { data: deployedTriggerSchema } }, ...connectErrors };
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

/** The body properties that name the action or trigger to run for the end user, and its props. */
const componentToRun = (type: "action" | "trigger") =>
  ({
    id: { type: "string", maxLength: 400, description: `the ${type}'s key` },
    version: { type: "string", maxLength: 100 },
    external_user_id: externalUserId,
    configured_props: looseObject,
    dynamic_props_id: { type: "string", maxLength: 200 },
  }) as const;

const triggerEventsAnswer = {
  type: "object",
  properties: {
    data: {
      type: "array",
      items: {
        type: "object",
        properties: {
          e: {},
          k: { type: "string" },
          ts: { type: "integer", description: "epoch milliseconds" },
          id: { type: "string" },
          sum: { type: "string" },
        },
      },
    },
  },
} as const;

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

/** Registers the routes under `base` ("/:project_id" or ""); `suffix` keeps operationIds unique. */
export function triggerRoutes(
  app: FastifyInstance,
  context: CoreContext,
  base: string,
  suffix: string,
): void {
  const mount = connectMount(base, suffix);
  runRoutes(app, context, mount);
  deployedTriggerRoutes(app, context, mount);
  deployedTriggerOutputRoutes(app, context, mount);
}

/** Running an action and deploying a trigger for the end user. */
function runRoutes(
  app: FastifyInstance,
  context: CoreContext,
  { base, suffix, withProject }: ConnectMount,
): void {
  const { db } = context.store;

  app.post<{ Body: WithUser<RunActionInput> }>(
    `${base}/actions/run`,
    {
      schema: {
        operationId: `runConnectAction${suffix}`,
        hide: !withProject,
        summary:
          "Run an action for the end user; answers its exports, observations (os) and return value (ret)",
        tags: ["connect"],
        params: paramsOf(withProject),
        body: {
          type: "object",
          properties: { ...componentToRun("action"), stash_id: {} },
          required: ["id"],
        },
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
          ...connectErrors,
        },
      },
    },
    async (request) => {
      const scope = await scopeOf(request, db);
      const endUser = await endUserOf(request, db, scope, request.body.external_user_id, "create");
      return runConnectAction(context, scope.project, endUser, request.body);
    },
  );

  app.post<{ Body: WithUser<DeployTriggerInput> }>(
    `${base}/triggers/deploy`,
    {
      schema: {
        operationId: `deployConnectTrigger${suffix}`,
        hide: !withProject,
        summary: "Deploy a trigger for the end user; with webhook_url its events are delivered there, signed",
        tags: ["connect"],
        params: paramsOf(withProject),
        body: {
          type: "object",
          properties: {
            ...componentToRun("trigger"),
            webhook_url: { type: "string", maxLength: 2048 },
            workflow_id: { type: "string", maxLength: 200 },
            emit_on_deploy: { type: "boolean" },
          },
          required: ["id"],
        },
        response: oneTrigger,
      },
    },
    async (request) => {
      const scope = await scopeOf(request, db);
      const endUser = await endUserOf(request, db, scope, request.body.external_user_id, "create");
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
  );
}

/** The end user's deployed triggers: list, read, update, delete and their events. */
function deployedTriggerRoutes(
  app: FastifyInstance,
  context: CoreContext,
  { base, suffix, withProject }: ConnectMount,
): void {
  const { db } = context.store;

  app.get<{ Querystring: PageRequest & { external_user_id?: string } }>(
    `${base}/deployed-triggers`,
    {
      schema: {
        operationId: `listConnectDeployedTriggers${suffix}`,
        hide: !withProject,
        summary: "List the end user's deployed triggers, newest first",
        tags: ["connect"],
        params: paramsOf(withProject),
        querystring: {
          type: "object",
          properties: {
            ...connectPageQuery,
            external_user_id: externalUserId,
            emitter_type: { type: "string", enum: ["source"] },
          },
        },
        response: { 200: pageOfItems(deployedTriggerSchema), ...connectErrors },
      },
    },
    async (request) => {
      const scope = await scopeOf(request, db);
      // Pipedream lists one end user's triggers: the id is required (a connect token names it).
      if (request.connect.grant === null) checkExternalUserId(request.query.external_user_id);
      const endUser = await optionalEndUserOf(request, db, scope, request.query.external_user_id);
      if (endUser === null || endUser === "none") {
        return emptyPage;
      }
      const page = await listTriggers(context, endUser, request.query);
      return {
        data: page.items.map((source) => deployedTriggerView(context, source)),
        page_info: page.pageInfo,
      };
    },
  );

  app.get<{ Params: { trigger_id: string }; Querystring: { external_user_id?: string } }>(
    `${base}/deployed-triggers/:trigger_id`,
    {
      schema: {
        operationId: `getConnectDeployedTrigger${suffix}`,
        hide: !withProject,
        summary: "Read one of the end user's deployed triggers",
        tags: ["connect"],
        params: triggerParams(withProject),
        querystring: userQuery,
        response: oneTrigger,
      },
    },
    async (request) => {
      const scope = await scopeOf(request, db);
      const endUser = await endUserOf(request, db, scope, request.query.external_user_id, "require");
      return {
        data: deployedTriggerView(context, await getTrigger(context, endUser, request.params.trigger_id)),
      };
    },
  );

  app.put<{ Params: { trigger_id: string }; Body: WithUser<TriggerUpdateInput> }>(
    `${base}/deployed-triggers/:trigger_id`,
    {
      schema: {
        operationId: `updateConnectDeployedTrigger${suffix}`,
        hide: !withProject,
        summary: "Update a deployed trigger: active, name or configured_props",
        tags: ["connect"],
        params: triggerParams(withProject),
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
      },
    },
    async (request) => {
      const scope = await scopeOf(request, db);
      const endUser = await endUserOf(request, db, scope, request.body.external_user_id, "require");
      const source = await updateTrigger(context, endUser, request.params.trigger_id, request.body);
      return { data: deployedTriggerView(context, source) };
    },
  );

  app.delete<{
    Params: { trigger_id: string };
    Querystring: { external_user_id?: string; ignore_hook_errors?: boolean };
  }>(
    `${base}/deployed-triggers/:trigger_id`,
    {
      schema: {
        operationId: `deleteConnectDeployedTrigger${suffix}`,
        hide: !withProject,
        summary:
          "Delete a deployed trigger and the webhooks made for it (a failing deactivate hook does not stop it)",
        tags: ["connect"],
        params: triggerParams(withProject),
        querystring: {
          type: "object",
          properties: { external_user_id: externalUserId, ignore_hook_errors: { type: "boolean" } },
        },
        response: { 204: { type: "null", description: "deleted" }, ...connectErrors },
      },
    },
    async (request, reply) => {
      const scope = await scopeOf(request, db);
      const endUser = await endUserOf(request, db, scope, request.query.external_user_id, "require");
      await deleteTrigger(context, endUser, request.params.trigger_id);
      return reply.code(204).send();
    },
  );
}

/** What a deployed trigger emitted, and the URLs its events are delivered to. */
function deployedTriggerOutputRoutes(
  app: FastifyInstance,
  context: CoreContext,
  { base, suffix, withProject }: ConnectMount,
): void {
  const { db } = context.store;

  app.get<{ Params: { trigger_id: string }; Querystring: { external_user_id?: string; n?: number } }>(
    `${base}/deployed-triggers/:trigger_id/events`,
    {
      schema: {
        operationId: `listConnectDeployedTriggerEvents${suffix}`,
        hide: !withProject,
        summary: "The deployed trigger's newest events (n, default 20), newest first",
        tags: ["connect"],
        params: triggerParams(withProject),
        querystring: {
          type: "object",
          properties: { external_user_id: externalUserId, n: { type: "integer", minimum: 1, maximum: 100 } },
        },
        response: {
          200: triggerEventsAnswer,
          ...connectErrors,
        },
      },
    },
    async (request) => {
      const scope = await scopeOf(request, db);
      const endUser = await endUserOf(request, db, scope, request.query.external_user_id, "require");
      return { data: await triggerEvents(context, endUser, request.params.trigger_id, request.query.n) };
    },
  );
  app.get<{ Params: { trigger_id: string }; Querystring: { external_user_id?: string } }>(
    `${base}/deployed-triggers/:trigger_id/webhooks`,
    {
      schema: {
        operationId: `listConnectDeployedTriggerWebhooks${suffix}`,
        hide: !withProject,
        summary: "The URLs the deployed trigger's events are delivered to",
        tags: ["connect"],
        params: triggerParams(withProject),
        querystring: userQuery,
        response: { 200: webhooksAnswer, ...connectErrors },
      },
    },
    async (request) => {
      const scope = await scopeOf(request, db);
      const endUser = await endUserOf(request, db, scope, request.query.external_user_id, "require");
      const source = await getTrigger(context, endUser, request.params.trigger_id);
      return webhooksView(await triggerWebhooks(context, endUser, source.id));
    },
  );

  app.put<{ Params: { trigger_id: string }; Body: { external_user_id?: unknown; webhook_urls?: unknown } }>(
    `${base}/deployed-triggers/:trigger_id/webhooks`,
    {
      schema: {
        operationId: `setConnectDeployedTriggerWebhooks${suffix}`,
        hide: !withProject,
        summary:
          "Set the URLs the deployed trigger's events are delivered to; a new URL's signing_key is in this answer only",
        tags: ["connect"],
        params: triggerParams(withProject),
        body: {
          type: "object",
          properties: {
            external_user_id: externalUserId,
            webhook_urls: { type: "array", items: { type: "string", maxLength: 2048 }, maxItems: 10 },
          },
          required: ["webhook_urls"],
        },
        response: { 200: webhooksAnswer, ...connectErrors },
      },
    },
    async (request) => {
      const scope = await scopeOf(request, db);
      const endUser = await endUserOf(request, db, scope, request.body.external_user_id, "require");
      return webhooksView(
        await setTriggerWebhooks(context, endUser, request.params.trigger_id, request.body.webhook_urls),
      );
    },
  );
}

/**
 * The project's apps, `GET /v1/connect/apps` and `/v1/connect/apps/{app_id}`: those registered for
 * the caller's account and those its components use.
 */
import type { FastifyInstance } from "fastify";
import { type AppListRequest, getConnectApp, listConnectApps } from "../../../core/connect/apps.js";
import type { CoreContext } from "../../../core/context.js";
import { dataOf, pageAnswer, pathParams } from "../../schemas.js";
import { connectAppView } from "../../views/connect.js";
import { routeGroup } from "../route-group.js";
import { appSchema, connectPageQuery, connectSchema, pageOfItems } from "./schemas.js";

export function connectAppRoutes(app: FastifyInstance, context: CoreContext): void {
  const route = routeGroup(app, connectSchema);
  route.get<{ Querystring: AppListRequest }>("/apps", {
    operationId: "listConnectApps",
    summary: "List the apps of the caller's account: registered ones and those its components use",
    querystring: {
      type: "object",
      properties: {
        ...connectPageQuery,
        q: { type: "string", maxLength: 200 },
        sort_key: { type: "string", enum: ["name", "name_slug", "featured_weight"] },
        sort_direction: { type: "string", enum: ["asc", "desc"] },
        category_ids: {},
        has_components: { type: "boolean" },
        has_actions: { type: "boolean" },
        has_triggers: { type: "boolean" },
      },
    },
    response: { 200: pageOfItems(appSchema) },
    handler: async (request) =>
      pageAnswer(await listConnectApps(context, request.connect.account.id, request.query), connectAppView),
  });

  route.get<{ Params: { app_id: string } }>("/apps/:app_id", {
    operationId: "getConnectApp",
    summary: "Read an app by name slug (an app nobody registered is an open keys app)",
    params: pathParams({ app_id: { type: "string", maxLength: 200 } }),
    response: { 200: dataOf(appSchema) },
    handler: async (request) => ({
      data: connectAppView(await getConnectApp(context, request.connect.account.id, request.params.app_id)),
    }),
  });
}

/**
 * The project's components: `GET …/components|actions|triggers` (list and one), and their
 * configuration, `POST …/{components|actions|triggers}/configure` (a prop's remote options) and
 * `…/props` (reloaded props, a `dyp_` id), run for the end user in the sandbox. Mounted under
 * `/v1/connect/{project_id}` and, for connect tokens, `/v1/connect`.
 */

import type { FastifyInstance, FastifyRequest } from "fastify";
import {
  type ConfigureInput,
  configureProp,
  reloadComponentProps,
} from "../../../core/components/dynamic-props.js";
import {
  type ComponentListRequest,
  type ConnectComponentType,
  componentForEndUser,
  configurableProp,
  findConnectComponent,
  listConnectComponents,
} from "../../../core/connect/components.js";
import type { CoreContext } from "../../../core/context.js";
import { NotFoundError } from "../../../core/errors.js";
import type { PropDefinition } from "../../../runtime/component-definition.js";
import { dataOf, pageAnswer } from "../../schemas.js";
import { connectComponentView } from "../../views/connect.js";
import { reloadedPropsAnswer, sandboxAnswer } from "../component-schemas.js";
import { routeGroup } from "../route-group.js";
import { endUserOf, scopeOf } from "./connect-auth.js";
import type { ConnectMount, ConnectRoutes } from "./mount.js";
import {
  componentSchema,
  configurablePropSchema,
  connectPageQuery,
  externalUserId,
  looseObject,
  pageOfItems,
} from "./schemas.js";

interface ConnectConfigureInput extends ConfigureInput {
  readonly external_user_id?: unknown;
  readonly version?: unknown;
}

interface Kind {
  readonly path: string;
  readonly name: string;
  readonly type?: ConnectComponentType;
}

const KINDS: readonly Kind[] = [
  { path: "components", name: "Components" },
  { path: "actions", name: "Actions", type: "action" },
  { path: "triggers", name: "Triggers", type: "trigger" },
];

const target = {
  id: { type: "string", maxLength: 400, description: "the component's key" },
  version: { type: "string", maxLength: 100 },
  external_user_id: externalUserId,
  configured_props: { ...looseObject, description: "the props configured so far" },
  dynamic_props_id: { type: "string", maxLength: 200, description: "dyp_…" },
  blocking: { type: "boolean" },
} as const;

/** Registers the component routes at `mount`, for each kind. */
export function componentRoutes(app: FastifyInstance, context: CoreContext, mount: ConnectMount): void {
  const route = routeGroup(app, mount.schema);
  for (const kind of KINDS) {
    componentReadRoutes(route, context, mount, kind);
    componentConfigureRoutes(route, context, mount, kind);
  }
}

/** Listing the project's components of `kind` and reading one. */
function componentReadRoutes(
  route: ConnectRoutes,
  context: CoreContext,
  { base }: ConnectMount,
  kind: Kind,
): void {
  const { db } = context.store;
  route.get<{ Querystring: ComponentListRequest }>(`${base}/${kind.path}`, {
    operationId: `listConnect${kind.name}`,
    summary: `List the project's ${kind.path} (its account's published components and the public registry)`,
    querystring: {
      type: "object",
      properties: {
        ...connectPageQuery,
        q: { type: "string", maxLength: 200 },
        app: { type: "string", maxLength: 200 },
        registry: { type: "string", enum: ["public", "private", "all"] },
        ...(kind.type === undefined
          ? { component_type: { type: "string", enum: ["trigger", "action"] } }
          : {}),
      },
    },
    response: { 200: pageOfItems(componentSchema) },
    handler: async (request) => {
      const { project } = await scopeOf(request, db);
      return pageAnswer(
        await listConnectComponents(context, project.accountId, request.query, kind.type),
        connectComponentView,
      );
    },
  });

  route.get<{ Params: { component_id: string }; Querystring: { version?: string } }>(
    `${base}/${kind.path}/:component_id`,
    {
      operationId: `getConnect${kind.name.slice(0, -1)}`,
      summary: `Read one of the project's ${kind.path} by key, with its configurable_props`,
      params: { component_id: { type: "string", maxLength: 400 } },
      querystring: { type: "object", properties: { version: { type: "string", maxLength: 100 } } },
      response: { 200: dataOf(componentSchema) },
      handler: async (request) => {
        const { project } = await scopeOf(request, db);
        const key = request.params.component_id;
        const component = await findConnectComponent(context, project.accountId, key, request.query.version);
        const type = component.type === "action" ? "action" : "trigger";
        if (kind.type !== undefined && kind.type !== type) throw new NotFoundError(kind.type, key);
        return { data: connectComponentView(component) };
      },
    },
  );
}

/** A prop's remote options and the reloaded props, run for the end user in the sandbox. */
function componentConfigureRoutes(
  route: ConnectRoutes,
  context: CoreContext,
  { base }: ConnectMount,
  kind: Kind,
): void {
  const { db } = context.store;
  // The end user (made on first use) and the component the body names, of `kind`'s type.
  const resolveTarget = async (request: FastifyRequest<{ Body: ConnectConfigureInput }>) => {
    const scope = await scopeOf(request, db);
    const endUser = await endUserOf(request, context.store, scope, request.body.external_user_id, "create");
    const component = await componentForEndUser(
      context,
      scope.project.accountId,
      endUser.accountId,
      request.body.id,
      request.body.version,
      kind.type,
    );
    return { accountId: endUser.accountId, input: { ...request.body, id: component.id } };
  };

  route.post<{ Body: ConnectConfigureInput }>(`${base}/${kind.path}/configure`, {
    operationId: `configureConnect${kind.name.slice(0, -1)}Prop`,
    summary: "Fetch one page of a prop's remote options, run for the end user in the sandbox",
    body: {
      type: "object",
      properties: {
        ...target,
        prop_name: { type: "string", maxLength: 200 },
        query: { type: "string", maxLength: 1000 },
        page: { type: "integer", minimum: 0 },
        prev_context: looseObject,
      },
      required: ["id", "prop_name"],
    },
    response: sandboxAnswer({
      options: { type: ["array", "null"], items: looseObject },
      stringOptions: { type: ["array", "null"], items: { type: "string" } },
      context: { type: ["object", "null"], additionalProperties: true },
    }),
    handler: async (request) => {
      const { accountId, input } = await resolveTarget(request);
      return configureProp(context, accountId, input);
    },
  });

  route.post<{ Body: ConnectConfigureInput }>(`${base}/${kind.path}/props`, {
    operationId: `reloadConnect${kind.name.slice(0, -1)}Props`,
    summary: "Run a component's additionalProps for the end user; answers the props and a dyp_ id",
    body: { type: "object", properties: target, required: ["id"] },
    response: reloadedPropsAnswer(configurablePropSchema),
    handler: async (request) => {
      const { accountId, input } = await resolveTarget(request);
      const answer = await reloadComponentProps(context, accountId, input);
      return {
        ...answer,
        dynamicProps:
          answer.dynamicProps === null
            ? null
            : {
                id: answer.dynamicProps.id,
                configurableProps: (answer.dynamicProps.configurableProps as PropDefinition[]).map(
                  configurableProp,
                ),
              },
      };
    },
  });
}

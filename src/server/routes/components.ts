/** /v1/components: save a component from code or a URL, and read it back by id or key. */
import type { FastifyInstance } from "fastify";
import { componentForKey } from "../../core/components/lookup.js";
import {
  type ComponentInput,
  getComponent,
  listComponents,
  type SavedComponent,
  saveComponent,
} from "../../core/components/saved-components.js";
import type { CoreContext } from "../../core/context.js";
import type { PageRequest } from "../../core/pagination.js";
import { dataOf, epochSeconds, pageAnswer, pageOf, pageQuery, pathParams } from "../schemas.js";
import { componentSchema, componentSummarySchema } from "./component-schemas.js";
import { routeGroup } from "./route-group.js";

export function componentView(component: SavedComponent) {
  return {
    id: component.id,
    code: component.code,
    code_hash: component.codeHash,
    name: component.name,
    key: component.key,
    version: component.version,
    type: component.type,
    description: component.description,
    configurable_props: component.definition.props,
    has_additional_props: component.definition.hasAdditionalProps,
    dedupe: component.definition.dedupe ?? null,
    lock: component.lock,
    created_at: epochSeconds(component.createdAt),
  };
}

export function componentRoutes(app: FastifyInstance, context: CoreContext): void {
  const route = routeGroup(app, "components");
  route.post<{ Body: ComponentInput & { key?: string } }>("/components", {
    operationId: "saveComponent",
    summary:
      "Save a component (compile it and describe its props), or take one by key: the account's own, else the public registry's (copied into the account)",
    body: {
      type: "object",
      properties: {
        component_code: { type: "string", description: "the component's source code" },
        component_url: { type: "string", description: "an http(s) URL to the code" },
        filename: { type: "string", description: "the file name, for TypeScript (.ts) and messages" },
        key: {
          type: "string",
          maxLength: 400,
          description:
            "instead of code: key or key@version, the account's own first, then the public registry",
        },
      },
    },
    response: { 200: dataOf(componentSchema) },
    handler: async (request) => {
      const { key, ...input } = request.body ?? {};
      const component =
        typeof key === "string" &&
        key !== "" &&
        input.component_code === undefined &&
        input.component_url === undefined
          ? await componentForKey(context, request.account.id, key, { savedKeys: true })
          : await saveComponent(context, request.account.id, input);
      return { data: componentView(component) };
    },
  });

  route.get<{ Querystring: PageRequest }>("/users/me/components", {
    operationId: "listSavedComponents",
    summary: "List the account's saved components, newest first (without their code)",
    querystring: pageQuery,
    response: { 200: pageOf(componentSummarySchema) },
    handler: async (request) => {
      return pageAnswer(await listComponents(context, request.account.id, request.query), (component) => {
        const { code: _code, ...summary } = componentView(component);
        return summary;
      });
    },
  });

  route.get<{ Params: { key: string } }>("/components/:key", {
    operationId: "getSavedComponent",
    summary: "Read a saved component by sc_ id or by key (the newest saved under it)",
    params: pathParams({ key: { type: "string", maxLength: 300 } }),
    response: { 200: dataOf(componentSchema) },
    handler: async (request) => ({
      data: componentView(await getComponent(context, request.account.id, request.params.key)),
    }),
  });
}

/**
 * A group of routes, each declared as its method, URL, the schema parts the OpenAPI document shows,
 * its route config and its handler. The group's `schemaOf` makes the route's whole schema from its
 * parts (its tag and the errors every route of the group may give, or a Connect mount's project).
 */
import type {
  FastifyContextConfig,
  FastifyInstance,
  FastifySchema,
  HTTPMethods,
  RawReplyDefaultExpression,
  RawRequestDefaultExpression,
  RawServerDefault,
  RouteGenericInterface,
  RouteHandlerMethod,
} from "fastify";
import { type OperationParts, operationsOf } from "../schemas.js";

/** One route: the parts its group's `schemaOf` takes, with its config and handler. */
export type RouteSpec<Parts, Route extends RouteGenericInterface> = Parts & {
  /** Route config, such as `public: true` for a route answered without an API key. */
  readonly config?: FastifyContextConfig;
  readonly handler: RouteHandlerMethod<
    RawServerDefault,
    RawRequestDefaultExpression,
    RawReplyDefaultExpression,
    Route
  >;
};

type AddRoute<Parts> = <Route extends RouteGenericInterface = RouteGenericInterface>(
  url: string,
  spec: RouteSpec<Parts, Route>,
) => void;

/** Adds a route of the group by its method. */
export interface RouteGroup<Parts> {
  readonly get: AddRoute<Parts>;
  readonly post: AddRoute<Parts>;
  readonly put: AddRoute<Parts>;
  readonly patch: AddRoute<Parts>;
  readonly delete: AddRoute<Parts>;
}

/** The routes of a group tagged in the OpenAPI document, as `routeGroup(app, tag)` makes it. */
export type TaggedRoutes = RouteGroup<OperationParts>;

/**
 * Registers routes on `app`, each with the schema `schemaOf` makes from its parts; a tag stands for
 * `operationsOf(tag)`, the tag's routes answering the errors every authenticated route may give.
 */
export function routeGroup(app: FastifyInstance, tag: string): TaggedRoutes;
export function routeGroup<Parts>(
  app: FastifyInstance,
  schemaOf: (parts: Parts) => FastifySchema,
): RouteGroup<Parts>;
export function routeGroup<Parts>(
  app: FastifyInstance,
  tagOrSchemaOf: string | ((parts: Parts) => FastifySchema),
): RouteGroup<Parts> {
  const schemaOf =
    typeof tagOrSchemaOf === "string"
      ? (operationsOf(tagOrSchemaOf) as (parts: Parts) => FastifySchema)
      : tagOrSchemaOf;
  const add =
    (method: HTTPMethods): AddRoute<Parts> =>
    (url, { config, handler, ...parts }) => {
      app.route({
        method,
        url,
        ...(config === undefined ? {} : { config }),
        schema: schemaOf(parts as Parts),
        handler,
      });
    };
  return { get: add("GET"), post: add("POST"), put: add("PUT"), patch: add("PATCH"), delete: add("DELETE") };
}

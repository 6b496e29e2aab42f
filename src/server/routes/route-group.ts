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

/** Registers routes on `app`, each with the schema `schemaOf` makes from its parts. */
export function routeGroup<Parts>(app: FastifyInstance, schemaOf: (parts: Parts) => FastifySchema) {
  const add =
    (method: HTTPMethods) =>
    <Route extends RouteGenericInterface = RouteGenericInterface>(
      url: string,
      { config, handler, ...parts }: RouteSpec<Parts, Route>,
    ): void => {
      app.route<Route>({
        method,
        url,
        ...(config === undefined ? {} : { config }),
        schema: schemaOf(parts as Parts),
        handler,
      });
    };
  return { get: add("GET"), post: add("POST"), put: add("PUT"), patch: add("PATCH"), delete: add("DELETE") };
}

/**
 * The routes the app registers, as Fastify's onRoute hook sees them: every method and URL,
 * including those hidden from the OpenAPI document (source endpoints, /metrics) and the HEAD
 * routes Fastify adds for GETs. The property suite reads it to prove it covers every route.
 */
import type { FastifyInstance } from "fastify";

export interface RegisteredRoute {
  /** One method, or several for a route registered with `all`. */
  readonly methods: readonly string[];
  /** Fastify's syntax: `/v1/webhooks/:id`, `/e/:endpointId/*`. */
  readonly url: string;
  /** Answered without an API key (route config `public: true`). */
  readonly public: boolean;
}

declare module "fastify" {
  interface FastifyInstance {
    /** Filled as routes are added; complete once the app is ready. */
    readonly registeredRoutes: readonly RegisteredRoute[];
  }
}

/** Install before any route is added: the hook sees only routes registered after it. */
export function installRouteList(app: FastifyInstance): void {
  const routes: RegisteredRoute[] = [];
  app.decorate("registeredRoutes", routes);
  app.addHook("onRoute", (route) => {
    routes.push({
      methods: [route.method].flat(),
      url: route.url ?? route.path,
      public: route.config?.public === true,
    });
  });
}

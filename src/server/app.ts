/**
 * The HTTP application: plugins in the order a request meets them (body parsing, rate limit,
 * authentication, validation), then the /v1 routes. It holds no state of its own; everything
 * lives in the store it is given.
 */
import swagger from "@fastify/swagger";
import Fastify, { type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { ServerConfig } from "../config/server-config.js";
import type { SecretBox } from "../core/secret-box.js";
import type { Store } from "../store/store.js";
import { installAuth } from "./plugins/auth.js";
import { installErrorHandling, sendError } from "./plugins/errors.js";
import { installJsonBody } from "./plugins/json-body.js";
import { installRateLimit } from "./plugins/rate-limit.js";
import { accountRoutes } from "./routes/accounts.js";
import { healthRoutes } from "./routes/health.js";
import { webhookRoutes } from "./routes/webhooks.js";

export interface AppDependencies {
  readonly config: ServerConfig;
  readonly store: Store;
  readonly secrets: SecretBox;
  readonly logger: Logger;
}

export async function buildApp({
  config,
  store,
  secrets,
  logger,
}: AppDependencies): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: logger,
    bodyLimit: config.bodyLimitBytes,
    // Idle keep-alive sockets close at shutdown; requests in flight finish first.
    forceCloseConnections: "idle",
    // Long ids reach the route and get a plain 404, instead of the router's own error.
    routerOptions: { maxParamLength: 1000 },
    // Errors raised before routing (a malformed URL, say) get the same JSON shape as all others.
    frameworkErrors: (error, _request, reply) => {
      const status = error.statusCode !== undefined && error.statusCode < 500 ? error.statusCode : 400;
      sendError(reply, status, "invalid_request", error.message);
    },
    ajv: { customOptions: { coerceTypes: "array", removeAdditional: false, useDefaults: true } },
  }) as unknown as FastifyInstance;

  installErrorHandling(app, config.bodyLimitBytes);
  installJsonBody(app);
  await installRateLimit(app, config.rateLimitPerMinute);
  installAuth(app, store.db);

  await app.register(swagger, {
    openapi: {
      info: {
        title: "Sluice REST API",
        version: "1",
        description:
          "Pipedream-compatible /v1 API. Parameters may be sent in the query string or as a JSON body. " +
          "Errors are {error:{code,message}}.",
      },
      servers: [{ url: config.baseUrl }],
      components: { securitySchemes: { bearer: { type: "http", scheme: "bearer" } } },
      security: [{ bearer: [] }],
    },
  });

  healthRoutes(app, () => store.ping());
  await app.register(
    async (v1) => {
      v1.get("/openapi.json", { config: { public: true }, schema: { hide: true } }, async () =>
        app.swagger(),
      );
      accountRoutes(v1, store.db);
      webhookRoutes(v1, store.db, secrets);
    },
    { prefix: "/v1" },
  );
  return app;
}

/**
 * The HTTP application: plugins in the order a request meets them (body parsing, rate limit,
 * authentication, validation), then the /v1 routes. It holds no state of its own; everything
 * lives in the store it is given.
 */
import swagger from "@fastify/swagger";
import Fastify, { type FastifyInstance } from "fastify";
import type { Logger } from "pino";
import type { ServerConfig } from "../config/server-config.js";
import type { CoreContext } from "../core/context.js";
import type { Metrics } from "../core/metrics.js";
import type { WorkflowRunner } from "../core/workflows/run-worker.js";
import { RequestLog } from "./console-log.js";
import { endpointRoutes } from "./endpoints.js";
import { flowUrlRoutes } from "./flow-urls.js";
import { installAuth } from "./plugins/auth.js";
import { installBodylessDrain } from "./plugins/bodyless-drain.js";
import { answerClientError, installErrorHandling, sendError } from "./plugins/errors.js";
import { installJsonBody, installNulGuard } from "./plugins/json-body.js";
import { installRateLimit } from "./plugins/rate-limit.js";
import { installRouteList } from "./plugins/route-list.js";
import { accountRoutes } from "./routes/accounts.js";
import { actionRoutes } from "./routes/actions.js";
import { appRoutes } from "./routes/apps.js";
import { componentRoutes } from "./routes/components.js";
import { connectPageRoute } from "./routes/connect/connect-page.js";
import { connectRoutes } from "./routes/connect/index.js";
import { oauthRoutes } from "./routes/connect/oauth.js";
import { connectedAccountRoutes } from "./routes/connected-accounts.js";
import { dataStoreRoutes } from "./routes/data-stores.js";
import { deliveryRoutes } from "./routes/deliveries.js";
import { dynamicPropsRoutes } from "./routes/dynamic-props.js";
import { eventRoutes } from "./routes/events.js";
import { healthRoutes } from "./routes/health.js";
import { oauthConnectionRoutes } from "./routes/oauth-connections.js";
import { registryRoutes } from "./routes/registry.js";
import { registryImportRoutes } from "./routes/registry-imports.js";
import { sessionRoutes } from "./routes/sessions.js";
import { sourceRoutes } from "./routes/sources.js";
import { subscriptionRoutes } from "./routes/subscriptions.js";
import { webhookRoutes } from "./routes/webhooks.js";
import { workflowRoutes } from "./routes/workflows.js";
import { sseRoutes } from "./sse.js";
import { installUi } from "./ui.js";

export interface AppDependencies {
  readonly config: ServerConfig;
  readonly core: CoreContext;
  readonly metrics: Metrics;
  readonly logger: Logger;
  readonly workflows: WorkflowRunner;
  /** Log each request as a line of text (the human console log) rather than a JSON record. */
  readonly requestLine?: boolean;
}

export async function buildApp({
  config,
  core,
  metrics,
  logger,
  workflows,
  requestLine = false,
}: AppDependencies): Promise<FastifyInstance> {
  const { store, secrets } = core;
  const app = Fastify({
    loggerInstance: logger,
    logController: new RequestLog(requestLine),
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
    // Requests the HTTP parser refuses (bad bytes in the URL, a head over 16 KB): the same JSON shape.
    clientErrorHandler: answerClientError,
    ajv: { customOptions: { coerceTypes: "array", removeAdditional: false, useDefaults: true } },
  }) as unknown as FastifyInstance;

  installRouteList(app);
  const uiFallback = await installUi(app);
  installErrorHandling(app, config.bodyLimitBytes, uiFallback);
  installBodylessDrain(app, config.bodyLimitBytes);
  await installRateLimit(app, config.rateLimitPerMinute);
  installAuth(app, store.db);

  await app.register(swagger, {
    openapi: {
      info: {
        title: "Sluice REST API",
        version: "1",
        license: { name: "MIT", url: "https://opensource.org/licenses/MIT" },
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
  app.get(
    "/metrics",
    { config: { public: true, rateLimit: false }, schema: { hide: true } },
    async (_request, reply) =>
      reply.type(metrics.registry.contentType).send(await metrics.registry.metrics()),
  );
  await app.register(
    async (v1) => {
      installJsonBody(v1);
      v1.get("/openapi.json", { config: { public: true }, schema: { hide: true } }, async () =>
        app.swagger(),
      );
      accountRoutes(v1, store);
      sessionRoutes(v1, store.db, config.baseUrl);
      webhookRoutes(v1, store, secrets);
      componentRoutes(v1, core);
      registryRoutes(v1, core);
      registryImportRoutes(v1, core);
      sourceRoutes(v1, core);
      eventRoutes(v1, core);
      subscriptionRoutes(v1, store.db);
      deliveryRoutes(v1, store);
      actionRoutes(v1, core);
      workflowRoutes(v1, core);
      appRoutes(v1, core);
      connectedAccountRoutes(v1, core);
      oauthConnectionRoutes(v1, core);
      dynamicPropsRoutes(v1, core);
      dataStoreRoutes(v1, core);
      oauthRoutes(v1, store.db, config.accessTokenSeconds);
      await v1.register((connect) => connectRoutes(connect, core), { prefix: "/connect" });
    },
    { prefix: "/v1" },
  );
  await app.register(async (streams) => {
    installNulGuard(streams);
    sseRoutes(streams, core);
  });
  connectPageRoute(app);
  endpointRoutes(app, core, workflows, config.endpointBodyLimitBytes);
  flowUrlRoutes(app, core);
  return app;
}

/**
 * Liveness (/health: the process answers) and readiness (/ready: its database answers too, and the
 * node is not draining). A node drains from SIGTERM until it exits: /ready answers 503 `draining`
 * from the first moment, so a load balancer that polls it sends new traffic elsewhere.
 */
import type { FastifyInstance } from "fastify";
import { isDraining } from "../drain.js";
import { sendError } from "../plugins/errors.js";
import { errorResponse } from "../schemas.js";

const statusSchema = { type: "object", properties: { status: { type: "string" } } } as const;

export function healthRoutes(app: FastifyInstance, ping: () => Promise<void>): void {
  const config = { public: true, rateLimit: false } as const;
  app.get(
    "/health",
    {
      config,
      schema: {
        operationId: "checkHealth",
        summary: "Liveness: the process answers",
        tags: ["health"],
        response: { 200: statusSchema },
      },
    },
    async () => ({ status: "ok" }),
  );

  app.get(
    "/ready",
    {
      config,
      schema: {
        operationId: "checkReadiness",
        summary: "Readiness: the process and its database answer, and the node is not shutting down",
        tags: ["health"],
        response: { 200: statusSchema, 503: errorResponse },
      },
    },
    async (request, reply) => {
      if (isDraining(app.server))
        return sendError(
          reply,
          503,
          "draining",
          "This node is shutting down (SIGTERM): it finishes its work in flight and takes no more",
        );
      try {
        await ping();
        return { status: "ready" };
      } catch (error) {
        request.log.warn({ err: error }, "readiness check failed");
        return sendError(reply, 503, "database_unavailable", "The database does not answer");
      }
    },
  );
}

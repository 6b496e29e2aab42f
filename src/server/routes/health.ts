/** Liveness (/health: the process answers) and readiness (/ready: its database answers too). */
import type { FastifyInstance } from "fastify";
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
        summary: "Readiness: the process and its database answer",
        tags: ["health"],
        response: { 200: statusSchema, 503: errorResponse },
      },
    },
    async (request, reply) => {
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

/**
 * A per-key request budget (SLUICE_RATE_LIMIT requests a minute), counted on each node. Requests
 * without a key are counted per client address. Over budget: 429 with Retry-After. Health checks
 * opt out with the route config `rateLimit: false`.
 */
import { createHash } from "node:crypto";
import rateLimit from "@fastify/rate-limit";
import type { FastifyInstance } from "fastify";
import { RateLimitedError } from "../../core/errors.js";
import { bearerToken } from "./auth.js";

export async function installRateLimit(app: FastifyInstance, perMinute: number): Promise<void> {
  await app.register(rateLimit, {
    global: true,
    max: perMinute,
    timeWindow: 60_000,
    // Counted by a digest of the key, so the limiter's memory holds no usable credential.
    keyGenerator: (request) => {
      const token = bearerToken(request);
      return token === undefined
        ? `ip:${request.ip}`
        : `key:${createHash("sha256").update(token).digest("base64url")}`;
    },
    errorResponseBuilder: (_request, context) => {
      const seconds = Math.max(1, Math.ceil(context.ttl / 1000));
      return new RateLimitedError(
        `Rate limit of ${context.max} requests a minute exceeded; retry in ${seconds} s`,
        seconds,
      );
    },
  });
}

/**
 * Bearer-key authentication. Every route needs a key unless its config says `public: true`.
 * The authenticated account is `request.account`; routes scope every query to it, so another
 * account's resources are invisible.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { type Account, authenticate } from "../../core/accounts.js";
import { ForbiddenError, UnauthenticatedError } from "../../core/errors.js";
import type { Executor } from "../../store/schema.js";

declare module "fastify" {
  interface FastifyRequest {
    account: Account;
    apiKeyId: string;
  }
  interface FastifyContextConfig {
    /** No API key needed (health checks, the OpenAPI document, source endpoints). */
    public?: boolean;
  }
}

/** The bearer token of a request, or undefined when there is none. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== "string") return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

export function installAuth(app: FastifyInstance, db: Executor): void {
  app.decorateRequest("account", null as unknown as Account);
  app.decorateRequest("apiKeyId", "");
  app.addHook("onRequest", async (request) => {
    if (request.is404 || request.routeOptions.config.public) return;
    const token = bearerToken(request);
    if (token === undefined) {
      throw new UnauthenticatedError("Missing API key: send the header 'Authorization: Bearer <api key>'");
    }
    const authenticated = await authenticate(db, token);
    if (!authenticated) throw new UnauthenticatedError("The API key is not valid or has been revoked");
    request.account = authenticated.account;
    request.apiKeyId = authenticated.keyId;
  });
}

export function requireAdmin(request: FastifyRequest): void {
  if (!request.account.isAdmin) {
    throw new ForbiddenError("Only an admin account's key can do this", "admin_required");
  }
}

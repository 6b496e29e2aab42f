/**
 * Authentication: a bearer API key or the web UI's session cookie, unless a route is `public: true`;
 * `request.account` scopes every query. A cookie request that changes state must carry
 * `x-sluice-csrf` and a same Origin: with SameSite=Strict, three independent CSRF defences.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { type Account, authenticate } from "../../core/accounts/accounts.js";
import { authenticateSession } from "../../core/accounts/sessions.js";
import { ForbiddenError, UnauthenticatedError } from "../../core/errors.js";
import type { Executor } from "../../store/schema.js";

declare module "fastify" {
  interface FastifyRequest {
    account: Account;
    apiKeyId: string;
    /** True when the request was authenticated by the UI's session cookie, not a bearer key. */
    viaSession: boolean;
  }
  interface FastifyContextConfig {
    /** No API key needed (health checks, the OpenAPI document, source endpoints). */
    public?: boolean;
    /** The route's scope authenticates requests itself (the Connect API: access and connect tokens too). */
    ownAuth?: boolean;
  }
}

export const SESSION_COOKIE = "sluice_session";
export const CSRF_HEADER = "x-sluice-csrf";
const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** The bearer token of a request, or undefined when there is none. */
export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (typeof header !== "string") return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1];
}

/** The UI session token of a request's cookie, or undefined. */
export function sessionToken(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (typeof header !== "string") return undefined;
  for (const part of header.split(";")) {
    const separator = part.indexOf("=");
    if (separator < 0) continue;
    if (part.slice(0, separator).trim() === SESSION_COOKIE) {
      const value = part.slice(separator + 1).trim();
      return value === "" ? undefined : value;
    }
  }
  return undefined;
}

function checkCsrf(request: FastifyRequest): void {
  if (SAFE_METHODS.has(request.method)) return;
  if (request.headers[CSRF_HEADER] === undefined) {
    throw new ForbiddenError(
      `A request authenticated by the session cookie must send the '${CSRF_HEADER}' header`,
      "csrf_check_failed",
    );
  }
  const origin = request.headers.origin;
  if (typeof origin === "string" && origin !== "null") {
    let host: string | undefined;
    try {
      host = new URL(origin).host;
    } catch {
      host = undefined;
    }
    if (host !== request.headers.host) {
      throw new ForbiddenError(
        `Requests from ${origin} may not use this server's session`,
        "csrf_check_failed",
      );
    }
  }
}

export function installAuth(app: FastifyInstance, db: Executor): void {
  app.decorateRequest("account", null as unknown as Account);
  app.decorateRequest("apiKeyId", "");
  app.decorateRequest("viaSession", false);
  app.addHook("onRequest", async (request) => {
    const { config } = request.routeOptions;
    if (request.is404 || config.public || config.ownAuth) return;
    const token = bearerToken(request);
    if (token === undefined) {
      const session = sessionToken(request);
      if (session === undefined) {
        throw new UnauthenticatedError("Missing API key: send the header 'Authorization: Bearer <api key>'");
      }
      const signedIn = await authenticateSession(db, session);
      if (!signedIn) {
        throw new UnauthenticatedError("The session has ended (signed out, expired, or its API key revoked)");
      }
      checkCsrf(request);
      request.account = signedIn.account;
      request.apiKeyId = signedIn.keyId;
      request.viaSession = true;
      return;
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

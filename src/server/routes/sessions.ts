/**
 * /v1/sessions: the web UI's sign-in and sign-out. Signing in with an API key sets an httpOnly,
 * SameSite=Strict cookie holding a session token (never the key); signing out deletes the session
 * on the server, so the cookie is worthless even if it was copied.
 */
import type { FastifyInstance, FastifyReply } from "fastify";
import { closeSession, openSession, SESSION_LIFETIME_MS } from "../../core/accounts/sessions.js";
import { UnauthenticatedError } from "../../core/errors.js";
import type { Executor } from "../../store/schema.js";
import { SESSION_COOKIE, sessionToken } from "../plugins/auth.js";
import { dataOf } from "../schemas.js";
import { accountSchema, accountView } from "./accounts.js";
import { routeGroup } from "./route-group.js";

function setSessionCookie(reply: FastifyReply, value: string, maxAgeSeconds: number, secure: boolean): void {
  const attributes = [`${SESSION_COOKIE}=${value}`, "Path=/", "HttpOnly", "SameSite=Strict"];
  attributes.push(`Max-Age=${maxAgeSeconds}`);
  if (secure) attributes.push("Secure");
  reply.header("set-cookie", attributes.join("; "));
}

export function sessionRoutes(app: FastifyInstance, db: Executor, baseUrl: string): void {
  const route = routeGroup(app, "sessions");
  const secure = baseUrl.startsWith("https:");

  route.post<{ Body: { api_key: string } }>("/sessions", {
    operationId: "createSession",
    summary: "Sign in to the web UI with an API key; sets the session cookie",
    security: [],
    body: {
      type: "object",
      required: ["api_key"],
      properties: { api_key: { type: "string", minLength: 1, maxLength: 1000 } },
    },
    response: { 200: dataOf(accountSchema) },
    config: { public: true },
    handler: async (request, reply) => {
      const session = await openSession(db, request.body.api_key.trim());
      if (!session) throw new UnauthenticatedError("This API key is not valid or has been revoked");
      setSessionCookie(reply, session.token, Math.floor(SESSION_LIFETIME_MS / 1000), secure);
      return { data: accountView(session.account) };
    },
  });

  route.delete("/sessions/current", {
    operationId: "deleteCurrentSession",
    summary: "Sign out of the web UI: ends the session on the server and clears the cookie",
    response: { 204: { type: "null" } },
    handler: async (request, reply) => {
      const token = sessionToken(request);
      if (token !== undefined) await closeSession(db, token);
      setSessionCookie(reply, "", 0, secure);
      return reply.code(204).send();
    },
  });
}

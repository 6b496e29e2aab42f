/**
 * Who calls the Connect API, for which project, environment and end user: an access token or API
 * key (server-side, for its account), or a connect token (one end user's browser). No session
 * cookie, so no CSRF defence; CORS is open, since a response needs a bearer credential the page holds.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";
import { type Account, authenticate } from "../../../core/accounts/accounts.js";
import {
  authenticateConnectToken,
  CONNECT_TOKEN_PREFIX,
  type ConnectTokenGrant,
} from "../../../core/connect/connect-tokens.js";
import {
  checkExternalUserId,
  ENVIRONMENTS,
  type EndUser,
  type Environment,
  ensureEndUser,
  findEndUser,
  requireEndUser,
} from "../../../core/connect/end-users.js";
import { ACCESS_TOKEN_PREFIX, authenticateAccessToken } from "../../../core/connect/oauth-clients.js";
import { getProject, type Project } from "../../../core/connect/projects.js";
import {
  ForbiddenError,
  InvalidInputError,
  NotFoundError,
  UnauthenticatedError,
} from "../../../core/errors.js";
import type { Executor } from "../../../store/schema.js";
import type { Store } from "../../../store/store.js";
import { bearerToken } from "../../plugins/auth.js";

export interface ConnectCaller {
  /** The account the credential acts for: the project owner. */
  readonly account: Account;
  readonly via: "api_key" | "oauth" | "connect_token";
  /** Set for a connect token. */
  readonly grant: ConnectTokenGrant | null;
}

declare module "fastify" {
  interface FastifyRequest {
    connect: ConnectCaller;
  }
}

const ENVIRONMENT_HEADER = "x-pd-environment";

/** Authenticates every route of the scope but its public ones (the global API-key check leaves them). */
export function installConnectAuth(scope: FastifyInstance, db: Executor): void {
  scope.decorateRequest("connect", null as unknown as ConnectCaller);
  scope.addHook("onRoute", (route) => {
    route.config = { ...route.config, ownAuth: true };
  });
  scope.addHook("onRequest", async (request, reply) => {
    if (request.is404 || request.method === "OPTIONS") return;
    const origin = request.headers.origin;
    if (typeof origin === "string" && origin !== "") {
      reply.header("access-control-allow-origin", origin);
      reply.header("vary", "Origin");
    }
    if (request.routeOptions.config.public) return;
    const token = bearerToken(request);
    if (token === undefined) {
      throw new UnauthenticatedError(
        "Missing credentials: send 'Authorization: Bearer <token>' with an access token (POST /v1/oauth/token), an API key, or a connect token",
      );
    }
    if (token.startsWith(CONNECT_TOKEN_PREFIX)) {
      const grant = await authenticateConnectToken(db, token);
      checkOrigin(request, grant);
      const owner = await db
        .selectFrom("accounts")
        .select(["id", "name", "is_admin", "created_at"])
        .where("id", "=", grant.ownerAccountId)
        .executeTakeFirstOrThrow();
      request.connect = {
        account: {
          id: owner.id,
          name: owner.name,
          isAdmin: owner.is_admin === 1,
          createdAt: Number(owner.created_at),
        },
        via: "connect_token",
        grant,
      };
      return;
    }
    if (token.startsWith(ACCESS_TOKEN_PREFIX)) {
      const account = await authenticateAccessToken(db, token);
      if (!account) {
        throw new UnauthenticatedError(
          "The access token is not valid or has expired: get a new one from POST /v1/oauth/token",
        );
      }
      request.connect = { account, via: "oauth", grant: null };
      return;
    }
    const authenticated = await authenticate(db, token);
    if (!authenticated) throw new UnauthenticatedError("The API key is not valid or has been revoked");
    request.connect = { account: authenticated.account, via: "api_key", grant: null };
  });
}

/** A browser may use a connect token from its allowed origins (any origin when it names none). */
function checkOrigin(request: FastifyRequest, grant: ConnectTokenGrant): void {
  const origin = request.headers.origin;
  if (typeof origin !== "string" || origin === "" || grant.allowedOrigins === null) return;
  // The connect link page is served by this server: its own origin is always allowed.
  let host: string | undefined;
  try {
    host = new URL(origin).host;
  } catch {
    host = undefined;
  }
  if (host !== undefined && host === request.headers.host) return;
  if (!grant.allowedOrigins.includes(origin)) {
    throw new ForbiddenError(
      `The connect token may not be used from ${origin}: it was made for ${grant.allowedOrigins.join(", ")}`,
      "origin_not_allowed",
    );
  }
}

/** Answers CORS preflights of the Connect routes: the actual request then proves its token. */
export function installConnectPreflight(scope: FastifyInstance): void {
  scope.options(
    "/*",
    { config: { public: true, rateLimit: false }, schema: { hide: true } },
    async (request, reply) => {
      const origin = request.headers.origin;
      if (typeof origin === "string" && origin !== "") {
        reply.header("access-control-allow-origin", origin);
        reply.header("vary", "Origin");
      }
      const asked = request.headers["access-control-request-headers"];
      reply
        .header("access-control-allow-methods", "GET, POST, PUT, PATCH, DELETE")
        .header(
          "access-control-allow-headers",
          typeof asked === "string" && asked !== "" ? asked : "authorization, content-type, x-pd-environment",
        )
        .header("access-control-max-age", "600");
      return reply.code(204).send();
    },
  );
}

/** Where a request acts: its project (owned by the caller's account) and environment. */
export interface ConnectScope {
  readonly project: Project;
  readonly environment: Environment;
}

export async function scopeOf(request: FastifyRequest, db: Executor): Promise<ConnectScope> {
  const caller = request.connect;
  const pathProject = (request.params as { project_id?: string }).project_id;
  if (caller.grant) {
    if (pathProject !== undefined && pathProject !== caller.grant.projectId) {
      throw new NotFoundError("project", pathProject);
    }
    return {
      project: await getProject(db, caller.grant.ownerAccountId, caller.grant.projectId),
      environment: caller.grant.environment,
    };
  }
  if (pathProject === undefined) {
    throw new InvalidInputError(
      "This call needs a project: use /v1/connect/{project_id}/… (only a connect token names its project itself)",
      "project_required",
    );
  }
  return {
    project: await getProject(db, caller.account.id, pathProject),
    environment: environmentOf(request),
  };
}

/** The `x-pd-environment` header: production (the default) or development. */
export function environmentOf(request: FastifyRequest): Environment {
  const header = request.headers[ENVIRONMENT_HEADER];
  if (header === undefined || header === "") return "production";
  const value = Array.isArray(header) ? header[0] : header;
  if (!ENVIRONMENTS.includes(value as Environment)) {
    throw new InvalidInputError(
      `The ${ENVIRONMENT_HEADER} header must be production or development`,
      "invalid_environment",
    );
  }
  return value as Environment;
}

/** How a route treats a missing end user: make it (writes), 404 (reads of its things). */
export type EndUserMode = "create" | "require";

/**
 * The end user a request names with `external_user_id` (400 when missing). A connect token is
 * for one end user: naming another is refused.
 */
export async function endUserOf(
  request: FastifyRequest,
  store: Store,
  scope: ConnectScope,
  given: unknown,
  mode: EndUserMode,
): Promise<EndUser> {
  const grant = request.connect.grant;
  if (grant) {
    checkTokenUser(grant, given);
    return grant.endUser;
  }
  const externalUserId = checkExternalUserId(given);
  return mode === "create"
    ? ensureEndUser(store, scope.project, scope.environment, externalUserId)
    : requireEndUser(store.db, scope.project, scope.environment, externalUserId);
}

/** Like endUserOf, but an absent `external_user_id` means every end user (null); an unknown one, none. */
export async function optionalEndUserOf(
  request: FastifyRequest,
  db: Executor,
  scope: ConnectScope,
  given: unknown,
): Promise<EndUser | null | "none"> {
  const grant = request.connect.grant;
  if (grant) {
    checkTokenUser(grant, given);
    return grant.endUser;
  }
  if (given === undefined || given === null || given === "") return null;
  const endUser = await findEndUser(db, scope.project, scope.environment, checkExternalUserId(given));
  return endUser ?? "none";
}

function checkTokenUser(grant: ConnectTokenGrant, given: unknown): void {
  if (given !== undefined && given !== null && given !== "" && given !== grant.endUser.externalUserId) {
    throw new ForbiddenError(
      "The connect token is for another end user than the external_user_id given",
      "end_user_mismatch",
    );
  }
}

/** Server-side callers only: a connect token never sees credentials or manages the project. */
export function requireServerSide(request: FastifyRequest, what: string): void {
  if (request.connect.via === "connect_token") {
    throw new ForbiddenError(`A connect token cannot ${what}: call from your server`, "server_side_only");
  }
}

/**
 * The connect token of a request that connects an account: the bearer's, or the body's
 * `connect_token` (a server-side caller). It must be of the request's project and environment,
 * and name the body's `external_user_id` if one is given.
 */
export async function connectTokenGrantOf(
  db: Executor,
  bearer: ConnectTokenGrant | null,
  scope: ConnectScope,
  body: { readonly connect_token?: unknown; readonly external_user_id?: unknown },
): Promise<ConnectTokenGrant> {
  const given = body.connect_token;
  let grant: ConnectTokenGrant;
  if (bearer) {
    // The page sends its token both ways; a different one in the body is a mistake worth saying.
    if (typeof given === "string" && given !== "") {
      const other = await authenticateConnectToken(db, given);
      if (other.tokenHash !== bearer.tokenHash) {
        throw new InvalidInputError("connect_token differs from the bearer connect token", "invalid_request");
      }
    }
    grant = bearer;
  } else if (typeof given !== "string" || given === "") {
    throw new InvalidInputError(
      "connect_token is required: the end user's connect token (POST /v1/connect/{project_id}/tokens)",
      "missing_connect_token",
    );
  } else {
    grant = await authenticateConnectToken(db, given);
  }
  if (grant.projectId !== scope.project.id || grant.environment !== scope.environment) {
    throw new NotFoundError("project", grant.projectId);
  }
  if (body.external_user_id !== undefined && body.external_user_id !== grant.endUser.externalUserId) {
    throw new InvalidInputError("external_user_id is not the connect token's end user", "end_user_mismatch");
  }
  return grant;
}

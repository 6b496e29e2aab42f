/**
 * Connected accounts of a project's end users: `…/accounts` (list, one, delete, and create from the
 * connect link page's keys form, with the connect token), `…/users/{external_user_id}/accounts`
 * and `DELETE …/users/{external_user_id}` (the end user and all it owns). Credentials only for a
 * server-side caller that asks.
 */
import type { FastifyInstance } from "fastify";
import { deleteConnectedAccount } from "../../../core/apps/connected-accounts.js";
import {
  type AccountListRequest,
  connectKeysAccount,
  deleteConnectAccount,
  getConnectAccount,
  type KeysAccountInput,
  listConnectAccounts,
} from "../../../core/connect/accounts.js";
import { ConnectTokenError, spendConnectToken } from "../../../core/connect/connect-tokens.js";
import {
  checkExternalUserId,
  type EndUser,
  findEndUser,
  removeEndUser,
} from "../../../core/connect/end-users.js";
import type { CoreContext } from "../../../core/context.js";
import { NotFoundError } from "../../../core/errors.js";
import { pageAnswer } from "../../schemas.js";
import { connectAccountView } from "../../views/connect.js";
import { routeGroup } from "../route-group.js";
import {
  type ConnectScope,
  connectTokenGrantOf,
  optionalEndUserOf,
  requireServerSide,
  scopeOf,
} from "./connect-auth.js";
import type { ConnectMount, ConnectRoutes } from "./mount.js";
import {
  accountSchema,
  connectPageQuery,
  emptyPage,
  externalUserId,
  noContent,
  pageOfItems,
} from "./schemas.js";

/** Registers the routes at `mount`. */
export function accountRoutes(app: FastifyInstance, context: CoreContext, mount: ConnectMount): void {
  const route = routeGroup(app, mount.schema);
  accountReadRoutes(route, context, mount);
  accountWriteRoutes(route, context, mount);
}

const accountParams = { account_id: { type: "string", maxLength: 200 } } as const;
const userParams = { external_user_id: { type: "string", maxLength: 250 } } as const;
const listQuery = {
  type: "object",
  properties: {
    ...connectPageQuery,
    external_user_id: externalUserId,
    app: { type: "string", maxLength: 200 },
    oauth_app_id: { type: "string", maxLength: 200 },
    include_credentials: { type: "boolean", default: false },
  },
} as const;

function credentialsWanted(request: Parameters<typeof requireServerSide>[0], asked: boolean | undefined) {
  if (asked === true) requireServerSide(request, "read credentials");
  return asked === true;
}

/** Listing and reading the end users' accounts. */
function accountReadRoutes(route: ConnectRoutes, context: CoreContext, { base }: ConnectMount): void {
  const { db } = context.store;
  const accountPage = async (
    scope: ConnectScope,
    endUser: EndUser | null,
    query: AccountListRequest,
    withCredentials: boolean,
  ) => {
    return pageAnswer(
      await listConnectAccounts(context, scope.project, scope.environment, endUser, query, withCredentials),
      connectAccountView,
    );
  };

  route.get<{
    Querystring: AccountListRequest & { external_user_id?: string; include_credentials?: boolean };
  }>(`${base}/accounts`, {
    operationId: "listConnectAccounts",
    summary: "List the connected accounts of an end user (external_user_id), or of every end user",
    querystring: listQuery,
    response: { 200: pageOfItems(accountSchema) },
    handler: async (request) => {
      const scope = await scopeOf(request, db);
      const withCredentials = credentialsWanted(request, request.query.include_credentials);
      const endUser = await optionalEndUserOf(request, db, scope, request.query.external_user_id);
      if (endUser === "none") return emptyPage;
      return accountPage(scope, endUser, request.query, withCredentials);
    },
  });

  route.get<{
    Params: { external_user_id: string };
    Querystring: AccountListRequest & { include_credentials?: boolean };
  }>(`${base}/users/:external_user_id/accounts`, {
    operationId: "listConnectUserAccounts",
    summary: "List one end user's connected accounts",
    params: userParams,
    querystring: listQuery,
    response: { 200: pageOfItems(accountSchema) },
    handler: async (request) => {
      const scope = await scopeOf(request, db);
      const withCredentials = credentialsWanted(request, request.query.include_credentials);
      const endUser = await optionalEndUserOf(request, db, scope, request.params.external_user_id);
      if (endUser === "none" || endUser === null) return emptyPage;
      return accountPage(scope, endUser, request.query, withCredentials);
    },
  });

  route.get<{ Params: { account_id: string }; Querystring: { include_credentials?: boolean } }>(
    `${base}/accounts/:account_id`,
    {
      operationId: "getConnectAccount",
      summary: "Read a connected account of the project's end users (credentials when asked, server-side)",
      params: accountParams,
      querystring: {
        type: "object",
        properties: { include_credentials: { type: "boolean", default: false } },
      },
      response: { 200: accountSchema },
      handler: async (request) => {
        const scope = await scopeOf(request, db);
        const withCredentials = credentialsWanted(request, request.query.include_credentials);
        const endUser = request.connect.grant?.endUser ?? null;
        return connectAccountView(
          await getConnectAccount(
            context,
            scope.project,
            scope.environment,
            endUser,
            request.params.account_id,
            withCredentials,
          ),
        );
      },
    },
  );
}

/** Deleting and connecting accounts, and deleting an end user with all it owns. */
function accountWriteRoutes(route: ConnectRoutes, context: CoreContext, { base }: ConnectMount): void {
  const { db } = context.store;

  route.delete<{ Params: { account_id: string } }>(`${base}/accounts/:account_id`, {
    operationId: "deleteConnectAccount",
    summary: "Delete a connected account (triggers that use it fail from then on)",
    params: accountParams,
    response: noContent,
    handler: async (request, reply) => {
      const scope = await scopeOf(request, db);
      const endUser = request.connect.grant?.endUser ?? null;
      await deleteConnectAccount(
        context,
        scope.project,
        scope.environment,
        endUser,
        request.params.account_id,
      );
      return reply.code(204).send();
    },
  });

  route.post<{ Body: KeysAccountInput & { connect_token?: unknown; external_user_id?: unknown } }>(
    `${base}/accounts`,
    {
      operationId: "createConnectAccount",
      summary:
        "Connect a keys app for the end user of a connect token (what the connect link page does); spends the token",
      body: {
        type: "object",
        properties: {
          app_slug: { type: "string", maxLength: 200 },
          cfmap_json: { type: "string", maxLength: 200_000, description: "JSON of the app's fields" },
          connect_token: { type: "string", maxLength: 200 },
          external_user_id: externalUserId,
          name: { type: "string", maxLength: 200 },
          account_id: { type: "string", maxLength: 200, description: "apn_… to reconnect" },
          oauth_app_id: { type: "string", maxLength: 200 },
        },
        required: ["app_slug"],
      },
      response: { 200: accountSchema },
      handler: async (request) => {
        const scope = await scopeOf(request, db);
        const grant = await connectTokenGrantOf(db, request.connect.grant, scope, request.body);
        const connected = await connectKeysAccount(context, scope.project, grant.endUser, request.body);
        if (!(await spendConnectToken(db, grant.tokenHash))) {
          if (request.body.account_id === undefined) {
            await deleteConnectedAccount(context, grant.endUser.accountId, connected.account.id, true);
          }
          throw new ConnectTokenError(
            "connect_token_used",
            "The connect token was already used to connect an account: ask your server for a new one",
          );
        }
        return connectAccountView(connected);
      },
    },
  );

  route.delete<{ Params: { external_user_id: string } }>(`${base}/users/:external_user_id`, {
    operationId: "deleteConnectUser",
    summary: "Delete an end user with its connected accounts and deployed triggers",
    params: userParams,
    response: noContent,
    handler: async (request, reply) => {
      requireServerSide(request, "delete end users");
      const scope = await scopeOf(request, db);
      const externalId = checkExternalUserId(request.params.external_user_id);
      const endUser = await findEndUser(db, scope.project, scope.environment, externalId);
      if (!endUser) throw new NotFoundError("end user", externalId);
      await removeEndUser(context, endUser.accountId);
      return reply.code(204).send();
    },
  });
}

/**
 * Pipedream Connect's API under `/v1/connect`: the SDK's server client calls
 * `/v1/connect/{project_id}/…` with an access token or API key; its browser client calls the same
 * routes without the project (`/v1/connect/…`) with a connect token, which names the project.
 * Thin: every route calls core/connect, as the /v1 routes call core. The OpenAPI document lists
 * each operation once, with its project: the project-less twin is the same operation.
 */
import type { FastifyInstance } from "fastify";
import type { CoreContext } from "../../../core/context.js";
import { accountRoutes } from "./accounts.js";
import { connectAppRoutes } from "./apps.js";
import { componentRoutes } from "./components.js";
import { installConnectAuth, installConnectPreflight } from "./connect-auth.js";
import { connectMount } from "./mount.js";
import { oauthAccountRoutes } from "./oauth-accounts.js";
import { projectRoutes } from "./projects.js";
import { tokenRoutes } from "./tokens.js";
import { triggerRoutes } from "./triggers.js";

/** Mounted by the /v1 scope with the prefix /connect. */
export async function connectRoutes(scope: FastifyInstance, context: CoreContext): Promise<void> {
  installConnectPreflight(scope);
  installConnectAuth(scope, context.store.db);
  projectRoutes(scope, context);
  tokenRoutes(scope, context);
  connectAppRoutes(scope, context);
  for (const [base, suffix] of [
    ["/:project_id", ""],
    ["", "WithConnectToken"],
  ] as const) {
    const mount = connectMount(base, suffix);
    componentRoutes(scope, context, mount);
    triggerRoutes(scope, context, mount);
    accountRoutes(scope, context, mount);
    oauthAccountRoutes(scope, context, mount);
  }
}

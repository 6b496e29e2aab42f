/**
 * Where a group of Connect routes is mounted: under `/:project_id` for server-side callers, or at
 * the root for connect tokens (which name the project). The OpenAPI document lists the first only.
 */
import type { FastifySchema } from "fastify";
import type { OperationParts } from "../../schemas.js";
import type { RouteGroup } from "../route-group.js";
import { connectSchema, paramsOf } from "./schemas.js";

/** A mounted Connect route's own schema parts: `params` are those besides the project's. */
export interface ConnectOperation extends Omit<OperationParts, "params"> {
  readonly params?: Record<string, { type: "string"; maxLength: number }>;
}

/** The routes of one mount, as `routeGroup(app, mount.schema)` makes it. */
export type ConnectRoutes = RouteGroup<ConnectOperation>;

export interface ConnectMount {
  /** "/:project_id" or "". */
  readonly base: string;
  readonly withProject: boolean;
  /**
   * The route's schema at this mount. The project-less twin is hidden, and its operationId takes a
   * suffix so the twin's ids stay unique.
   */
  schema(operation: ConnectOperation): FastifySchema;
}

export function connectMount(base: string, suffix: string): ConnectMount {
  const withProject = base !== "";
  return {
    base,
    withProject,
    schema: ({ operationId, params, ...parts }) => ({
      ...connectSchema({
        ...parts,
        operationId: `${operationId}${suffix}`,
        params: paramsOf(withProject, params),
      }),
      hide: !withProject,
    }),
  };
}

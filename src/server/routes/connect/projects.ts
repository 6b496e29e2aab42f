/**
 * `/v1/connect/projects`: an account's Connect projects, as the SDK's `projects` client calls
 * them. Server-side credentials only (an access token or an API key).
 */

import type { FastifyInstance } from "fastify";
import {
  createProject,
  deleteProject,
  getProject,
  listProjects,
  type ProjectInput,
} from "../../../core/connect/projects.js";
import type { CoreContext } from "../../../core/context.js";
import type { PageRequest } from "../../../core/pagination.js";
import { pageAnswer } from "../../schemas.js";
import { projectView } from "../../views/connect.js";
import { routeGroup } from "../route-group.js";
import { requireServerSide } from "./connect-auth.js";
import {
  connectPageQuery,
  connectSchema,
  noContent,
  pageOfItems,
  projectParams,
  projectSchema,
} from "./schemas.js";

export function projectRoutes(app: FastifyInstance, context: CoreContext): void {
  const route = routeGroup(app, connectSchema);
  const { db } = context.store;

  route.post<{ Body: ProjectInput }>("/projects", {
    operationId: "createConnectProject",
    summary: "Create a Connect project (proj_…) of this account",
    body: {
      type: "object",
      properties: {
        name: { type: "string", maxLength: 200 },
        app_name: { type: "string", maxLength: 200 },
        support_email: { type: "string", maxLength: 320 },
      },
      required: ["name"],
    },
    response: { 200: projectSchema },
    handler: async (request) => {
      requireServerSide(request, "create projects");
      return projectView(await createProject(db, request.connect.account.id, request.body));
    },
  });

  route.get<{ Querystring: PageRequest & { q?: string } }>("/projects", {
    operationId: "listConnectProjects",
    summary: "List this account's Connect projects, newest first",
    querystring: {
      type: "object",
      properties: { ...connectPageQuery, q: { type: "string", maxLength: 200 } },
    },
    response: { 200: pageOfItems(projectSchema) },
    handler: async (request) => {
      requireServerSide(request, "list projects");
      return pageAnswer(await listProjects(db, request.connect.account.id, request.query), projectView);
    },
  });

  route.get<{ Params: { project_id: string } }>("/projects/:project_id", {
    operationId: "getConnectProject",
    summary: "Read a Connect project",
    params: projectParams,
    response: { 200: projectSchema },
    handler: async (request) => {
      requireServerSide(request, "read projects");
      return projectView(await getProject(db, request.connect.account.id, request.params.project_id));
    },
  });

  route.delete<{ Params: { project_id: string } }>("/projects/:project_id", {
    operationId: "deleteConnectProject",
    summary: "Delete a Connect project with its end users, their connected accounts and deployed triggers",
    params: projectParams,
    response: noContent,
    handler: async (request, reply) => {
      requireServerSide(request, "delete projects");
      await deleteProject(context, request.connect.account.id, request.params.project_id);
      return reply.code(204).send();
    },
  });
}

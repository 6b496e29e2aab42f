/**
 * Imports of Pipedream-layout packages: `POST /v1/registry/imports` starts one as a job and
 * answers 202 once the package is checked and unpacked; `GET /v1/registry/imports/{id}` follows
 * it, component by component. `POST /v1/registry/import` (singular) imports the whole package
 * before it answers, for scripts and small packages.
 */
import type { FastifyInstance } from "fastify";
import {
  getImport,
  type ImportJob,
  listImports,
  startImport,
} from "../../core/components/package-import/import-jobs.js";
import { type ImportInput, importPackage } from "../../core/components/package-import/import-package.js";
import type { CoreContext } from "../../core/context.js";
import type { PageRequest } from "../../core/pagination.js";
import { dataOf, epochSeconds, errorResponse, idParams, pageAnswer, pageOf, pageQuery } from "../schemas.js";
import { routeGroup } from "./route-group.js";

const importBody = {
  type: "object",
  properties: {
    npm: { type: "string", maxLength: 300, description: "npm:<package>@<version>" },
    files: {
      type: "object",
      additionalProperties: { type: "string" },
      description: "a folder's files: relative path → text",
    },
    registry: { type: "string", enum: ["public", "private"], default: "private" },
  },
} as const;

const importedComponent = {
  type: "object",
  properties: {
    file: { type: "string", description: "the component's file in the package" },
    status: { type: "string", enum: ["published", "skipped", "failed"] },
    key: { type: ["string", "null"] },
    version: { type: ["string", "null"] },
    reason: { type: "string", description: "why it failed" },
  },
} as const;

const importJob = {
  type: "object",
  properties: {
    id: { type: "string", description: "imp_…" },
    status: { type: "string", enum: ["running", "succeeded", "failed"] },
    registry: { type: "string", enum: ["public", "private"] },
    source: { type: "string", description: "npm:<spec>, or files for a folder sent by the client" },
    total: { type: "integer", description: "how many components the package has" },
    components: { type: "array", items: importedComponent, description: "those imported so far, in order" },
    error: { type: ["string", "null"], description: "why the import stopped before its end" },
    created_at: { type: "integer" },
    finished_at: { type: ["integer", "null"] },
  },
} as const;

function jobView(job: ImportJob) {
  return {
    id: job.id,
    status: job.status,
    registry: job.registry,
    source: job.source,
    total: job.total,
    components: job.components,
    error: job.error,
    created_at: epochSeconds(job.createdAt),
    finished_at: job.finishedAt === null ? null : epochSeconds(job.finishedAt),
  };
}

export function registryImportRoutes(app: FastifyInstance, context: CoreContext): void {
  const route = routeGroup(app, "components");
  route.post<{ Body: ImportInput }>("/registry/imports", {
    operationId: "startRegistryImport",
    summary:
      "Start importing a Pipedream-layout package (npm:<spec>, fetched by the server, or a folder's files)",
    description:
      "Checks the request and unpacks the package, then imports each source and action in the background: follow it with GET /v1/registry/imports/{id}. A bad registry, a public import by a non-admin, an npm spec that does not exist and a package with no components are refused here, before anything is published.",
    body: importBody,
    response: { 202: dataOf(importJob), 403: errorResponse },
    handler: async (request, reply) => {
      const job = await startImport(context, request.account, request.body ?? {});
      return reply.code(202).send({ data: jobView(job) });
    },
  });

  route.get<{ Querystring: PageRequest }>("/registry/imports", {
    operationId: "listRegistryImports",
    summary: "List the account's package imports, newest first",
    querystring: pageQuery,
    response: { 200: pageOf(importJob) },
    handler: async (request) =>
      pageAnswer(await listImports(context, request.account.id, request.query), jobView),
  });

  route.get<{ Params: { id: string } }>("/registry/imports/:id", {
    operationId: "getRegistryImport",
    summary: "Get a package import: its status and each component imported so far",
    params: idParams,
    response: { 200: dataOf(importJob) },
    handler: async (request) => ({
      data: jobView(await getImport(context, request.account.id, request.params.id)),
    }),
  });

  route.post<{ Body: ImportInput }>("/registry/import", {
    operationId: "importRegistryPackage",
    summary:
      "Import a Pipedream-layout package and wait for the whole import: publish each source and action, reporting each as published, skipped or failed",
    description:
      "Holds the request open until every component is imported; for large packages use POST /v1/registry/imports, which answers at once.",
    body: importBody,
    response: {
      200: dataOf({
        type: "object",
        properties: {
          registry: { type: "string" },
          components: { type: "array", items: importedComponent },
        },
      }),
      403: errorResponse,
    },
    handler: async (request) => ({ data: await importPackage(context, request.account, request.body ?? {}) }),
  });
}

/**
 * /v1/workflows and /v1/workflow_runs: deploy, update, pause, delete, read and list workflows;
 * start a run by hand; list a workflow's runs, read one, replay one (from a step, or many at once:
 * workflow-replays.ts); a workflow's events.
 */

import type { FastifyInstance } from "fastify";
import type { CoreContext } from "../../core/context.js";
import { type EventQuery, listEventSummaries } from "../../core/events/events.js";
import type { PageRequest } from "../../core/pagination.js";
import { endWaitById, resumeData } from "../../core/workflows/run-waits.js";
import { getRun, listRuns, replayRun, startRun } from "../../core/workflows/runs.js";
import {
  createWorkflow,
  deleteWorkflow,
  getWorkflow,
  listWorkflows,
  updateWorkflow,
} from "../../core/workflows/workflows.js";
import {
  dataOf,
  deletedAnswer,
  deletedResponse,
  documentedAs,
  errorResponse,
  idParams,
  pageAnswer,
  pageOf,
  pageQuery,
  pageQueryWith,
} from "../schemas.js";
import { runView, workflowView } from "../views/workflows.js";
import { eventSummariesQuery, eventSummariesResponse } from "./events.js";
import { routeGroup, type TaggedRoutes } from "./route-group.js";
import {
  bulkReplayRoutes,
  type ReplayBody,
  replayBody,
  replayStart,
  runStatuses,
  runStatusParam,
} from "./workflow-replays.js";
import {
  documentedWorkflow,
  documentedWorkflowPage,
  workflowParamsDocument,
  workflowRunSchema,
  workflowSchema,
  workflowUpdateDocument,
} from "./workflow-schemas.js";

const documentBody = {
  type: "object",
  additionalProperties: true,
  description: "The workflow document: name, trigger, concurrency, retries, timeout_seconds, active, steps",
} as const;

const one = {
  200: dataOf(workflowSchema),
  409: errorResponse,
} as const;
const oneRun = { 200: dataOf(workflowRunSchema) } as const;
const queuedRun = {
  202: dataOf(workflowRunSchema),
  409: errorResponse,
} as const;

/** Registers /v1/workflows: the workflow documents, then their runs and events. */
export function workflowRoutes(app: FastifyInstance, context: CoreContext): void {
  const route = routeGroup(app, "workflows");
  workflowDocumentRoutes(route, context);
  workflowRunRoutes(route, context);
  bulkReplayRoutes(route, context);
}

/** Deploying, replacing, deleting, reading and listing workflows. */
function workflowDocumentRoutes(route: TaggedRoutes, context: CoreContext): void {
  route.post<{ Body: unknown }>("/workflows", {
    operationId: "createWorkflow",
    summary: "Deploy a workflow",
    body: documentBody,
    response: one,
    config: documentedAs({ body: workflowParamsDocument, response: documentedWorkflow }),
    handler: async (request) => ({
      data: workflowView(context, await createWorkflow(context, request.account.id, request.body)),
    }),
  });

  route.put<{ Params: { id: string }; Body: unknown }>("/workflows/:id", {
    operationId: "updateWorkflow",
    summary: "Replace a workflow's document, or pause and resume it with { active }",
    params: idParams,
    body: documentBody,
    response: one,
    config: documentedAs({ body: workflowUpdateDocument, response: documentedWorkflow }),
    handler: async (request) => ({
      data: workflowView(
        context,
        await updateWorkflow(context, request.account.id, request.params.id, request.body),
      ),
    }),
  });

  route.delete<{ Params: { id: string } }>("/workflows/:id", {
    operationId: "deleteWorkflow",
    summary: "Delete a workflow, its runs and its events",
    params: idParams,
    response: { 200: deletedResponse },
    handler: async (request) => {
      await deleteWorkflow(context, request.account.id, request.params.id);
      return deletedAnswer(request.params.id);
    },
  });

  route.get<{ Params: { id: string } }>("/workflows/:id", {
    operationId: "getWorkflow",
    summary: "Read a workflow",
    params: idParams,
    response: one,
    config: documentedAs({ response: documentedWorkflow }),
    handler: async (request) => ({
      data: workflowView(context, await getWorkflow(context, request.account.id, request.params.id)),
    }),
  });

  route.get<{ Querystring: PageRequest }>("/users/me/workflows", {
    operationId: "listWorkflows",
    summary: "List the account's workflows, newest first",
    querystring: pageQuery,
    response: { 200: pageOf(workflowSchema) },
    config: documentedAs({ response: documentedWorkflowPage }),
    handler: async (request) =>
      pageAnswer(await listWorkflows(context, request.account.id, request.query), (workflow) =>
        workflowView(context, workflow),
      ),
  });
}

/** A workflow's runs (started, listed, read, replayed) and its events. */
function workflowRunRoutes(route: TaggedRoutes, context: CoreContext): void {
  route.post<{ Params: { id: string }; Body: { event?: unknown } | undefined }>("/workflows/:id/runs", {
    operationId: "runWorkflow",
    summary: "Run a workflow now with an event of your choosing (queued)",
    params: idParams,
    body: { type: ["object", "null"], properties: { event: {} } },
    response: queuedRun,
    handler: async (request, reply) => {
      const run = await startRun(context, request.account.id, request.params.id, request.body?.event);
      return reply.status(202).send({ data: runView(run) });
    },
  });

  route.get<{ Params: { id: string }; Querystring: PageRequest & { status?: string } }>(
    "/workflows/:id/runs",
    {
      operationId: "listWorkflowRuns",
      summary: "A workflow's runs, newest first (only those of the statuses asked)",
      params: idParams,
      querystring: pageQueryWith({ status: runStatusParam }),
      response: { 200: pageOf(workflowRunSchema) },
      handler: async (request) => {
        const { status, ...page } = request.query;
        const statuses = runStatuses(status);
        return pageAnswer(
          await listRuns(context, request.account.id, request.params.id, page, statuses),
          runView,
        );
      },
    },
  );

  route.get<{ Params: { id: string } }>("/workflow_runs/:id", {
    operationId: "getWorkflowRun",
    summary: "Read a workflow run",
    params: idParams,
    response: oneRun,
    handler: async (request) => ({
      data: runView(await getRun(context, request.account.id, request.params.id)),
    }),
  });

  route.post<{ Params: { id: string }; Body: ReplayBody | null }>("/workflow_runs/:id/replay", {
    operationId: "replayWorkflowRun",
    summary: "Run a workflow again with a past run's trigger event (queued), from the start or from a step",
    params: idParams,
    body: replayBody,
    response: queuedRun,
    handler: async (request, reply) => {
      const run = await replayRun(context, request.account.id, request.params.id, replayStart(request.body));
      return reply.status(202).send({ data: runView(run) });
    },
  });

  for (const action of ["resume", "cancel"] as const) {
    route.post<{ Params: { id: string }; Body: { data?: unknown } | undefined }>(
      `/workflow_runs/:id/${action}`,
      {
        operationId: action === "resume" ? "resumeWorkflowRun" : "cancelWorkflowRun",
        summary:
          action === "resume"
            ? "Resume a paused or suspended run now; `data` becomes a suspended step's $resume_data body"
            : "Cancel a paused or suspended run",
        params: idParams,
        ...(action === "resume" ? { body: { type: ["object", "null"], properties: { data: {} } } } : {}),
        response: oneRun,
        handler: async (request) => {
          const data = resumeData(request.body?.data ?? null, {});
          const run = await endWaitById(context, request.account.id, request.params.id, action, data);
          return { data: runView(run) };
        },
      },
    );
  }

  route.get<{ Params: { id: string }; Querystring: EventQuery }>("/workflows/:id/event_summaries", {
    operationId: "listWorkflowEvents",
    summary: "A workflow's events ($.send.emit, and $errors for failed runs), newest first",
    params: idParams,
    querystring: eventSummariesQuery,
    response: eventSummariesResponse,
    handler: async (request) => {
      const workflow = await getWorkflow(context, request.account.id, request.params.id);
      const page = await listEventSummaries(context.store.db, workflow.id, request.query);
      return { page_info: page.pageInfo, data: page.items };
    },
  });
}

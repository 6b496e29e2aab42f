/**
 * Replays: the body of `POST /v1/workflow_runs/{id}/replay` (from a step), and replaying many runs
 * of a workflow at once: `POST /v1/workflows/{id}/replays` counts the runs a filter matches
 * (`dry_run`) or starts a paced bulk replay of them, and `GET /v1/workflows/{id}/replays/{replay_id}`
 * shows how far it got. The run statuses a filter or a list of runs takes are the run schema's,
 * read here from that one place.
 */
import type { CoreContext } from "../../core/context.js";
import { InvalidInputError } from "../../core/errors.js";
import {
  DEFAULT_MAX_IN_FLIGHT,
  getBulkReplay,
  MAX_IN_FLIGHT,
  startBulkReplay,
} from "../../core/workflows/bulk-replays.js";
import type { ReplayStart } from "../../core/workflows/replays.js";
import type { WorkflowRunStatus } from "../../store/schema.js";
import { dataOf, errorResponse, idParams, pathParams } from "../schemas.js";
import { bulkReplayView } from "../views/workflow-replays.js";
import type { TaggedRoutes } from "./route-group.js";
import { nullableNumber, nullableString, workflowRunSchema } from "./workflow-schemas.js";

/** The statuses a run may have, as the OpenAPI document lists them. */
const RUN_STATUSES: readonly string[] = workflowRunSchema.properties.status.enum;

/** `status` of a filter or a list of runs: one status or a comma-separated list of them. */
export const runStatusParam = {
  type: "string",
  maxLength: 200,
  description: `only runs with this status, or one of these (comma-separated): ${RUN_STATUSES.join(", ")}`,
} as const;

/** The statuses of a `status` parameter (none when it is absent); InvalidInputError for an unknown one. */
export function runStatuses(text: string | undefined, field = "status"): WorkflowRunStatus[] {
  if (text === undefined || text.trim() === "") return [];
  const statuses = text.split(",").map((status) => status.trim());
  const unknown = statuses.find((status) => !RUN_STATUSES.includes(status));
  if (unknown !== undefined) {
    throw new InvalidInputError(
      `${field} takes run statuses (${RUN_STATUSES.join(", ")}), comma-separated; '${unknown}' is not one`,
      "invalid_status",
    );
  }
  return statuses as WorkflowRunStatus[];
}

/** `POST /v1/workflow_runs/{id}/replay`: where the replay starts (the first step without either). */
export interface ReplayBody {
  from_step?: string;
  from_failed_step?: boolean;
}

export const replayBody = {
  type: ["object", "null"],
  additionalProperties: false,
  properties: {
    from_step: {
      type: "string",
      minLength: 1,
      maxLength: 64,
      description: "run from this step on, reusing the original's outcomes of the steps before it",
    },
    from_failed_step: { type: "boolean", description: "run from the step the original failed at" },
  },
} as const;

export function replayStart(body: ReplayBody | null | undefined): ReplayStart {
  if (body?.from_step !== undefined && body.from_failed_step === true) {
    throw new InvalidInputError("Pass from_step or from_failed_step, not both");
  }
  if (body?.from_step !== undefined) return { fromStep: body.from_step };
  return body?.from_failed_step === true ? { fromFailedStep: true } : undefined;
}

const instantParam = {
  anyOf: [
    { type: "integer", minimum: 0, description: "epoch milliseconds" },
    { type: "string", maxLength: 64, description: "an ISO 8601 time; a date alone is midnight UTC" },
  ],
} as const;

interface BulkReplayBody {
  filter?: { status?: string; failed_step?: string; since?: string | number; until?: string | number };
  from_failed_step?: boolean;
  dry_run?: boolean;
  max_in_flight?: number;
}

const bulkReplayBody = {
  type: "object",
  additionalProperties: false,
  properties: {
    filter: {
      type: "object",
      additionalProperties: false,
      description: "which runs to replay (all of them without one); each is replayed once, oldest first",
      properties: {
        status: runStatusParam,
        failed_step: {
          type: "string",
          minLength: 1,
          maxLength: 64,
          description: "only runs that failed at this step",
        },
        since: { ...instantParam, description: "only runs created at or after this time" },
        until: { ...instantParam, description: "only runs created at or before this time" },
      },
    },
    from_failed_step: {
      type: "boolean",
      description: "replay each run from the step that failed, reusing the outcomes of the steps before it",
    },
    dry_run: { type: "boolean", description: "only count the runs it would replay" },
    max_in_flight: {
      type: "integer",
      minimum: 1,
      maximum: MAX_IN_FLIGHT,
      description: `its replays queued or running at once at most; default ${DEFAULT_MAX_IN_FLIGHT}`,
    },
  },
} as const;

export const bulkReplaySchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    id: { type: "string", description: "rp_…" },
    workflow_id: { type: "string" },
    status: {
      type: "string",
      enum: ["queuing", "running", "done"],
      description: "queuing while runs are left to queue, running until its replays have ended",
    },
    filter: {
      type: "object",
      additionalProperties: true,
      properties: {
        status: nullableString,
        failed_step: nullableString,
        since_ms: nullableNumber,
        until_ms: nullableNumber,
      },
    },
    from_failed_step: { type: "boolean" },
    max_in_flight: { type: "number" },
    total: { type: "number", description: "the runs it matched when it started" },
    queued: { type: "number", description: "its replays queued so far" },
    skipped: {
      type: "number",
      description:
        "runs not replayed: they no longer matched, or could not be replayed from their failed step",
    },
    in_flight: { type: "number", description: "its replays queued or running now" },
    done: { type: "number", description: "its replays that ended" },
    created_at_ms: { type: "number" },
    finished_at_ms: { ...nullableNumber, description: "when its last replay was queued" },
  },
} as const;

const dryRunSchema = {
  type: "object",
  properties: {
    dry_run: { type: "boolean", enum: [true] },
    total: { type: "number", description: "the runs it would replay" },
  },
} as const;

const replayParams = pathParams({
  id: { type: "string", maxLength: 200 },
  replay_id: { type: "string", maxLength: 200 },
});

/** `POST /v1/workflows/{id}/replays` and `GET /v1/workflows/{id}/replays/{replay_id}`. */
export function bulkReplayRoutes(route: TaggedRoutes, context: CoreContext): void {
  route.post<{ Params: { id: string }; Body: BulkReplayBody | undefined }>("/workflows/:id/replays", {
    operationId: "replayWorkflowRuns",
    summary: "Replay the runs a filter matches, a few at a time (or count them, with dry_run)",
    params: idParams,
    body: bulkReplayBody,
    response: { 200: dataOf(dryRunSchema), 202: dataOf(bulkReplaySchema), 409: errorResponse },
    handler: async (request, reply) => {
      const body = request.body ?? {};
      const filter = body.filter ?? {};
      const started = await startBulkReplay(context, request.account.id, request.params.id, {
        filter: {
          ...(filter.status === undefined ? {} : { statuses: runStatuses(filter.status, "filter.status") }),
          ...(filter.failed_step === undefined ? {} : { failedStep: filter.failed_step }),
          ...(filter.since === undefined ? {} : { since: filter.since }),
          ...(filter.until === undefined ? {} : { until: filter.until }),
        },
        fromFailedStep: body.from_failed_step === true,
        dryRun: body.dry_run === true,
        ...(body.max_in_flight === undefined ? {} : { maxInFlight: body.max_in_flight }),
      });
      if ("dryRun" in started) return { data: { dry_run: true, total: started.total } };
      return reply.status(202).send({ data: bulkReplayView(started) });
    },
  });

  route.get<{ Params: { id: string; replay_id: string } }>("/workflows/:id/replays/:replay_id", {
    operationId: "getWorkflowReplay",
    summary: "A bulk replay's progress: the runs it matched, queued, skipped, in flight and done",
    params: replayParams,
    response: { 200: dataOf(bulkReplaySchema) },
    handler: async (request) => ({
      data: bulkReplayView(
        await getBulkReplay(context, request.account.id, request.params.id, request.params.replay_id),
      ),
    }),
  });
}

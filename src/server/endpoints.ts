/**
 * Source HTTP endpoints: `{base}/e/<endpoint_id>` and any sub-path, any method, no API key. The
 * request becomes the event `{method, path, query, headers, bodyRaw, body}`. Without
 * customResponse the caller gets 200 once the invocation is committed; with it, whatever the
 * source's respond() sends, the moment it sends it, or a clear 5xx when run throws, times out,
 * finishes without responding, or responds with what HTTP cannot carry (a 1xx status, a bad header).
 */
import { validateHeaderName, validateHeaderValue } from "node:http";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { CoreContext } from "../core/context.js";
import { invokeSource } from "../core/sources/invoker.js";
import { runnableAtEndpoint } from "../core/sources/runnable-cache.js";
import { checkJsonDepth } from "../core/validation.js";
import type { AttemptOutcome } from "../core/workflows/run-executor.js";
import type { WorkflowRunner } from "../core/workflows/run-worker.js";
import { queueHttpRun } from "../core/workflows/runs.js";
import { cachedWorkflowAtEndpoint, runnableWorkflowAtEndpoint } from "../core/workflows/workflow-cache.js";
import type { Workflow } from "../core/workflows/workflows.js";
import type { HttpResponse, InvocationResult } from "../runtime/sandbox/sandbox.js";
import { sendError } from "./plugins/errors.js";

export interface HttpEvent {
  method: string;
  path: string;
  query: Record<string, unknown>;
  headers: Record<string, string | string[] | undefined>;
  bodyRaw: string;
  body?: unknown;
}

export function endpointRoutes(
  app: FastifyInstance,
  context: CoreContext,
  runner: WorkflowRunner,
  bodyLimitBytes: number,
): void {
  app.register(async (endpoints) => {
    // Sources take any content: the body arrives as bytes and is parsed for the event below.
    endpoints.removeAllContentTypeParsers();
    endpoints.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: bodyLimitBytes },
      (_request, body, done) => {
        done(null, body);
      },
    );
    // The app's handler names the REST body limit; an endpoint's limit is its own.
    endpoints.setErrorHandler((error: FastifyError, _request, reply) => {
      if (error.code !== "FST_ERR_CTP_BODY_TOO_LARGE") throw error;
      return sendError(
        reply,
        413,
        "payload_too_large",
        `The request body is larger than ${bodyLimitBytes} bytes, the limit of source endpoints`,
      );
    });
    const options = {
      config: { public: true, rateLimit: false as const, quietLog: true },
      bodyLimit: bodyLimitBytes,
      schema: { hide: true },
    };
    endpoints.all("/e/:endpointId", options, (request, reply) => handle(context, runner, request, reply));
    endpoints.all("/e/:endpointId/*", options, (request, reply) => handle(context, runner, request, reply));
  });
}

async function handle(
  context: CoreContext,
  runner: WorkflowRunner,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { endpointId } = request.params as { endpointId: string };
  const wellFormed = /^[0-9a-f]{32}$/.test(endpointId);
  // A workflow's endpoint this node knows already is not looked for among the sources first.
  const known = wellFormed ? cachedWorkflowAtEndpoint(context, endpointId) : undefined;
  const source = wellFormed && !known ? await runnableAtEndpoint(context, endpointId) : null;
  if (!source && wellFormed) {
    const workflow = known ?? (await runnableWorkflowAtEndpoint(context, endpointId));
    if (workflow?.active) return handleWorkflow(context, runner, workflow, request, reply, endpointId);
  }
  if (!source?.active) {
    return sendError(reply, 404, "not_found", "No active source or workflow listens at this endpoint");
  }
  const event = httpEvent(request, endpointId);
  // A component receives the event as JSON, which only so deep a value survives.
  checkJsonDepth(event.body, "The JSON body");
  const customResponse = source.definition.props.some(
    (prop) => prop.type === "$.interface.http" && prop.customResponse === true,
  );
  if (!customResponse) {
    await invokeSource(context, source, { method: "run", event });
    return reply.status(200).send({ success: true });
  }

  let respond: (response: HttpResponse) => void = () => {};
  const responded = new Promise<HttpResponse>((resolve) => {
    respond = resolve;
  });
  const invocation = invokeSource(context, source, {
    method: "run",
    event,
    onRespond: (response) => respond(response),
  });
  const first = await Promise.race([responded, invocation.then((report) => report.result)]);
  if ("status" in first && "body" in first && "isJson" in first) {
    // The invocation goes on (and is committed) after the caller has its answer.
    invocation.catch((error: unknown) =>
      request.log.error({ err: error }, "invocation failed after respond()"),
    );
    return sendHttpResponse(reply, first);
  }
  return sendRunFailure(reply, first);
}

/**
 * An HTTP-triggered workflow. Without customResponse the run is queued and the caller gets 200 at
 * once. With it, the run starts here at once and the caller gets the response a step gives with
 * `$.respond()`: when it is given with `immediate: true`, else when the run ends.
 */
async function handleWorkflow(
  context: CoreContext,
  runner: WorkflowRunner,
  workflow: Workflow,
  request: FastifyRequest,
  reply: FastifyReply,
  endpointId: string,
): Promise<FastifyReply> {
  const { trigger } = workflow.document.trigger;
  const customResponse = trigger.type === "http" && trigger.customResponse;
  const event = httpEvent(request, endpointId);
  // Steps receive the event as JSON, which only so deep a value survives.
  checkJsonDepth(event.body, "The JSON body");
  const runTrigger = { event, context: { trigger: "http" } };
  const { runId, lease } = await queueHttpRun(context, workflow, runTrigger, customResponse);
  reply.header("x-sluice-run-id", runId);
  if (!lease) return reply.status(200).send({ success: true });

  let respondNow: (response: HttpResponse) => void = () => {};
  const immediate = new Promise<HttpResponse>((resolve) => {
    respondNow = resolve;
  });
  const run = runner.runClaimed(lease, runId, workflow.id, {
    onRespond: (response) => {
      if (response.immediate) respondNow(response);
    },
  });
  const first = await Promise.race([immediate, run]);
  if (first !== null && "isJson" in first) {
    run.catch((error: unknown) => request.log.error({ err: error }, "workflow run failed after $.respond()"));
    return sendHttpResponse(reply, first, "the workflow's $.respond()");
  }
  return sendRunOutcome(reply, first);
}

function sendRunOutcome(reply: FastifyReply, outcome: AttemptOutcome | null): FastifyReply {
  if (outcome?.response) return sendHttpResponse(reply, outcome.response, "the workflow's $.respond()");
  if (outcome === null) {
    return sendError(
      reply,
      502,
      "no_response",
      "The run did not complete on this node: its workflow was deleted, or another node took the run over",
    );
  }
  if (outcome.error) {
    const { step, reason, message } = outcome.error;
    if (reason === "timeout") return sendError(reply, 504, "workflow_timeout", `Step '${step}' ${message}`);
    return sendError(reply, 500, "workflow_error", `Step '${step}' failed (${reason}): ${message}`);
  }
  const ended =
    outcome.status === "paused" || outcome.status === "suspended"
      ? `${outcome.status === "paused" ? "paused" : "was suspended"} (it goes on later, and may not respond then)`
      : outcome.status === "exited"
        ? "exited"
        : "finished";
  return sendError(
    reply,
    502,
    "no_response",
    `The workflow ${ended} without calling $.respond(), and its HTTP trigger has customResponse: true`,
  );
}

function sendHttpResponse(
  reply: FastifyReply,
  response: HttpResponse,
  from = "The source's respond()",
): FastifyReply {
  const problem = unsendable(response);
  if (problem !== undefined) {
    return sendError(reply, 502, "invalid_response", `${from} cannot be sent: ${problem}`);
  }
  reply.status(response.status);
  for (const [name, value] of Object.entries(response.headers)) reply.header(name, value);
  if (response.isJson && !reply.hasHeader("content-type")) reply.type("application/json; charset=utf-8");
  return reply.send(Buffer.from(response.body));
}

/** Why HTTP cannot carry what respond() gave, if it cannot. */
function unsendable(response: HttpResponse): string | undefined {
  // A 1xx status is interim in HTTP: sent as the answer, it leaves the caller waiting for the real one.
  if (response.status < 200) {
    return `status ${response.status} is informational (1xx) and cannot end a request; use 200 to 599`;
  }
  for (const [name, value] of Object.entries(response.headers)) {
    try {
      validateHeaderName(name);
      validateHeaderValue(name, value);
    } catch (error) {
      return `header ${JSON.stringify(name)}: ${(error as Error).message}`;
    }
  }
  return undefined;
}

function sendRunFailure(reply: FastifyReply, result: InvocationResult): FastifyReply {
  const failure = result.failure;
  if (!failure) {
    return sendError(reply, 502, "no_response", "The source finished without calling respond()");
  }
  if (failure.reason === "timeout")
    return sendError(reply, 504, "source_timeout", `The source ${failure.message}`);
  return sendError(reply, 500, "source_error", `The source failed (${failure.reason}): ${failure.message}`);
}

/** The request as the event a source's run receives. */
export function httpEvent(request: FastifyRequest, endpointId: string): HttpEvent {
  const raw = request.body instanceof Buffer ? request.body : Buffer.alloc(0);
  const bodyRaw = raw.toString("utf8");
  const url = request.url.split("?")[0] ?? "";
  const path = url.slice(`/e/${endpointId}`.length) || "/";
  const event: HttpEvent = {
    method: request.method,
    path,
    query: { ...(request.query as Record<string, unknown>) },
    headers: { ...request.headers },
    bodyRaw,
  };
  if (raw.length > 0) event.body = parseBody(String(request.headers["content-type"] ?? ""), bodyRaw);
  return event;
}

function parseBody(contentType: string, text: string): unknown {
  const type = contentType.split(";")[0]?.trim().toLowerCase() ?? "";
  if (type === "application/json" || type.endsWith("+json")) {
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }
  if (type === "application/x-www-form-urlencoded") {
    const form: Record<string, string | string[]> = {};
    for (const [key, value] of new URLSearchParams(text)) {
      const previous = form[key];
      form[key] =
        previous === undefined ? value : Array.isArray(previous) ? [...previous, value] : [previous, value];
    }
    return form;
  }
  return text;
}

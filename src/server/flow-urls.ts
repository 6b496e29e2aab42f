/**
 * The resume and cancel URLs of waiting runs (`$.flow.delay`, `suspend`, `rerun`):
 * `{base}/flow/<run>/<resume|cancel>/<token>`, GET or POST, no API key: the token is the proof.
 * Every node answers them. A resume's body (JSON when it says so, text otherwise) and headers
 * become a suspended step's `$resume_data`.
 */
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { CoreContext } from "../core/context.js";
import { InvalidInputError } from "../core/errors.js";
import { checkJsonDepth } from "../core/validation.js";
import {
  endWaitByUrl,
  type FlowAction,
  RESUME_BODY_LIMIT_BYTES,
  resumeData,
} from "../core/workflows/run-waits.js";
import { sendError } from "./plugins/errors.js";

export function flowUrlRoutes(app: FastifyInstance, context: CoreContext): void {
  app.register(async (flow) => {
    flow.removeAllContentTypeParsers();
    flow.addContentTypeParser(
      "*",
      { parseAs: "buffer", bodyLimit: RESUME_BODY_LIMIT_BYTES },
      (_request, body, done) => {
        done(null, body);
      },
    );
    flow.setErrorHandler((error: FastifyError, _request, reply) => {
      if (error.code !== "FST_ERR_CTP_BODY_TOO_LARGE") throw error;
      return sendError(
        reply,
        413,
        "resume_data_too_large",
        `The request body is larger than ${RESUME_BODY_LIMIT_BYTES} bytes, the limit of a resume`,
      );
    });
    const options = {
      config: { public: true, quietLog: true },
      bodyLimit: RESUME_BODY_LIMIT_BYTES,
      schema: { hide: true },
    };
    for (const action of ["resume", "cancel"] as const) {
      const url = `/flow/:runId/${action}/:token`;
      const handler = (request: FastifyRequest, reply: FastifyReply) =>
        answer(context, action, request, reply);
      flow.get(url, options, handler);
      flow.post(url, options, handler);
    }
  });
}

async function answer(
  context: CoreContext,
  action: FlowAction,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<FastifyReply> {
  const { runId, token } = request.params as { runId: string; token: string };
  const data =
    action === "resume" ? resumeData(bodyOf(request), request.headers) : { body: null, headers: {} };
  const run = await endWaitByUrl(context, runId, action, token, data);
  return reply.status(200).send({
    data: {
      id: run.id,
      status: run.status,
      message: action === "resume" ? "The run goes on now" : "The run is cancelled",
    },
  });
}

/** The request's body: parsed JSON when its content type says JSON, text otherwise, null when empty. */
function bodyOf(request: FastifyRequest): unknown {
  const raw = request.body;
  if (!Buffer.isBuffer(raw) || raw.length === 0) return null;
  const text = raw.toString("utf8");
  if (!/\bjson\b/i.test(request.headers["content-type"] ?? "")) return text;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw new InvalidInputError(
      "The request body is not valid JSON, as its content-type says",
      "invalid_json",
    );
  }
  // The step receives it as JSON, which only so deep a value survives.
  checkJsonDepth(body, "The JSON body");
  return body;
}

/**
 * Every error leaves the server as `{"error":{"code","message"}}`. Named Sluice errors map to HTTP
 * statuses here, in one place; framework errors (validation, oversized or malformed bodies) get
 * stable codes of their own; a database that does not answer is a 503 and one whose disk is full a
 * 507, both with stable codes; anything unexpected is logged and answered with a 500 that carries
 * the request id, never the internals.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type ErrorKind, SluiceError } from "../../core/errors.js";
import { databaseFailure } from "../../store/database-errors.js";

const STATUS_BY_KIND: Record<ErrorKind, number> = {
  invalid: 400,
  unauthenticated: 401,
  forbidden: 403,
  not_found: 404,
  conflict: 409,
  gone: 410,
  too_large: 413,
  rate_limited: 429,
  unavailable: 503,
};

/** Told to the caller when the database's (or the data directory's) disk is full. */
const STORAGE_FULL_MESSAGE =
  "The data disk is full: Sluice cannot store anything new. Events already accepted are kept. " +
  "Free space on the disk that holds the database (SLUICE_DATA_DIR, or the PostgreSQL server's), then try again";

export function sendError(reply: FastifyReply, status: number, code: string, message: string): FastifyReply {
  return reply.status(status).type("application/json; charset=utf-8").send({ error: { code, message } });
}

/** Answers an unrouted request itself (the web UI's history fallback), or returns undefined to leave it a 404. */
export type NotFoundFallback = (request: FastifyRequest, reply: FastifyReply) => FastifyReply | undefined;

export function installErrorHandling(
  app: FastifyInstance,
  bodyLimitBytes: number,
  fallback: NotFoundFallback = () => undefined,
): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof SluiceError) {
      if (error.kind === "rate_limited" && "retryAfterSeconds" in error) {
        reply.header("retry-after", String(error.retryAfterSeconds));
      }
      return sendError(reply, STATUS_BY_KIND[error.kind], error.code, error.message);
    }
    if (error.validation) {
      return sendError(reply, 400, "invalid_request", describeValidationError(error));
    }
    switch (error.code) {
      case "FST_ERR_CTP_BODY_TOO_LARGE":
        return sendError(
          reply,
          413,
          "payload_too_large",
          `The request body is larger than ${bodyLimitBytes} bytes`,
        );
      case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
        return sendError(reply, 415, "unsupported_media_type", "Send the body as application/json");
      case "FST_ERR_CTP_INVALID_JSON_BODY":
      case "FST_ERR_CTP_EMPTY_JSON_BODY":
        return sendError(reply, 400, "invalid_json", `The body is not valid JSON: ${error.message}`);
    }
    if (error instanceof SyntaxError || error.code === "FST_ERR_CTP_INVALID_CONTENT_LENGTH") {
      return sendError(reply, 400, "invalid_json", `The body is not valid JSON: ${error.message}`);
    }
    switch (databaseFailure(error)) {
      case "unavailable":
        // The server is fine, its database is not (yet) reachable.
        request.log.error({ err: error }, "database unavailable");
        reply.header("retry-after", "1");
        return sendError(
          reply,
          503,
          "database_unavailable",
          "The database is not reachable; try again shortly",
        );
      case "storage_full":
        request.log.error({ err: error }, "storage full");
        return sendError(reply, 507, "storage_full", STORAGE_FULL_MESSAGE);
    }
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      return sendError(reply, status, "invalid_request", error.message);
    }
    request.log.error({ err: error }, "unhandled error");
    return sendError(
      reply,
      500,
      "internal_error",
      `Internal error (request ${request.id}); the server log has the details`,
    );
  });

  app.setNotFoundHandler(
    (request, reply) =>
      fallback(request, reply) ??
      sendError(reply, 404, "route_not_found", `No route ${request.method} ${request.url.split("?")[0]}`),
  );
}

/** What Node's HTTP server passes with 'clientError': llhttp's code and reason, the bytes read. */
interface ClientError extends Error {
  readonly code?: string;
  readonly reason?: string;
  readonly rawPacket?: unknown;
}

/**
 * Requests Node's HTTP parser refuses before Fastify sees them (a malformed request line, bytes a
 * URL may not hold, a request head over the size limit) get the same JSON error shape as all
 * others; then the connection closes, as it must after HTTP framing went wrong.
 */
export function answerClientError(error: ClientError, socket: Socket): void {
  if (error.code === "ECONNRESET" || socket.destroyed) return;
  const [status, code, message] = clientErrorAnswer(error);
  const body = JSON.stringify({ error: { code, message } });
  // The answer to a HEAD has no body, even when the rest of the request could not be read.
  const head =
    Buffer.isBuffer(error.rawPacket) && error.rawPacket.subarray(0, 5).toString("latin1") === "HEAD ";
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? "" : body}`,
    );
  }
  socket.destroy(error);
}

function clientErrorAnswer(error: ClientError): [status: number, code: string, message: string] {
  if (error.code === "HPE_HEADER_OVERFLOW") {
    return [
      431,
      "headers_too_large",
      "The request line and headers are too large: send parameters in a JSON body",
    ];
  }
  if (error.code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return [408, "request_timeout", "The request did not arrive in time"];
  }
  // llhttp says what it could not parse in `reason` ("Invalid method encountered").
  return [400, "malformed_request", `The request is not valid HTTP: ${error.reason ?? error.message}`];
}

interface ValidationIssue {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** Ajv's first complaint, rephrased to name the parameter and what it should be. */
function describeValidationError(error: FastifyError): string {
  const issue = (error.validation as ValidationIssue[] | undefined)?.[0];
  if (!issue) return error.message;
  const where = error.validationContext === "params" ? "path parameter" : "parameter";
  const name = issue.instancePath.replace(/^\//, "").replaceAll("/", ".");
  if (issue.keyword === "required") {
    return `Missing required ${where} '${String(issue.params.missingProperty)}' (send it in the query string or the JSON body)`;
  }
  if (issue.keyword === "type" && name === "") return "The JSON body must be an object";
  if (issue.keyword === "enum") {
    return `${where} '${name}' must be one of ${(issue.params.allowedValues as unknown[]).join(", ")}`;
  }
  return `${where} '${name}' ${issue.message ?? "is invalid"}`;
}

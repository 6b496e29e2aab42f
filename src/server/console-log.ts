/**
 * The server's log: pino-pretty, one line per request, on a terminal; JSON elsewhere, one
 * `request completed` record per request (the `incoming request` record only at debug, as is a
 * source endpoint's answered hit: it is already stored as the source's invocation).
 */
import { type FastifyReply, type FastifyRequest, LogController } from "fastify";
import { destination, type Logger, pino } from "pino";
import pretty from "pino-pretty";
import type { ServerConfig } from "../config/server-config.js";

declare module "fastify" {
  interface FastifyContextConfig {
    /**
     * The route's answered requests are logged at level debug, its failures as any route's:
     * source endpoints, whose every hit is stored as an invocation.
     */
    quietLog?: boolean;
  }
}

const REDACT = ["req.headers.authorization", "req.headers.cookie"];

export function createServerLogger(config: ServerConfig, human: boolean): Logger {
  if (!human) {
    // Written asynchronously: the lines of many requests go out in one write, off the event
    // loop, instead of a synchronous write per line. pino writes out what is buffered when the
    // process exits, crash included; only a SIGKILL can lose the last lines.
    return pino({ level: config.logLevel, redact: REDACT }, destination({ dest: 1, sync: false }));
  }
  const stream = pretty({
    colorize: true,
    sync: true,
    translateTime: "HH:MM:ss.l",
    ignore: "pid,hostname,reqId",
    singleLine: true,
  });
  return pino({ level: config.logLevel, redact: REDACT }, stream);
}

/** Fastify's per-request log records, one per request (see the top of this file). */
export class RequestLog extends LogController {
  constructor(private readonly human: boolean) {
    super();
  }

  override incomingRequest(request: FastifyRequest): void {
    if (debugging(request)) {
      request.log.debug({ req: request }, "incoming request");
    }
  }

  override requestCompleted(
    error: Error | null | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): void {
    const status = reply.statusCode;
    const quiet = !error && status < 400 && request.routeOptions.config.quietLog === true;
    if (quiet && !debugging(request)) return;
    const path = request.url.split("?")[0] as string;
    const ms = reply.elapsedTime;
    if (this.human) {
      const level = quiet ? "debug" : error || status >= 500 ? "error" : status >= 400 ? "warn" : "info";
      request.log[level](`${request.method} ${path} ${status} ${Math.round(ms)} ms`);
    } else if (error) {
      reply.log.error(
        {
          req: { method: request.method, url: path },
          res: { statusCode: status },
          err: error,
          responseTime: ms,
        },
        "request errored",
      );
    } else {
      reply.log[quiet ? "debug" : "info"](
        { req: { method: request.method, url: path }, res: { statusCode: status }, responseTime: ms },
        "request completed",
      );
    }
  }
}

function debugging(request: FastifyRequest): boolean {
  return request.log.level === "debug" || request.log.level === "trace";
}

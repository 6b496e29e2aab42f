/**
 * The server's log. On a terminal it is for people: pino-pretty, coloured, one line per request
 * (`GET /v1/sources 200 4 ms`) instead of Fastify's two JSON records. Anywhere else (a file, a
 * pipe, a log collector) it stays JSON, one record per line, as before.
 */
import type { FastifyInstance } from "fastify";
import { type Logger, pino } from "pino";
import pretty from "pino-pretty";
import type { ServerConfig } from "../config/server-config.js";

const REDACT = ["req.headers.authorization", "req.headers.cookie"];

export function createServerLogger(config: ServerConfig, human: boolean): Logger {
  if (!human) return pino({ level: config.logLevel, redact: REDACT });
  const stream = pretty({
    colorize: true,
    sync: true,
    translateTime: "HH:MM:ss.l",
    ignore: "pid,hostname,reqId",
    singleLine: true,
  });
  return pino({ level: config.logLevel, redact: REDACT }, stream);
}

/** One line per answered request, for the human log (Fastify's own request logging is off then). */
export function installRequestLine(app: FastifyInstance): void {
  app.addHook("onResponse", async (request, reply) => {
    const path = request.url.split("?")[0];
    const level = reply.statusCode >= 500 ? "error" : reply.statusCode >= 400 ? "warn" : "info";
    request.log[level](`${request.method} ${path} ${reply.statusCode} ${Math.round(reply.elapsedTime)} ms`);
  });
}

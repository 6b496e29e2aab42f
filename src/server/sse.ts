/**
 * Server-sent events: `/sse/dc/{id}/emits` streams a source's events and `/observations` its log
 * lines; `/sse/p/{id}/emits` a workflow's events, each item in the REST shape with its id as the SSE id. A client that reconnects with
 * Last-Event-ID gets what it missed first. Wake-ups only say "something new"; the stream reads
 * what is new from the database, so nothing is skipped or sent twice. A comment every 15 s keeps
 * proxies from closing an idle stream. A draining node ends its streams when it stops listening.
 */
import type { ServerResponse } from "node:http";
import type { FastifyInstance } from "fastify";
import type { CoreContext } from "../core/context.js";
import { parseSequenceId, type SequenceId } from "../core/events/event-ids.js";
import { eventsAfter, logsAfter, newestEventId, newestLogId } from "../core/events/events.js";
import { emitsTopic, logsTopic } from "../core/events/topics.js";
import { getSource } from "../core/sources/sources.js";
import { getWorkflow } from "../core/workflows/workflows.js";
import type { Executor } from "../store/schema.js";
import { endWhenListeningStops } from "./drain.js";
import { errorResponse, idParams } from "./schemas.js";

export const KEEP_ALIVE_MS = 15_000;
const BATCH = 100;

const STREAM_HEADERS = {
  "content-type": "text/event-stream; charset=utf-8",
  "cache-control": "no-cache",
  "x-accel-buffering": "no",
} as const;

interface StreamKind {
  readonly topic: (id: string) => string;
  readonly newest: (db: Executor, id: string) => Promise<SequenceId>;
  readonly after: (db: Executor, id: string, after: SequenceId, limit: number) => Promise<{ id: string }[]>;
}

const emits: StreamKind = { topic: emitsTopic, newest: newestEventId, after: eventsAfter };
const observations: StreamKind = { topic: logsTopic, newest: newestLogId, after: logsAfter };

/** The streams, each with the emitter it belongs to (another account's is not found). */
const STREAMS: readonly {
  readonly path: string;
  readonly operationId: string;
  readonly summary: string;
  readonly kind: StreamKind;
  readonly owned: (context: CoreContext, accountId: string, id: string) => Promise<{ id: string }>;
}[] = [
  {
    path: "/sse/dc/:id/emits",
    operationId: "streamSourceEvents",
    summary: "Stream a source's events (SSE)",
    kind: emits,
    owned: getSource,
  },
  {
    path: "/sse/dc/:id/observations",
    operationId: "streamSourceLogs",
    summary: "Stream a source's log lines (SSE)",
    kind: observations,
    owned: getSource,
  },
  {
    path: "/sse/p/:id/emits",
    operationId: "streamWorkflowEvents",
    summary: "Stream a workflow's events: $.send.emit, $.send.sse ($sse:<channel>) and $errors (SSE)",
    kind: emits,
    owned: getWorkflow,
  },
];

/** What the OpenAPI document says a stream answers: the stream itself, or an error before it starts. */
const streamResponses = {
  200: {
    description: "A text/event-stream of items in the REST shape, each with its id as the SSE id",
    content: { "text/event-stream": { schema: { type: "string" } } },
  },
  400: errorResponse,
  401: errorResponse,
  404: errorResponse,
} as const;

export function sseRoutes(app: FastifyInstance, context: CoreContext): void {
  const open = new Set<ServerResponse>();
  // Streams never end by themselves; end them so that shutdown can finish.
  app.addHook("preClose", async () => {
    for (const response of open) response.end();
  });

  for (const { path, operationId, summary, kind, owned } of STREAMS) {
    app.get<{ Params: { id: string } }>(
      path,
      { schema: { operationId, summary, tags: ["events"], params: idParams, response: streamResponses } },
      async (request, reply) => {
        const source = await owned(context, request.account.id, request.params.id);
        const resumeFrom = request.headers["last-event-id"];
        let cursor =
          typeof resumeFrom === "string" && resumeFrom !== ""
            ? parseSequenceId(resumeFrom, "Last-Event-ID")
            : await kind.newest(context.store.db, source.id);

        // A HEAD gets the stream's headers and its end: it has no body to stream, and Node would
        // hold its headers back until a body write that never comes.
        if (request.method === "HEAD") return reply.headers(STREAM_HEADERS).send();

        reply.hijack();
        const response = reply.raw;
        response.writeHead(200, { ...STREAM_HEADERS, connection: "keep-alive" });
        response.write("retry: 2000\n\n");
        open.add(response);

        let pumping = false;
        let again = false;
        const pump = async (): Promise<void> => {
          if (pumping) {
            again = true;
            return;
          }
          pumping = true;
          try {
            do {
              again = false;
              const items = await kind.after(context.store.db, source.id, cursor, BATCH);
              for (const item of items) {
                response.write(`id: ${item.id}\ndata: ${JSON.stringify(item)}\n\n`);
                cursor = parseSequenceId(item.id);
              }
              if (items.length === BATCH) again = true;
            } while (again && !response.destroyed);
          } catch (error) {
            request.log.warn({ err: error }, "SSE stream could not read");
          } finally {
            pumping = false;
          }
        };
        const unsubscribe = context.store.notifier.subscribe(kind.topic(source.id), () => void pump());
        const keepAlive = setInterval(() => response.write(": keep-alive\n\n"), KEEP_ALIVE_MS);
        const forget = endWhenListeningStops(app.server, () => response.end());
        response.on("close", () => {
          clearInterval(keepAlive);
          unsubscribe();
          forget();
          open.delete(response);
        });
        await pump();
      },
    );
  }
}

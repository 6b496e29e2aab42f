/**
 * The web UI, served by the server itself: the files Vite built into dist/ui (`npm run build`).
 * Hashed assets under /assets/ are cached for a year (their names change with their content);
 * index.html is revalidated on every load. Client routes (/sources/dc_…, /webhooks, …) get
 * index.html through the not-found handler, but only for the UI's own top-level paths, so the
 * fallback can never shadow /v1, /e/, /sse/, /health or a future API route.
 */
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import fastifyStatic from "@fastify/static";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { NotFoundFallback } from "./plugins/errors.js";

/** dist/ui, from src/server (tests) and from dist/server (the built server) alike. */
export const UI_DIRECTORY = fileURLToPath(new URL("../../dist/ui/", import.meta.url));

/** The first path segments that belong to the UI's router (src/ui/routes.ts). */
const UI_SECTIONS = new Set([
  "",
  "signin",
  "sources",
  "webhooks",
  "workflows",
  "components",
  "apps",
  "keys",
  "accounts",
]);

function isUiPath(url: string): boolean {
  const path = url.split("?")[0] ?? "";
  const section = path.split("/")[1] ?? "";
  return UI_SECTIONS.has(section);
}

export async function installUi(app: FastifyInstance, directory = UI_DIRECTORY): Promise<NotFoundFallback> {
  const built = existsSync(`${directory}/index.html`);
  await app.register(fastifyStatic, { root: directory, serve: false, index: false, etag: true });
  app.get<{ Params: { "*": string } }>(
    "/assets/*",
    { config: { public: true, rateLimit: false }, schema: { hide: true } },
    (request, reply) =>
      reply
        .header("cache-control", "public, max-age=31536000, immutable")
        .sendFile(`assets/${request.params["*"]}`, { cacheControl: false }),
  );
  return (request: FastifyRequest, reply: FastifyReply) => {
    if (request.method !== "GET" && request.method !== "HEAD") return undefined;
    if (!isUiPath(request.url)) return undefined;
    if (!built) {
      return reply
        .code(503)
        .type("text/plain; charset=utf-8")
        .send("The web UI is not built: run `npm run build` (npm ci runs it), then restart the server.\n");
    }
    return reply.header("cache-control", "no-cache").sendFile("index.html", { cacheControl: false });
  };
}

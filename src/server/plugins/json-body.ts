/**
 * Request parameters may come in the query string (as Pipedream's docs show, often with a
 * `Content-Type: application/json` header and no body) or in a JSON body. An empty JSON body is
 * accepted, JSON nested too deep to pass on is refused, and before validation the query string is
 * merged under the body, so each route sees one parameter object and validates it with one schema.
 */
import type { FastifyInstance } from "fastify";
import { InvalidInputError } from "../../core/errors.js";
import { checkJsonDepth } from "../../core/validation.js";

export function installJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser("error", "error");
  // The API speaks JSON only; any other body is refused with 415. (Source endpoints, which take
  // any content, register their own parsers in their own context.)
  app.removeAllContentTypeParsers();
  app.addContentTypeParser("application/json", { parseAs: "string" }, (request, body, done) => {
    const text = typeof body === "string" ? body : body.toString("utf8");
    if (text.trim() === "") {
      done(null, undefined);
      return;
    }
    parseJson(request, text, (error, parsed) => {
      if (error) return done(error, undefined);
      try {
        checkJsonDepth(parsed, "The JSON body");
      } catch (tooDeep) {
        return done(tooDeep as Error, undefined);
      }
      done(null, parsed);
    });
  });

  installNulGuard(app);
  app.addHook("preValidation", async (request) => {
    if (!request.routeOptions.schema?.body) return;
    const query = (request.query ?? {}) as Record<string, unknown>;
    const body = request.body;
    if (body === undefined || body === null) {
      request.body = { ...query };
    } else if (typeof body === "object" && !Array.isArray(body)) {
      request.body = { ...query, ...body };
    } else {
      throw new InvalidInputError("The JSON body must be an object of parameters", "invalid_body");
    }
  });
}

/** PostgreSQL cannot store NUL in text, and no name, URL or id needs one: refuse it up front. */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook("preValidation", async (request) => {
    if (containsNul(request.params) || containsNul(request.query) || containsNul(request.body)) {
      throw new InvalidInputError("Parameters may not contain the NUL character (\\u0000)");
    }
  });
}

function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return value.includes("\u0000");
  if (value === null || typeof value !== "object" || depth > 32) return false;
  for (const [key, item] of Object.entries(value)) {
    if (key.includes("\u0000") || containsNul(item, depth + 1)) return true;
  }
  return false;
}

/**
 * The public registry and search: `POST /v1/registry/components` publishes publicly (Pipedream's
 * rules), `GET /v1/registry/components/{key}` reads a public key with its versions, `DELETE` of it
 * unpublishes and `POST …/{key}/deprecate` deprecates (publisher or admin only), and
 * `GET /v1/components?q=&app=&type=&registry=` searches the account's and the public registry.
 * Imports of Pipedream-layout packages are in registry-imports.ts.
 */
import type { FastifyInstance } from "fastify";
import { type ComponentSearch, type SearchResult, searchComponents } from "../../core/components/lookup.js";
import type { PublishInput } from "../../core/components/published.js";
import {
  deprecatePublic,
  type PublicComponent,
  publishPublic,
  readPublic,
  unpublishPublic,
} from "../../core/components/registry.js";
import type { CoreContext } from "../../core/context.js";
import {
  dataOf,
  epochSeconds,
  errorResponse,
  pageAnswer,
  pageOf,
  pageQueryWith,
  pathParams,
} from "../schemas.js";
import { routeGroup, type TaggedRoutes } from "./route-group.js";

export function publicView(published: PublicComponent) {
  return {
    id: published.componentId,
    key: published.key,
    version: published.version,
    registry: "public" as const,
    app: published.app,
    type: published.type,
    name: published.name,
    description: published.description,
    published_at: epochSeconds(published.publishedAt),
    deprecated: published.deprecatedAt !== null,
  };
}

function searchView(result: SearchResult) {
  return {
    id: result.id,
    key: result.key,
    version: result.version,
    registry: result.registry,
    app: result.app,
    type: result.type,
    name: result.name,
    description: result.description,
    published_at: epochSeconds(result.publishedAt),
    deprecated: result.deprecated,
  };
}

const listedSchema = {
  type: "object",
  additionalProperties: true,
  properties: {
    id: { type: "string", description: "sc_… of the published code" },
    key: { type: "string" },
    version: { type: "string" },
    registry: { type: "string", enum: ["public", "private"] },
    app: { type: ["string", "null"] },
    type: { type: "string", enum: ["source", "action"] },
    name: { type: "string" },
    description: { type: ["string", "null"] },
    published_at: { type: "integer", description: "epoch seconds" },
    deprecated: { type: "boolean" },
  },
} as const;

/** A public key's version with every version of the key. */
const publicDetailSchema = {
  ...listedSchema,
  properties: { ...listedSchema.properties, versions: { type: "array", items: listedSchema } },
} as const;

const keyParams = pathParams({
  key: { type: "string", maxLength: 400, description: "a public key, or key@version" },
});

const changedVersions = {
  200: dataOf({
    type: "object",
    properties: { key: { type: "string" }, versions: { type: "array", items: { type: "string" } } },
    additionalProperties: true,
  }),
} as const;

/** Registers the component search, then the server's public registry. */
export function registryRoutes(app: FastifyInstance, context: CoreContext): void {
  const route = routeGroup(app, "components");
  componentSearchRoute(route, context);
  publicRegistryRoutes(route, context);
}

/** Searching the account's published components and the public registry. */
function componentSearchRoute(route: TaggedRoutes, context: CoreContext): void {
  route.get<{ Querystring: ComponentSearch }>("/components", {
    operationId: "searchRegistryComponents",
    summary:
      "Search components: the latest version of each key, in the account's registry, the public one, or both",
    querystring: pageQueryWith({
      q: {
        type: "string",
        maxLength: 200,
        description: "words to find in the key, name or description",
      },
      app: { type: "string", maxLength: 200, description: "an app slug" },
      type: { type: "string", enum: ["source", "action"] },
      registry: { type: "string", enum: ["public", "private", "all"], default: "all" },
    }),
    response: { 200: pageOf(listedSchema) },
    handler: async (request) =>
      pageAnswer(await searchComponents(context, request.account.id, request.query), searchView),
  });
}

/** The public registry: publishing, reading, unpublishing and deprecating components. */
function publicRegistryRoutes(route: TaggedRoutes, context: CoreContext): void {
  route.post<{ Body: PublishInput }>("/registry/components", {
    operationId: "publishRegistryComponent",
    summary:
      "Publish a component in the server's public registry (key <app>-<kebab-name>, a greater semver version, a name and a description)",
    body: {
      type: "object",
      properties: {
        component_code: { type: "string" },
        component_url: { type: "string" },
        component_id: { type: "string", description: "a saved component (sc_…)" },
        filename: { type: "string" },
      },
    },
    response: {
      200: dataOf({
        ...listedSchema,
        properties: {
          ...listedSchema.properties,
          status: { type: "string", enum: ["published", "unchanged"] },
        },
      }),
      409: errorResponse,
    },
    handler: async (request) => {
      const result = await publishPublic(context, request.account, request.body);
      return {
        data: { ...publicView(result.published), status: result.created ? "published" : "unchanged" },
      };
    },
  });

  route.get<{ Params: { key: string } }>("/registry/components/:key", {
    operationId: "getRegistryComponent",
    summary: "Read a public component: key (its latest version) or key@version, with every version",
    params: keyParams,
    response: { 200: dataOf(publicDetailSchema) },
    handler: async (request) => {
      const { published, versions } = await readPublic(context, request.params.key);
      return { data: { ...publicView(published), versions: versions.map(publicView) } };
    },
  });

  route.delete<{ Params: { key: string } }>("/registry/components/:key", {
    operationId: "unpublishRegistryComponent",
    summary: "Unpublish every version of a public key, or one (key@version): its publisher or an admin",
    params: keyParams,
    response: changedVersions,
    handler: async (request) => ({
      data: { ...(await unpublishPublic(context, request.account, request.params.key)), deleted: true },
    }),
  });

  route.post<{ Params: { key: string }; Body: { deprecated?: boolean } | undefined }>(
    "/registry/components/:key/deprecate",
    {
      operationId: "deprecateRegistryComponent",
      summary:
        "Deprecate a public key or key@version (deprecated: false restores it): it runs where deployed, but is not offered for new deploys",
      params: keyParams,
      body: {
        type: ["object", "null"],
        properties: { deprecated: { type: "boolean", default: true } },
      },
      response: changedVersions,
      handler: async (request) => {
        const deprecated = request.body?.deprecated !== false;
        const changed = await deprecatePublic(context, request.account, request.params.key, deprecated);
        return { data: { ...changed, deprecated } };
      },
    },
  );
}

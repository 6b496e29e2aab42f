/** /v1/data_stores: an account's data stores (`ds_…`) and their records (read, write, delete keys). */

import type { FastifyInstance } from "fastify";
import type { CoreContext } from "../../core/context.js";
import {
  createDataStore,
  dataStoreRecords,
  deleteDataStore,
  getDataStore,
  listDataStores,
} from "../../core/data-stores/data-stores.js";
import { NotFoundError } from "../../core/errors.js";
import {
  dataOf,
  deletedAnswer,
  deletedResponse,
  errorResponse,
  idParams,
  listOf,
  pathParams,
} from "../schemas.js";
import { dataStoreView } from "../views/data-stores.js";
import { routeGroup, type TaggedRoutes } from "./route-group.js";

const storeSchema = {
  type: "object",
  properties: {
    id: { type: "string", description: "ds_…" },
    name: { type: "string" },
    created_at: { type: "integer" },
    record_count: { type: "integer" },
  },
} as const;

const recordSchema = {
  type: "object",
  properties: {
    key: { type: "string" },
    value: {},
    expires_at: { type: ["integer", "null"], description: "epoch seconds; null: never" },
  },
} as const;

const recordParams = pathParams({
  id: { type: "string", maxLength: 200 },
  key: { type: "string", maxLength: 1000 },
});

/** Registers /v1/data_stores: the stores, then their records. */
export function dataStoreRoutes(app: FastifyInstance, context: CoreContext): void {
  const route = routeGroup(app, "data stores");
  dataStoreListRoutes(route, context);
  dataStoreRecordRoutes(route, context);
}

/** Listing, creating and deleting data stores. */
function dataStoreListRoutes(route: TaggedRoutes, context: CoreContext): void {
  route.get("/data_stores", {
    operationId: "listDataStores",
    summary: "List the account's data stores",
    response: { 200: listOf(storeSchema) },
    handler: async (request) => ({
      data: (await listDataStores(context, request.account.id)).map(dataStoreView),
    }),
  });

  route.post<{ Body: { name?: unknown } }>("/data_stores", {
    operationId: "createDataStore",
    summary: "Create a data store",
    body: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    response: { 200: dataOf(storeSchema), 409: errorResponse },
    handler: async (request) => ({
      data: dataStoreView(await createDataStore(context, request.account.id, request.body.name)),
    }),
  });

  route.delete<{ Params: { id: string } }>("/data_stores/:id", {
    operationId: "deleteDataStore",
    summary: "Delete a data store and its records",
    params: idParams,
    response: { 200: deletedResponse },
    handler: async (request) =>
      deletedAnswer(await deleteDataStore(context, request.account.id, request.params.id)),
  });
}

/** A data store's records: all of them, and one by key (read, set with a ttl, delete). */
function dataStoreRecordRoutes(route: TaggedRoutes, context: CoreContext): void {
  route.get<{ Params: { id: string } }>("/data_stores/:id/records", {
    operationId: "listDataStoreRecords",
    summary: "Every live record of a data store (by ds_ id or name), by key",
    params: idParams,
    response: { 200: listOf(recordSchema) },
    handler: async (request) => {
      const store = await getDataStore(context, request.account.id, request.params.id);
      return { data: await dataStoreRecords(context, store.id).entries() };
    },
  });

  route.get<{ Params: { id: string; key: string } }>("/data_stores/:id/records/:key", {
    operationId: "getDataStoreRecord",
    summary: "One record",
    params: recordParams,
    response: { 200: dataOf(recordSchema) },
    handler: async (request) => {
      const store = await getDataStore(context, request.account.id, request.params.id);
      const records = dataStoreRecords(context, store.id);
      if (!(await records.has(request.params.key))) throw new NotFoundError("record", request.params.key);
      return { data: { key: request.params.key, value: await records.get(request.params.key) } };
    },
  });

  route.put<{ Params: { id: string; key: string }; Body: { value?: unknown; ttl?: unknown } }>(
    "/data_stores/:id/records/:key",
    {
      operationId: "putDataStoreRecord",
      summary: "Write a record (any JSON value, at most 64 KB), with an optional ttl in seconds",
      params: recordParams,
      body: { type: "object", properties: { value: {}, ttl: { type: "number" } }, required: ["value"] },
      response: {
        200: dataOf(recordSchema),
        409: errorResponse,
        413: errorResponse,
      },
      handler: async (request) => {
        const store = await getDataStore(context, request.account.id, request.params.id);
        const records = dataStoreRecords(context, store.id);
        await records.set(request.params.key, { value: request.body.value }, request.body.ttl);
        return { data: { key: request.params.key, value: await records.get(request.params.key) } };
      },
    },
  );

  route.delete<{ Params: { id: string; key: string } }>("/data_stores/:id/records/:key", {
    operationId: "deleteDataStoreRecord",
    summary: "Delete a record",
    params: recordParams,
    response: {
      200: dataOf({ type: "object", properties: { key: { type: "string" }, deleted: { type: "boolean" } } }),
    },
    handler: async (request) => {
      const store = await getDataStore(context, request.account.id, request.params.id);
      if (!(await dataStoreRecords(context, store.id).delete(request.params.key))) {
        throw new NotFoundError("record", request.params.key);
      }
      return { data: { key: request.params.key, deleted: true } };
    },
  });
}

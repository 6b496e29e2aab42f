/**
 * `data_store` props: the configured value names a store of the account (a `ds_` id, or a name,
 * created on first use) and is stored as its id. At run time the runner's calls are answered for
 * the stores of the invocation's own props only: a component cannot reach another store by
 * sending another id.
 */
import type { ComponentDefinition } from "../../runtime/component-definition.js";
import type { DataStoreHandler } from "../../runtime/sandbox/sandbox.js";
import type { CoreContext } from "../context.js";
import { SluiceError } from "../errors.js";
import { dataStoreRecords, resolveDataStoreProp } from "./data-stores.js";

/** The values with each data_store prop's store named by its `ds_` id (404 for another account's). */
export async function resolveDataStoreRefs(
  context: CoreContext,
  accountId: string,
  definition: ComponentDefinition,
  values: Record<string, unknown>,
): Promise<Record<string, unknown>> {
  const stores = definition.props.filter(
    (prop) => prop.type === "data_store" && typeof values[prop.name] === "string",
  );
  if (stores.length === 0) return values;
  const resolved = { ...values };
  for (const prop of stores) {
    resolved[prop.name] = (await resolveDataStoreProp(context, accountId, values[prop.name] as string)).id;
  }
  return resolved;
}

/** Answers data store calls for these stores; the error messages are for the component. */
export function dataStoreHandler(
  context: CoreContext,
  definition: ComponentDefinition,
  values: Record<string, unknown>,
): DataStoreHandler | undefined {
  const allowed = new Set(
    definition.props.filter((prop) => prop.type === "data_store").map((prop) => values[prop.name]),
  );
  if (allowed.size === 0) return undefined;
  return async (storeId, op, args) => {
    if (!allowed.has(storeId)) throw new Error("this data store is not one of the component's props");
    const records = dataStoreRecords(context, storeId);
    try {
      switch (op) {
        case "get":
          return await records.get(args.key);
        case "set":
          return await records.set(args.key, { json: String(args.json) }, args.ttl);
        case "setTtl":
          return await records.setTtl(args.key, args.ttl);
        case "has":
          return await records.has(args.key);
        case "delete":
          await records.delete(args.key);
          return undefined;
        case "keys":
          return await records.keys();
        case "entries":
          return (await records.entries()).map(({ key, value }) => ({ key, value }));
        case "clear":
          return await records.clear();
        default:
          throw new Error(`unknown data store operation '${op}'`);
      }
    } catch (error) {
      // Our own errors carry a message for the component; anything else stays in the server.
      if (error instanceof SluiceError) throw new Error(error.message);
      throw error;
    }
  };
}

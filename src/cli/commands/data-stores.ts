/** `sluice data-stores list|create|delete|records|get|set|unset`: the account's data stores (`ds_…`). */
import type { Command } from "commander";
import { type ApiCommandOptions, apiOptions, clientFor } from "../context.js";
import { printList, printRecord, UsageError } from "../output.js";

interface Store {
  id: string;
  name: string;
  record_count?: number;
}

interface StoreRecord {
  key: string;
  value: unknown;
  expires_at?: number | null;
}

const path = (store: string, key?: string) =>
  `/v1/data_stores/${encodeURIComponent(store)}${key === undefined ? "" : `/records/${encodeURIComponent(key)}`}`;

export function registerDataStores(program: Command): void {
  const stores = program.command("data-stores").description("data stores shared by data_store props");

  apiOptions(stores.command("list").description("list data stores")).action(
    async (options: ApiCommandOptions) => {
      const { client } = clientFor(options);
      const answer = await client.data<Store[]>("GET", "/v1/data_stores");
      printList(
        options,
        answer,
        [
          ["id", (store) => store.id],
          ["name", (store) => store.name],
          ["records", (store) => store.record_count ?? 0],
        ],
        "No data stores. A data_store prop configured with a name creates one.",
      );
    },
  );

  apiOptions(stores.command("create <name>").description("create a data store")).action(
    async (name: string, options: ApiCommandOptions) => {
      printRecord(
        options,
        await clientFor(options).client.data("POST", "/v1/data_stores", { body: { name } }),
      );
    },
  );

  apiOptions(stores.command("delete <store>").description("delete a data store and its records")).action(
    async (store: string, options: ApiCommandOptions) => {
      printRecord(options, await clientFor(options).client.data("DELETE", path(store)));
    },
  );

  apiOptions(
    stores.command("records <store>").description("every record of a store (by ds_ id or name)"),
  ).action(async (store: string, options: ApiCommandOptions) => {
    const records = await clientFor(options).client.data<StoreRecord[]>("GET", `${path(store)}/records`);
    printList(
      options,
      records,
      [
        ["key", (record) => record.key],
        ["value", (record) => JSON.stringify(record.value)],
        [
          "expires_at",
          (record) => (record.expires_at ? new Date(record.expires_at * 1000).toISOString() : ""),
        ],
      ],
      "The store is empty.",
    );
  });

  apiOptions(stores.command("get <store> <key>").description("one record's value")).action(
    async (store: string, key: string, options: ApiCommandOptions) => {
      printRecord(options, await clientFor(options).client.data("GET", path(store, key)));
    },
  );

  apiOptions(
    stores
      .command("set <store> <key> <json>")
      .description("write a record: a JSON value (text that is not JSON is stored as a string)")
      .option("--ttl <seconds>", "expire it after this many seconds"),
  ).action(
    async (store: string, key: string, json: string, options: ApiCommandOptions & { ttl?: string }) => {
      let value: unknown;
      try {
        value = JSON.parse(json);
      } catch {
        value = json;
      }
      const ttl = options.ttl === undefined ? undefined : Number(options.ttl);
      if (ttl !== undefined && !(ttl > 0)) throw new UsageError("--ttl takes a number of seconds");
      printRecord(
        options,
        await clientFor(options).client.data("PUT", path(store, key), {
          body: { value, ...(ttl ? { ttl } : {}) },
        }),
      );
    },
  );

  apiOptions(stores.command("unset <store> <key>").description("delete a record")).action(
    async (store: string, key: string, options: ApiCommandOptions) => {
      printRecord(options, await clientFor(options).client.data("DELETE", path(store, key)));
    },
  );
}

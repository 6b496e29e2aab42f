/** `sluice accounts create` (admin) and `sluice api-keys create|list|revoke`. */
import type { Command } from "commander";
import type { ApiKeyInfo } from "../../client/types.js";
import { type ApiCommandOptions, apiOptions, clientFor } from "../context.js";
import { type Column, fieldColumns, formatTime, printList, printOutcome, printRecord } from "../output.js";

const keyColumns: readonly Column<ApiKeyInfo>[] = [
  ...fieldColumns<ApiKeyInfo>("id", "name"),
  ["prefix", (key) => `${key.prefix}…`],
  ["created", (key) => formatTime(key.created_at)],
  ["last used", (key) => formatTime(key.last_used_at)],
];

export function registerAccounts(program: Command): void {
  const accounts = program.command("accounts").description("manage accounts (admin key required)");
  apiOptions(
    accounts.command("create <name>").description("create an account; its API key is shown once"),
  ).action(async (name: string, options: ApiCommandOptions) => {
    const { client } = clientFor(options);
    printRecord(
      options,
      await client.createAccount(name),
      "Give the api_key to the account's owner: it is shown only now.",
    );
  });

  const keys = program.command("api-keys").description("manage your account's API keys");
  apiOptions(
    keys
      .command("create")
      .description("create another API key; it is shown once")
      .option("--name <name>", "a label"),
  ).action(async (options: ApiCommandOptions & { name?: string }) => {
    const { client } = clientFor(options);
    printRecord(options, await client.createApiKey(options.name), "Keep the api_key: it is shown only now.");
  });
  apiOptions(keys.command("list").description("list active API keys")).action(
    async (options: ApiCommandOptions) => {
      const { client } = clientFor(options);
      printList(options, await client.listApiKeys(), keyColumns, "No API keys.");
    },
  );
  apiOptions(keys.command("revoke <id>").description("revoke an API key; it is refused from then on")).action(
    async (id: string, options: ApiCommandOptions) => {
      const { client } = clientFor(options);
      printOutcome(options, await client.revokeApiKey(id), `Revoked API key ${id}`);
    },
  );
}

/** `sluice webhooks create|list|get|delete`. */
import type { Command } from "commander";
import type { Webhook } from "../../client/types.js";
import { type ApiCommandOptions, apiOptions, clientFor } from "../context.js";
import { type Column, formatTime, printJson, printList, printRecord } from "../output.js";

const columns: readonly Column<Webhook>[] = [
  ["id", (webhook) => webhook.id],
  ["name", (webhook) => webhook.name],
  ["url", (webhook) => webhook.url],
  ["active", (webhook) => webhook.active],
  ["created", (webhook) => formatTime(webhook.created_at)],
];

export function registerWebhooks(program: Command): void {
  const webhooks = program.command("webhooks").description("manage the URLs that events are delivered to");

  apiOptions(
    webhooks
      .command("create")
      .description("create a webhook; its signing secret is shown once")
      .requiredOption("--url <url>", "http(s) URL to deliver events to")
      .requiredOption("--name <name>", "a name for your reference")
      .option("--description <text>", "a longer description"),
  ).action(async (options: ApiCommandOptions & { url: string; name: string; description?: string }) => {
    const { client } = clientFor(options);
    const webhook = await client.createWebhook({
      url: options.url,
      name: options.name,
      description: options.description,
    });
    printRecord(
      options,
      webhook,
      "Keep the signing_secret: it is shown only now. Receivers verify deliveries with it.",
    );
  });

  apiOptions(
    webhooks
      .command("list")
      .description("list webhooks, newest first")
      .option("-n, --limit <count>", "how many (1-100)", "100")
      .option("--after <cursor>", "page after this id"),
  ).action(async (options: ApiCommandOptions & { limit: string; after?: string }) => {
    const { client } = clientFor(options);
    const page = await client.listWebhooks({ limit: Number(options.limit), after: options.after });
    printList(
      options,
      page.data,
      columns,
      "No webhooks yet. Create one with: sluice webhooks create --url URL --name NAME",
    );
    const { total_count: total, count, end_cursor: cursor } = page.page_info;
    if (!options.json && total > count && count === Number(options.limit) && cursor) {
      process.stderr.write(
        `Showing ${count} of ${total}; the next page: sluice webhooks list --after ${cursor}\n`,
      );
    }
  });

  apiOptions(webhooks.command("get <id>").description("show one webhook")).action(
    async (id: string, options: ApiCommandOptions) => {
      const { client } = clientFor(options);
      printRecord(options, await client.getWebhook(id));
    },
  );

  apiOptions(webhooks.command("delete <id>").description("delete a webhook")).action(
    async (id: string, options: ApiCommandOptions) => {
      const { client } = clientFor(options);
      const deleted = await client.deleteWebhook(id);
      if (options.json) printJson(deleted);
      else process.stdout.write(`Deleted webhook ${id}\n`);
    },
  );
}

/**
 * `sluice webhooks create|list|get|update|rotate-secret|delete`, and (from deliveries.ts) the
 * delivery log: `webhooks deliveries` and `webhooks recover`.
 */
import type { Command } from "commander";
import type { Webhook, WebhookUpdate } from "../../client/types.js";
import { type ApiCommandOptions, apiOptions, clientFor } from "../context.js";
import { type Column, fieldColumns, formatTime, printOutcome, printRecord, UsageError } from "../output.js";
import { listCommand, pageParams } from "../paging.js";
import { addWebhookDeliveryCommands } from "./deliveries.js";

interface UpdateFlags extends ApiCommandOptions {
  active?: boolean;
  inactive?: boolean;
  name?: string;
  url?: string;
  description?: string;
  rateLimit?: string;
}

const columns: readonly Column<Webhook>[] = [
  ...fieldColumns<Webhook>("id", "name", "url"),
  // A webhook Sluice disabled says why (the column stays "active" for scripts reading the table).
  ["active", (webhook) => (webhook.disabled_reason ? `false: ${webhook.disabled_reason}` : webhook.active)],
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

  listCommand(
    webhooks.command("list").description("list webhooks, newest first"),
    "100",
    async (options) => ({
      page: await clientFor(options).client.listWebhooks(pageParams(options)),
      columns,
      empty: "No webhooks yet. Create one with: sluice webhooks create --url URL --name NAME",
      next: "sluice webhooks list",
    }),
  );

  apiOptions(webhooks.command("get <id>").description("show one webhook")).action(
    async (id: string, options: ApiCommandOptions) => {
      const { client } = clientFor(options);
      printRecord(options, await client.getWebhook(id));
    },
  );

  apiOptions(
    webhooks
      .command("update <id>")
      .description("change a webhook; --active re-enables one that Sluice disabled")
      .option("--active", "deliver to it (again)")
      .option("--inactive", "stop delivering to it; new events are not queued for it")
      .option("--name <name>", "a new name")
      .option("--url <url>", "a new http(s) URL")
      .option("--description <text>", "a new description")
      .option("--rate-limit <n>", "deliveries per second at most (per node), or 'none'"),
  ).action(async (id: string, options: UpdateFlags) => {
    const changes = webhookChanges(options);
    const { client } = clientFor(options);
    printRecord(options, await client.updateWebhook(id, changes));
  });

  apiOptions(
    webhooks
      .command("rotate-secret <id>")
      .description("give a webhook a new signing secret, shown once; for 24 h both secrets sign"),
  ).action(async (id: string, options: ApiCommandOptions) => {
    const { client } = clientFor(options);
    const rotated = await client.rotateWebhookSecret(id);
    printOutcome(
      options,
      rotated,
      `New signing secret of ${rotated.id}, shown only now:\n\n    ${rotated.signing_secret}\n\n` +
        "For the next 24 hours every delivery carries two v1 signatures, one under the previous secret " +
        "and one under this one: switch your receivers to it within that time.",
    );
  });

  addWebhookDeliveryCommands(webhooks);

  apiOptions(webhooks.command("delete <id>").description("delete a webhook")).action(
    async (id: string, options: ApiCommandOptions) => {
      const { client } = clientFor(options);
      printOutcome(options, await client.deleteWebhook(id), `Deleted webhook ${id}`);
    },
  );
}

function webhookChanges(options: UpdateFlags): WebhookUpdate {
  if (options.active && options.inactive) throw new UsageError("Give --active or --inactive, not both");
  const changes: WebhookUpdate = {};
  if (options.active) changes.active = true;
  if (options.inactive) changes.active = false;
  if (options.name !== undefined) changes.name = options.name;
  if (options.url !== undefined) changes.url = options.url;
  if (options.description !== undefined) changes.description = options.description;
  if (options.rateLimit !== undefined) {
    const text = options.rateLimit.trim().toLowerCase();
    if (text === "none") changes.rate_limit = null;
    else if (/^\d+$/.test(text)) changes.rate_limit = Number(text);
    else
      throw new UsageError(
        `--rate-limit takes a number of deliveries per second or 'none', got '${options.rateLimit}'`,
      );
  }
  if (Object.keys(changes).length === 0) {
    throw new UsageError(
      "Nothing to change: give --active, --inactive, --name, --url, --description or --rate-limit",
    );
  }
  return changes;
}

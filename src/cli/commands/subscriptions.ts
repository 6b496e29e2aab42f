/**
 * `sluice subscribe`, `sluice unsubscribe` and `sluice list subscriptions`: which webhooks get the
 * events of which emitter. The emitter is a `dc_` id or a source's name; the listener a `wh_` id.
 */
import type { Command } from "commander";
import type { SluiceClient } from "../../client/client.js";
import type { Subscription, SubscriptionParams } from "../../client/types.js";
import { type ApiCommandOptions, apiOptions, clientFor, commandGroup, parseCount } from "../context.js";
import { type Column, formatTime, printRecord, UsageError } from "../output.js";
import { listCommand } from "../paging.js";

interface SubscriptionFlags extends ApiCommandOptions {
  emitter: string;
  listener: string;
  eventName?: string;
}

const EVERY_CHANNEL = "(every channel)";

const columns: readonly Column<Subscription>[] = [
  ["id", (subscription) => subscription.id],
  ["emitter", (subscription) => subscription.emitter_id],
  ["listener", (subscription) => subscription.listener_id],
  ["event_name", (subscription) => subscription.event_name ?? EVERY_CHANNEL],
  ["created", (subscription) => formatTime(subscription.created_at)],
];

export function registerSubscriptions(program: Command): void {
  apiOptions(subscriptionCommand(program, "subscribe", "deliver an emitter's events to a webhook")).action(
    async (options: SubscriptionFlags) => {
      const { client } = clientFor(options);
      const subscription = await client.subscribe(await subscriptionParams(client, options));
      printRecord(
        options,
        readable(options, subscription),
        `Events of ${subscription.emitter_id}${channelNote(subscription)} are delivered to ${subscription.listener_id}.`,
      );
    },
  );

  apiOptions(
    subscriptionCommand(program, "unsubscribe", "stop delivering an emitter's events to a webhook"),
  ).action(async (options: SubscriptionFlags) => {
    const { client } = clientFor(options);
    const subscription = await client.unsubscribe(await subscriptionParams(client, options));
    printRecord(
      options,
      subscription,
      `Events of ${subscription.emitter_id}${channelNote(subscription)} are no longer delivered to ${subscription.listener_id}.`,
    );
  });

  const list = commandGroup(program, "list", "list resources of your account");
  listCommand(
    list.command("subscriptions").description("list which webhooks get which emitters' events"),
    "100",
    async (options) => {
      const limit = parseCount(options.limit);
      return {
        page: await clientFor(options).client.listSubscriptions({ limit, after: options.after }),
        columns,
        empty:
          "No subscriptions yet. Subscribe a webhook with: sluice subscribe --emitter SOURCE --listener WEBHOOK_ID",
        next: "sluice list subscriptions",
      };
    },
  );
}

function subscriptionCommand(program: Command, name: string, description: string): Command {
  return program
    .command(name)
    .description(description)
    .requiredOption("--emitter <source>", "the source: its dc_ id or its name")
    .requiredOption("--listener <webhook>", "the webhook's wh_ id")
    .option(
      "--event-name <channel>",
      "only this channel ($default: the default one); every channel without it",
    );
}

/** The API's parameters, with a source's name resolved to its dc_ id. */
async function subscriptionParams(
  client: SluiceClient,
  options: SubscriptionFlags,
): Promise<SubscriptionParams> {
  if (options.emitter.trim() === "") throw new UsageError("--emitter needs a source's dc_ id or name");
  if (options.listener.trim() === "") throw new UsageError("--listener needs a webhook's wh_ id");
  const emitterId = /^(dc|p)_/.test(options.emitter)
    ? options.emitter
    : (await client.getSource(options.emitter)).id;
  return { emitter_id: emitterId, listener_id: options.listener, event_name: options.eventName };
}

/** The subscription as printed: the API's data with --json, else with readable values. */
function readable(options: ApiCommandOptions, subscription: Subscription): object {
  if (options.json) return subscription;
  return {
    ...subscription,
    event_name: subscription.event_name ?? EVERY_CHANNEL,
    created_at: formatTime(subscription.created_at),
  };
}

function channelNote(subscription: Subscription): string {
  return subscription.event_name === null ? "" : ` (channel ${subscription.event_name})`;
}

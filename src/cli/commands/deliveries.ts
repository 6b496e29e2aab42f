/**
 * The delivery log from the command line: `sluice webhooks deliveries ID`, `sluice webhooks
 * recover ID --since T`, `sluice deliveries get ID` (with its attempts) and `sluice deliveries
 * retry ID`.
 */
import Table from "cli-table3";
import type { Command } from "commander";
import type { Delivery, DeliveryAttempt, DeliveryStatus } from "../../client/types.js";
import { type ApiCommandOptions, apiOptions, clientFor, parseCount } from "../context.js";
import { type Column, formatTime, printJson, printOutcome, printRecord, UsageError } from "../output.js";
import { listCommand, type PageFlags } from "../paging.js";

const STATUSES: readonly DeliveryStatus[] = ["pending", "delivered", "failed"];

const deliveryColumns: readonly Column<Delivery>[] = [
  ["id", (delivery) => delivery.id],
  [
    "event",
    (delivery) => (delivery.channel ? `${delivery.event_id} [${delivery.channel}]` : delivery.event_id),
  ],
  ["status", (delivery) => delivery.status],
  ["attempts", (delivery) => delivery.attempts],
  ["last status", (delivery) => delivery.last_status_code],
  ["latency", (delivery) => milliseconds(delivery.last_latency_ms)],
  ["error", (delivery) => clip(delivery.last_error, 60)],
  ["next attempt", (delivery) => formatTime(delivery.next_attempt_at)],
];

const attemptColumns: readonly Column<DeliveryAttempt>[] = [
  ["attempt", (attempt) => attempt.attempt],
  ["at", (attempt) => formatTime(attempt.at)],
  ["status", (attempt) => attempt.status_code],
  ["latency", (attempt) => milliseconds(attempt.latency_ms)],
  ["error", (attempt) => clip(attempt.error, 60)],
  ["response", (attempt) => clip(attempt.response_body, 40)],
];

/** `webhooks deliveries` and `webhooks recover`, added to the `webhooks` group. */
export function addWebhookDeliveryCommands(webhooks: Command): void {
  listCommand(
    webhooks
      .command("deliveries <id>")
      .description("a webhook's delivery log, newest first")
      .option("--status <status>", "only pending, delivered or failed deliveries"),
    "20",
    async (options: PageFlags & { status?: string }, id: string) => {
      const limit = parseCount(options.limit);
      const status = options.status;
      if (status !== undefined && !STATUSES.includes(status as DeliveryStatus)) {
        throw new UsageError(`--status takes pending, delivered or failed, got '${status}'`);
      }
      const { client } = clientFor(options);
      return {
        page: await client.listDeliveries(id, {
          limit,
          after: options.after,
          status: status as DeliveryStatus | undefined,
        }),
        columns: deliveryColumns,
        empty: status ? `No ${status} deliveries for ${id}.` : `No deliveries for ${id} yet.`,
        next: `sluice webhooks deliveries ${id}${status ? ` --status ${status}` : ""}`,
      };
    },
  );

  apiOptions(
    webhooks
      .command("recover <id>")
      .description("resend every failed delivery of a webhook created since a time")
      .requiredOption("--since <time>", "epoch seconds or an ISO 8601 time, such as 2026-11-21T00:00:00Z"),
  ).action(async (id: string, options: ApiCommandOptions & { since: string }) => {
    const since = parseSince(options.since);
    const { client } = clientFor(options);
    const recovered = await client.recoverWebhook(id, since);
    const plural = recovered.resent === 1 ? "delivery" : "deliveries";
    printOutcome(
      options,
      recovered,
      `Resent ${recovered.resent} failed ${plural} of ${id} created since ${formatTime(since)}.`,
    );
  });
}

/** `sluice deliveries get|retry`. */
export function registerDeliveries(program: Command): void {
  const deliveries = program.command("deliveries").description("inspect and resend webhook deliveries");

  apiOptions(deliveries.command("get <id>").description("show one delivery and its attempts")).action(
    async (id: string, options: ApiCommandOptions) => {
      const { client } = clientFor(options);
      const delivery = await client.getDelivery(id);
      if (options.json) {
        printJson(delivery);
        return;
      }
      const { attempt_log: attempts, ...record } = delivery;
      printRecord(options, {
        ...record,
        next_attempt_at: formatTime(record.next_attempt_at),
        created_at: formatTime(record.created_at),
        updated_at: formatTime(record.updated_at),
      });
      if (attempts.length === 0) {
        process.stdout.write("No attempts yet.\n");
        return;
      }
      const table = new Table({ head: attemptColumns.map(([header]) => header) });
      for (const attempt of attempts) table.push(attemptColumns.map(([, value]) => cell(value(attempt))));
      process.stdout.write(`Attempts:\n${table.toString()}\n`);
    },
  );

  apiOptions(
    deliveries
      .command("retry <id>")
      .description("send a delivered or failed delivery again now (one attempt)"),
  ).action(async (id: string, options: ApiCommandOptions) => {
    const { client } = clientFor(options);
    const delivery = await client.retryDelivery(id);
    printOutcome(
      options,
      delivery,
      `Resending delivery ${delivery.id} to ${delivery.webhook_id} (one attempt); ` +
        `see the outcome with: sluice deliveries get ${delivery.id}`,
    );
  });
}

/**
 * `--since` as epoch seconds: digits are epoch seconds, anything else must be an ISO 8601 date or
 * time. A date or time without an offset is UTC, as every time the CLI prints is.
 */
export function parseSince(text: string): number {
  const value = text.trim();
  if (/^\d+$/.test(value)) {
    if (value.length >= 12) {
      throw new UsageError(
        `--since ${value} looks like epoch milliseconds; give epoch seconds (${value.slice(0, -3)}) or an ISO 8601 time`,
      );
    }
    return Number(value);
  }
  const iso = /^(\d{4}-\d{2}-\d{2})(?:[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)(Z|[+-]\d{2}:\d{2})?)?$/i.exec(
    value,
  );
  const parsed =
    iso?.[1] && realDate(iso[1])
      ? Date.parse(`${iso[1]}T${iso[2] ?? "00:00"}${(iso[3] ?? "Z").toUpperCase()}`)
      : Number.NaN;
  if (Number.isNaN(parsed)) {
    throw new UsageError(
      `--since '${text}' is neither epoch seconds nor an ISO 8601 time; use, say, 1795219200 or 2026-11-21T00:00:00Z`,
    );
  }
  return Math.floor(parsed / 1000);
}

/** A calendar date that exists: not 2026-02-30, which Date.parse would roll over to March. */
function realDate(date: string): boolean {
  const [year, month, day] = date.split("-").map(Number) as [number, number, number];
  return new Date(Date.UTC(year, month - 1, day)).toISOString().startsWith(date);
}

function milliseconds(value: number | null): string {
  return value === null ? "" : `${value} ms`;
}

function clip(text: string | null, length: number): string | null {
  if (text === null) return null;
  const line = text.replace(/\s+/g, " ");
  return line.length > length ? `${line.slice(0, length - 1)}…` : line;
}

function cell(value: unknown): string {
  return value === null || value === undefined ? "" : String(value);
}

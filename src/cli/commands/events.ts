/**
 * `sluice events SOURCE` and `sluice logs SOURCE`: the latest items oldest first, and with -f the
 * live stream after them (resumed right after the last item printed, so nothing in between is
 * lost) until Ctrl-C, SIGINT or SIGTERM, which end the command with status 0.
 */
import type { Command } from "commander";
import type { SluiceClient } from "../../client/client.js";
import type { EventSummary, LogEntry, PageOf } from "../../client/types.js";
import { type ApiCommandOptions, apiOptions, clientFor, parseCount } from "../context.js";
import { printJson } from "../output.js";
import { eventLine, logLine } from "../source-output.js";

interface StreamFlags extends ApiCommandOptions {
  limit: string;
  follow?: boolean;
}

/** Before the first item of a stream: everything after it is new. */
const BEFORE_EVERYTHING = "0-0";

export function registerEvents(program: Command): void {
  addStreamCommand<EventSummary>(program, {
    usage: "events <source>",
    description: "show a source's latest events (by dc_ id or name), oldest first; -f follows new ones",
    limitHelp: "how many of the latest events (1-100)",
    defaultLimit: "10",
    followHelp: "then print each new event as it is emitted, until Ctrl-C",
    latest: (client, ref, limit) => client.listEvents(ref, { limit, expand: "event" }),
    stream: "emits",
    line: eventLine,
    none: "No events yet.",
    what: "events",
  });
  addStreamCommand<LogEntry>(program, {
    usage: "logs <source>",
    description: "show a source's latest log lines (by dc_ id or name), oldest first; -f follows new ones",
    limitHelp: "how many of the latest lines (1-100)",
    defaultLimit: "50",
    followHelp: "then print each new line as it is logged, until Ctrl-C",
    latest: (client, ref, limit) => client.listLogs(ref, { limit }),
    stream: "observations",
    line: logLine,
    none: "No logs yet.",
    what: "logs",
  });
}

/** `events` and `logs`: the same command over another stream of the source. */
interface StreamCommand<T> extends Omit<Shown<T>, "ref" | "newestFirst"> {
  readonly usage: string;
  readonly description: string;
  readonly limitHelp: string;
  readonly defaultLimit: string;
  readonly followHelp: string;
  /** The latest items, newest first, as the API lists them. */
  readonly latest: (client: SluiceClient, ref: string, limit: number) => Promise<PageOf<T>>;
}

function addStreamCommand<T extends EventSummary | LogEntry>(program: Command, spec: StreamCommand<T>): void {
  apiOptions(
    program
      .command(spec.usage)
      .description(spec.description)
      .option("-n, --limit <count>", spec.limitHelp, spec.defaultLimit)
      .option("-f, --follow", spec.followHelp),
  ).action(async (ref: string, options: StreamFlags) => {
    const limit = parseCount(options.limit);
    const { client } = clientFor(options);
    const page = await spec.latest(client, ref, limit);
    await show(client, options, { ...spec, ref, newestFirst: page.data });
  });
}

interface Shown<T> {
  readonly ref: string;
  /** The latest items as the API lists them. */
  readonly newestFirst: T[];
  readonly stream: "emits" | "observations";
  readonly line: (item: T) => string;
  readonly none: string;
  readonly what: string;
}

/**
 * Without -f, --json prints the API's array as it is. With -f it prints JSON Lines instead (one
 * compact item per line, oldest first), which a script can read as they arrive.
 */
async function show<T extends EventSummary | LogEntry>(
  client: SluiceClient,
  options: StreamFlags,
  shown: Shown<T>,
): Promise<void> {
  if (options.json && !options.follow) {
    printJson(shown.newestFirst);
    return;
  }
  const print = (item: T) =>
    process.stdout.write(`${options.json ? JSON.stringify(item) : shown.line(item)}\n`);
  const oldestFirst = [...shown.newestFirst].reverse();
  for (const item of oldestFirst) print(item);
  if (!options.follow) {
    if (oldestFirst.length === 0) process.stdout.write(`${shown.none}\n`);
    return;
  }
  await followUntilSignal(client, `/sse/dc/${encodeURIComponent(shown.ref)}/${shown.stream}`, print, {
    lastEventId: shown.newestFirst[0]?.id ?? BEFORE_EVERYTHING,
    following: `Following ${shown.what} of ${shown.ref}; press Ctrl-C to stop.`,
  });
}

async function followUntilSignal<T extends { id: string }>(
  client: SluiceClient,
  path: string,
  onItem: (item: T) => void,
  options: { lastEventId: string; following: string },
): Promise<void> {
  const controller = new AbortController();
  const stop = () => controller.abort();
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  let announced = false;
  try {
    await client.follow<T>(path, onItem, controller.signal, {
      lastEventId: options.lastEventId,
      onOpen: () => {
        if (announced) return;
        announced = true;
        process.stderr.write(`${options.following}\n`);
      },
    });
  } finally {
    process.off("SIGINT", stop);
    process.off("SIGTERM", stop);
  }
}

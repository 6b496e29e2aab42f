/**
 * `sluice dev FILE [--dc ID]`: deploy a source file (or attach to a deployed source), then
 * redeploy it to the same `dc_` id on every save of the file or of a file it imports, and stream
 * its events and logs to the terminal. A save that does not compile prints the error and leaves
 * the last good version running. Ctrl-C leaves the source deployed and says how to delete it.
 */
import fs from "node:fs";
import path from "node:path";
import type { Command } from "commander";
import { ApiError, type SluiceClient } from "../../client/client.js";
import type { EventSummary, LogEntry } from "../../client/types.js";
import { bundleComponentFile } from "../bundle-file.js";
import { type ApiCommandOptions, apiOptions, clientFor } from "../context.js";
import { UsageError } from "../output.js";
import { collectProp, configuredPropsFrom } from "../props.js";
import { eventLine, logLine } from "../source-output.js";
import { printRun } from "./run-action.js";

interface DevFlags extends ApiCommandOptions {
  dc?: string;
  prop?: string[];
  propsFile?: string;
  name?: string;
}

/** Saves come in bursts (editors write a file in several steps): wait for quiet first. */
const SETTLE_MS = 80;

export function registerDev(program: Command): void {
  apiOptions(
    program
      .command("dev <file>")
      .description("deploy a source file and redeploy it on every save, streaming its events and logs")
      .option("--dc <id>", "attach to this deployed source (dc_ id or name) instead of deploying a new one")
      .option("--name <name>", "name of the new source")
      .option("--prop <key=value>", "a configured prop (repeatable)", collectProp)
      .option("--props-file <file>", "a JSON object of prop values"),
  ).action(async (file: string, options: DevFlags) => {
    const entry = path.resolve(file);
    if (!fs.existsSync(entry)) throw new UsageError(`No such file: ${file}`);
    const { client } = clientFor(options);
    const props = configuredPropsFrom(options.prop, options.propsFile);
    const say = (line: string) => process.stdout.write(`${line}\n`);

    const first = await bundleComponentFile(entry);
    const saved = await client.saveComponent({ component_code: first.code, filename: first.filename });
    if (saved.type === "action") {
      if (options.dc)
        throw new UsageError("--dc attaches to a deployed source; an action is run, not deployed");
      await developAction(client, entry, first.files, props, say);
      return;
    }
    const source = options.dc
      ? await client.updateSource(options.dc, { component_id: saved.id, configured_props: props })
      : await client.deploySource({ component_id: saved.id, configured_props: props, name: options.name });
    say(
      `${options.dc ? "Updated" : "Deployed"} ${source.id} (${source.name_slug})${source.endpoint_url ? `  endpoint: ${source.endpoint_url}` : ""}`,
    );

    const stop = new AbortController();
    // A new source's streams start at its beginning, so what its deploy hooks did is shown too.
    const from = options.dc ? {} : { lastEventId: "0-0" };
    const streams = [
      client.follow<EventSummary>(
        `/sse/dc/${source.id}/emits`,
        (item) => say(`event  ${eventLine(item)}`),
        stop.signal,
        from,
      ),
      client.follow<LogEntry>(
        `/sse/dc/${source.id}/observations`,
        (entry) => say(`log    ${logLine(entry)}`),
        stop.signal,
        from,
      ),
    ];
    const watched = { files: first.files };
    const watcher = watchFiles(first.files, () => redeploy(client, entry, source.id, say, watcher, watched));
    say(`Watching ${first.files.length} file(s) for changes. Ctrl-C to stop.`);

    await new Promise<void>((resolve) => {
      const finish = () => resolve();
      process.once("SIGINT", finish);
      process.once("SIGTERM", finish);
    });
    watcher.close();
    stop.abort();
    await Promise.allSettled(streams);
    say(`\nStopped watching. ${source.id} is still deployed; delete it with: sluice delete ${source.id}`);
  });
}

/**
 * An action is not deployed: it runs once now and again on every save, with the same props, and
 * each run's return value, exports, summary and logs are printed. (Pipedream cannot do this: its
 * issue #1437.)
 */
async function developAction(
  client: SluiceClient,
  entry: string,
  files: readonly string[],
  props: Record<string, unknown>,
  say: (line: string) => void,
): Promise<void> {
  const watched = { files };
  let running: Promise<void> = Promise.resolve();
  const runOnce = (bundled?: Awaited<ReturnType<typeof bundleComponentFile>>) => {
    running = running.then(async () => {
      try {
        const code = bundled ?? (await bundleComponentFile(entry));
        watched.files = code.files;
        watcher.update(code.files);
        say(`\nRunning ${path.basename(entry)}…`);
        printRun(
          await client.runAction({
            component_code: code.code,
            filename: code.filename,
            configured_props: props,
          }),
        );
      } catch (error) {
        const message =
          error instanceof ApiError || error instanceof UsageError ? error.message : String(error);
        say(`Not run: ${message}`);
        watcher.update(watched.files);
      }
    });
  };
  const watcher = watchFiles(files, () => runOnce());
  say(`Watching ${files.length} file(s): the action runs on every save. Ctrl-C to stop.`);
  runOnce();
  await new Promise<void>((resolve) => {
    process.once("SIGINT", () => resolve());
    process.once("SIGTERM", () => resolve());
  });
  watcher.close();
  await running;
  say("\nStopped watching.");
}

interface FileWatcher {
  /** Watches exactly these files from now on (the imports may have changed). */
  update(files: readonly string[]): void;
  close(): void;
}

function watchFiles(initial: readonly string[], onChange: () => void): FileWatcher {
  const watchers = new Map<string, fs.FSWatcher>();
  let timer: NodeJS.Timeout | undefined;
  const changed = () => {
    if (timer) clearTimeout(timer);
    timer = setTimeout(onChange, SETTLE_MS);
  };
  const update = (files: readonly string[]) => {
    const wanted = new Set(files);
    for (const [file, watcher] of watchers) {
      if (!wanted.has(file)) {
        watcher.close();
        watchers.delete(file);
      }
    }
    // Editors often replace a file rather than write it, so each save re-arms its watcher.
    for (const file of wanted) {
      watchers.get(file)?.close();
      try {
        watchers.set(file, fs.watch(file, changed));
      } catch {
        // The file vanished mid-save; the next bundle says so.
      }
    }
  };
  update(initial);
  return {
    update,
    close() {
      if (timer) clearTimeout(timer);
      for (const watcher of watchers.values()) watcher.close();
      watchers.clear();
    },
  };
}

let redeploying: Promise<void> = Promise.resolve();

/** One redeploy at a time, in save order. */
function redeploy(
  client: SluiceClient,
  entry: string,
  sourceId: string,
  say: (line: string) => void,
  watcher: FileWatcher,
  watched: { files: readonly string[] },
): void {
  redeploying = redeploying.then(async () => {
    const started = Date.now();
    try {
      const bundled = await bundleComponentFile(entry);
      watched.files = bundled.files;
      watcher.update(bundled.files);
      await client.updateSource(sourceId, { component_code: bundled.code, filename: bundled.filename });
      say(`Redeployed ${sourceId} in ${Date.now() - started} ms`);
    } catch (error) {
      const message =
        error instanceof ApiError || error instanceof UsageError ? error.message : String(error);
      say(`Not redeployed, the last good version keeps running: ${message}`);
      watcher.update(watched.files);
    }
  });
}

/** The options every API command takes, and the client they configure. */
import type { Command } from "commander";
import { SluiceClient } from "../client/client.js";
import { type CliConfig, type CliFlags, loadCliConfig } from "../config/cli-config.js";
import { UsageError } from "./output.js";

export interface ApiCommandOptions extends CliFlags {
  json?: boolean;
}

/** Adds --profile, --api-key, --base-url and --json to a command that talks to a server. */
export function apiOptions(command: Command): Command {
  return command
    .option("--profile <name>", "profile in ~/.config/sluice/config (default: SLUICE_PROFILE or 'default')")
    .option("--api-key <key>", "API key (default: SLUICE_API_KEY or the profile's)")
    .option(
      "--base-url <url>",
      "server URL (default: SLUICE_BASE_URL, the profile's, or http://127.0.0.1:8080)",
    )
    .option("--json", "print the API's data as JSON");
}

export function clientFor(options: ApiCommandOptions): { client: SluiceClient; config: CliConfig } {
  const config = loadCliConfig(options);
  if (!config.apiKey) {
    throw new UsageError(
      `No API key for profile '${config.profile}'. Log in with 'sluice login --api-key <key>' or set SLUICE_API_KEY.`,
    );
  }
  return { client: new SluiceClient({ baseUrl: config.baseUrl, apiKey: config.apiKey }), config };
}

/** A page size (`-n`) from 1 to 100. */
export function parseCount(text: string): number {
  const count = /^\d+$/.test(text.trim()) ? Number(text) : Number.NaN;
  if (!(count >= 1 && count <= 100)) throw new UsageError(`-n takes a count from 1 to 100, got '${text}'`);
  return count;
}

/** The command group `name` (`sluice list`, `sluice registry`), made by whichever file adds to it first. */
export function commandGroup(program: Command, name: string, description: string): Command {
  return (
    program.commands.find((command) => command.name() === name) ??
    program.command(name).description(description)
  );
}

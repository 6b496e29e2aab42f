/** `sluice login` and `sluice whoami`: store a key in a profile, and show whose key is in use. */
import type { Command } from "commander";
import { ApiError, SluiceClient } from "../../client/client.js";
import { DEFAULT_BASE_URL, loadCliConfig, saveProfile } from "../../config/cli-config.js";
import { type ApiCommandOptions, apiOptions, clientFor } from "../context.js";
import { printRecord, UsageError } from "../output.js";

export function registerLogin(program: Command): void {
  program
    .command("login")
    .description("save an API key (and server URL) in ~/.config/sluice/config")
    .requiredOption("--api-key <key>", "the API key")
    .option("--base-url <url>", `server URL (default ${DEFAULT_BASE_URL})`)
    .option("--profile <name>", "profile to write (default 'default')")
    .option("--json", "print the account as JSON")
    .action(async (options: ApiCommandOptions & { apiKey: string }) => {
      const current = loadCliConfig({ profile: options.profile });
      const baseUrl = (options.baseUrl ?? current.baseUrl).replace(/\/+$/, "");
      if (!/^https?:\/\//.test(baseUrl))
        throw new UsageError(`--base-url must be an http(s) URL, got '${baseUrl}'`);
      const client = new SluiceClient({ baseUrl, apiKey: options.apiKey });
      let account: { id: string; name: string } | undefined;
      try {
        account = await client.me();
      } catch (error) {
        // A key the server refuses is not saved; an unreachable server is not the key's fault.
        if (!(error instanceof ApiError) || error.status !== 0) throw error;
        process.stderr.write(`Warning: ${error.message}; saving the key without checking it.\n`);
      }
      saveProfile(current.file, current.profile, { api_key: options.apiKey, base_url: baseUrl });
      const saved = `Saved profile '${current.profile}' in ${current.file}`;
      if (options.json)
        printRecord(options, { profile: current.profile, base_url: baseUrl, account: account ?? null });
      else
        process.stdout.write(
          account ? `Logged in to ${baseUrl} as ${account.name} (${account.id}). ${saved}\n` : `${saved}\n`,
        );
    });

  apiOptions(program.command("whoami").description("show the account of the API key in use")).action(
    async (options: ApiCommandOptions) => {
      const { client, config } = clientFor(options);
      const me = await client.me();
      printRecord(options, { ...me, base_url: config.baseUrl, profile: config.profile });
    },
  );
}

/**
 * `sluice connections connect --app SLUG`: connects an account of an OAuth app. The server returns
 * the provider's authorize URL; the person opens it in a browser, and the command follows the
 * attempt until the provider's callback has connected the account (or failed, or expired).
 */
import type { Command } from "commander";
import { appsApi, type OAuthConnection } from "../client/apps-client.js";
import { type ApiCommandOptions, apiOptions, clientFor } from "./context.js";
import { printRecord, UsageError } from "./output.js";

const POLL_MS = 1000;

/** Waits until the person has been through the provider; resolves with the connected account's id. */
export async function followOAuthConnection(
  api: ReturnType<typeof appsApi>,
  started: OAuthConnection,
): Promise<string> {
  process.stderr.write("Waiting for the provider to send you back…\n");
  let connection = started;
  while (connection.status === "pending") {
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    connection = await api.getOAuthConnection(started.id);
  }
  if (connection.status !== "connected" || connection.connected_account_id === null) {
    throw new UsageError(
      connection.status === "expired"
        ? "The link expired before the connection was made; run the command again"
        : `Connecting ${connection.app} failed: ${connection.error ?? "unknown error"}`,
    );
  }
  return connection.connected_account_id;
}

export interface ConnectOptions extends ApiCommandOptions {
  app: string;
  name?: string;
  reconnect?: string;
  wait: boolean;
}

export function registerOAuthConnect(
  connections: Command,
  fieldsOf: (options: { field: string[]; fieldsFile?: string }) => Record<string, string | number | boolean>,
): void {
  apiOptions(
    connections
      .command("connect")
      .description("connect an account of an OAuth app: open the URL it prints in a browser")
      .requiredOption("--app <slug>", "the OAuth app's name slug")
      .option("--name <name>", "a name for your reference")
      .option("--reconnect <apn_id>", "reconnect this connected account (after its token was revoked)")
      .option(
        "--field <name=value>",
        "one of the app's custom fields (repeat)",
        (value: string, previous: string[]) => [...previous, value],
        [],
      )
      .option("--fields-file <file>", "the custom fields as a JSON or YAML object")
      .option("--no-wait", "print the URL and exit; follow it with `sluice connections status <oac_id>`"),
  ).action(async (options: ConnectOptions & { field: string[]; fieldsFile?: string }) => {
    const api = appsApi(clientFor(options).client);
    const fields = fieldsOf(options);
    const started = await api.startOAuthConnection({
      app: options.app,
      ...(options.name ? { name: options.name } : {}),
      ...(Object.keys(fields).length > 0 ? { fields } : {}),
      ...(options.reconnect ? { connected_account_id: options.reconnect } : {}),
    });
    process.stderr.write(
      `Open this URL in a browser to connect ${options.app} (it works once, until ${started.expires_at}):\n\n  ${started.authorize_url}\n\n`,
    );
    if (!options.wait) {
      printRecord(options, started);
      return;
    }
    const account = await api.getConnectedAccount(await followOAuthConnection(api, started));
    printRecord(
      options,
      account,
      `Use it in an app prop: --prop '${account.app}={"authProvisionId":"${account.id}"}'`,
    );
  });

  apiOptions(
    connections
      .command("status <oac_id>")
      .description("show an OAuth connection attempt started with connect"),
  ).action(async (id: string, options: ApiCommandOptions) => {
    printRecord(options, await appsApi(clientFor(options).client).getOAuthConnection(id));
  });
}

/**
 * `sluice apps list|get|register|apply|remove` (the auth half of apps) and `sluice connections
 * list|get|create|rename|delete` (connected accounts, `apn_…`). "connections" keeps clear of
 * `sluice accounts`, which manages Sluice's own accounts.
 */
import fs from "node:fs";
import type { Command } from "commander";
import YAML from "yaml";
import { type AppParams, appsApi, type ConnectedAccount } from "../../client/apps-client.js";
import { processEnvironment } from "../../config/env.js";
import { type ApiCommandOptions, apiOptions, clientFor } from "../context.js";
import { registerOAuthConnect } from "../oauth-connect.js";
import { type Column, fieldColumns, printList, printRecord, UsageError } from "../output.js";

const connectionColumns: readonly Column<ConnectedAccount>[] = [
  ...fieldColumns<ConnectedAccount>("id", "app", "name"),
  ["healthy", (account) => (account.healthy ? "yes" : `no: ${account.error ?? ""}`)],
  ["created", (account) => account.created_at],
];

/** The apps of an app file: a list, or `{apps: [...]}`, in YAML or JSON. */
export function readAppFile(file: string): AppParams[] {
  let parsed: unknown;
  try {
    parsed = YAML.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    throw new UsageError(`Cannot read the app file ${file}: ${(error as Error).message}`);
  }
  const apps = Array.isArray(parsed) ? parsed : (parsed as { apps?: unknown } | null)?.apps;
  if (!Array.isArray(apps)) {
    throw new UsageError(`${file} must hold a list of apps, or {apps: [...]} (YAML or JSON)`);
  }
  return (apps as AppParams[]).map((app) => withSecretFromEnvironment(app, file));
}

/**
 * An OAuth app's `client_secret_env: NAME` is read from the CLI's environment, so app files in
 * version control never hold the secret.
 */
function withSecretFromEnvironment(app: AppParams, file: string): AppParams {
  const oauth = app?.oauth as (AppParams["oauth"] & { client_secret_env?: unknown }) | undefined;
  if (!oauth || oauth.client_secret_env === undefined) return app;
  const { client_secret_env: name, ...rest } = oauth;
  const secret = typeof name === "string" ? processEnvironment()[name] : undefined;
  if (!secret) {
    throw new UsageError(
      `${file}: app '${app.slug}' takes its client secret from the environment variable ${String(name)}, which is not set`,
    );
  }
  return { ...app, oauth: { ...rest, client_secret: secret } };
}

function parseFields(pairs: string[], file: string | undefined): Record<string, string | number | boolean> {
  const fields: Record<string, string | number | boolean> = {};
  if (file) {
    const parsed = YAML.parse(fs.readFileSync(file, "utf8")) as unknown;
    if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
      throw new UsageError(`${file} must hold an object of fields`);
    }
    Object.assign(fields, parsed);
  }
  for (const pair of pairs) {
    const at = pair.indexOf("=");
    if (at < 1) throw new UsageError(`--field takes name=value, got '${pair}'`);
    fields[pair.slice(0, at)] = pair.slice(at + 1);
  }
  return fields;
}

const collect = (value: string, previous: string[]) => [...previous, value];

export function registerApps(program: Command): void {
  addAppCommands(program.command("apps").description("register the apps that app props connect to"));
  addConnectionCommands(
    program
      .command("connections")
      .description("connected accounts (apn_…): your credentials for an app, sealed on the server"),
  );
}

/** `apps list`, `get`, `apply` and `remove`. */
function addAppCommands(apps: Command): void {
  apiOptions(apps.command("list").description("list the apps you see: the server's and your own")).action(
    async (options: ApiCommandOptions) => {
      const api = appsApi(clientFor(options).client);
      printList(
        options,
        await api.listApps(),
        [
          ["slug", (app) => app.name_slug],
          ["name", (app) => app.name],
          ["auth", (app) => app.auth_type],
          ["fields", (app) => (app.fields ?? []).map((field) => field.name).join(", ")],
          ["scope", (app) => app.scope],
        ],
        "No apps registered. Any app slug still works as a keys app taking any fields.",
      );
    },
  );

  apiOptions(apps.command("get <slug>").description("show an app (registered or not)")).action(
    async (slug: string, options: ApiCommandOptions) => {
      printRecord(options, await appsApi(clientFor(options).client).getApp(slug));
    },
  );

  apiOptions(
    apps
      .command("apply <file>")
      .description("register every app of a YAML or JSON file (a list, or {apps: [...]})")
      .option("--server", "register them for every account (admin key)"),
  ).action(async (file: string, options: ApiCommandOptions & { server?: boolean }) => {
    const api = appsApi(clientFor(options).client);
    const registered = [];
    for (const app of readAppFile(file)) {
      registered.push(await api.registerApp({ ...app, ...(options.server ? { scope: "server" } : {}) }));
    }
    printList(
      options,
      registered,
      [
        ["slug", (app) => app.name_slug],
        ["auth", (app) => app.auth_type],
        ["scope", (app) => app.scope],
      ],
      `${file} lists no apps`,
    );
  });

  apiOptions(
    apps
      .command("remove <slug>")
      .description("remove an app's registration")
      .option("--server", "the server-wide registration (admin key)"),
  ).action(async (slug: string, options: ApiCommandOptions & { server?: boolean }) => {
    const api = appsApi(clientFor(options).client);
    printRecord(options, await api.unregisterApp(slug, options.server ? "server" : "account"));
  });
}

/** `connections list`, `get`, `create`, `connect`, `rename` and `delete`. */
function addConnectionCommands(connections: Command): void {
  apiOptions(
    connections
      .command("list")
      .description("list connected accounts, newest first")
      .option("--app <slug>", "only this app's")
      .option("-n, --limit <count>", "how many (1-100)", "100"),
  ).action(async (options: ApiCommandOptions & { app?: string; limit: string }) => {
    const api = appsApi(clientFor(options).client);
    const page = await api.listConnectedAccounts({ limit: Number(options.limit), app: options.app });
    printList(
      options,
      page.data,
      connectionColumns,
      "No connected accounts. Create one with: sluice connections create --app SLUG --field name=value",
    );
  });

  apiOptions(connections.command("get <id>").description("show a connected account")).action(
    async (id: string, options: ApiCommandOptions) => {
      printRecord(options, await appsApi(clientFor(options).client).getConnectedAccount(id));
    },
  );

  apiOptions(
    connections
      .command("create")
      .description("connect an account of a keys app (OAuth apps: sluice connections connect)")
      .requiredOption("--app <slug>", "the app's name slug (the `app` of the app prop)")
      .option("--name <name>", "a name for your reference")
      .option("--field <name=value>", "one field (repeat)", collect, [])
      .option("--fields-file <file>", "the fields as a JSON or YAML object"),
  ).action(
    async (
      options: ApiCommandOptions & { app: string; name?: string; field: string[]; fieldsFile?: string },
    ) => {
      const api = appsApi(clientFor(options).client);
      const created = await api.createConnectedAccount({
        app: options.app,
        ...(options.name ? { name: options.name } : {}),
        fields: parseFields(options.field, options.fieldsFile),
      });
      printRecord(
        options,
        created,
        `Use it in an app prop: --prop '${created.app}={"authProvisionId":"${created.id}"}'`,
      );
    },
  );

  registerOAuthConnect(connections, (options) => parseFields(options.field, options.fieldsFile));

  apiOptions(connections.command("rename <id> <name>").description("rename a connected account")).action(
    async (id: string, name: string, options: ApiCommandOptions) => {
      printRecord(options, await appsApi(clientFor(options).client).renameConnectedAccount(id, name));
    },
  );

  apiOptions(
    connections
      .command("delete <id>")
      .description("delete a connected account (refused while a source or workflow uses it)")
      .option("--force", "delete it even though sources or workflows use it"),
  ).action(async (id: string, options: ApiCommandOptions & { force?: boolean }) => {
    printRecord(options, await appsApi(clientFor(options).client).deleteConnectedAccount(id, options.force));
  });
}

/** The `sluice` command: one file per command under commands/, all talking to a server through the client. */
import { createRequire } from "node:module";
import { Command } from "commander";
import { registerAccounts } from "./commands/accounts.js";
import { registerApps } from "./commands/apps.js";
import { registerConnect } from "./commands/connect.js";
import { registerDataStores } from "./commands/data-stores.js";
import { registerDeliveries } from "./commands/deliveries.js";
import { registerDeploy } from "./commands/deploy.js";
import { registerDev } from "./commands/dev.js";
import { registerEvents } from "./commands/events.js";
import { registerInit } from "./commands/init.js";
import { registerLogin } from "./commands/login.js";
import { registerPublish } from "./commands/publish.js";
import { registerRegistry, registerRegistryImport } from "./commands/registry.js";
import { registerRunAction } from "./commands/run-action.js";
import { registerServer } from "./commands/server.js";
import { registerSources } from "./commands/sources.js";
import { registerSubscriptions } from "./commands/subscriptions.js";
import { registerWebhooks } from "./commands/webhooks.js";
import { registerWorkflows } from "./commands/workflows.js";
import { reportFailure } from "./output.js";

const { version } = createRequire(import.meta.url)("../../package.json") as { version: string };

const program = new Command()
  .name("sluice")
  .description("Sluice: sources, actions and workflows, with signed and retried webhook delivery")
  .version(version)
  .showHelpAfterError();

registerServer(program);
registerLogin(program);
registerDeploy(program);
registerSources(program);
registerEvents(program);
registerDev(program);
registerInit(program);
registerSubscriptions(program); // after registerSources: it adds `list subscriptions` to `list`
registerWebhooks(program);
registerDeliveries(program);
registerAccounts(program);
registerPublish(program); // after registerSources: it adds `list published` to `list`
registerRegistry(program);
registerRegistryImport(program);
registerRunAction(program);
registerWorkflows(program);
registerApps(program);
registerDataStores(program);
registerConnect(program);

try {
  await program.parseAsync(process.argv);
} catch (error) {
  reportFailure(error);
}

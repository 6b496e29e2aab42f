/**
 * `sluice projects create|list|delete` (Pipedream Connect projects, `proj_…`) and
 * `sluice oauth-clients create|list|revoke` (the client credentials `@pipedream/sdk` signs in
 * with; a client's secret is shown once).
 */
import type { Command } from "commander";
import { type ConnectProject, connectApi, type OAuthClientInfo } from "../../client/connect-client.js";
import { type ApiCommandOptions, apiOptions, clientFor } from "../context.js";
import { type Column, fieldColumns, printJson, printList, printOutcome, printRecord } from "../output.js";

const projectColumns: readonly Column<ConnectProject>[] = [
  ...fieldColumns<ConnectProject>("id", "name"),
  ["app name", (project) => project.app_name],
  ["created", (project) => project.created_at],
];

const clientColumns: readonly Column<OAuthClientInfo>[] = [
  ...fieldColumns<OAuthClientInfo>("client_id", "name"),
  ["created", (client) => client.created_at],
  ["last used", (client) => client.last_used_at],
];

export function registerConnect(program: Command): void {
  const projects = program.command("projects").description("manage Pipedream Connect projects (proj_…)");
  apiOptions(
    projects
      .command("create <name>")
      .description("create a project; its end users, accounts and triggers live in it")
      .option("--app-name <name>", "the name end users see on the connect page")
      .option("--support-email <email>", "shown to end users"),
  ).action(async (name: string, options: ApiCommandOptions & { appName?: string; supportEmail?: string }) => {
    const api = connectApi(clientFor(options).client);
    printRecord(
      options,
      await api.createProject({
        name,
        ...(options.appName === undefined ? {} : { app_name: options.appName }),
        ...(options.supportEmail === undefined ? {} : { support_email: options.supportEmail }),
      }),
    );
  });
  apiOptions(projects.command("list").description("list your projects, newest first")).action(
    async (options: ApiCommandOptions) => {
      const api = connectApi(clientFor(options).client);
      const rows: ConnectProject[] = [];
      let after: string | undefined;
      for (;;) {
        const page = await api.listProjects({ limit: 100, ...(after ? { after } : {}) });
        rows.push(...page.data);
        if (page.data.length < 100 || !page.page_info.end_cursor) break;
        after = page.page_info.end_cursor;
      }
      printList(options, rows, projectColumns, "No projects. Create one with: sluice projects create <name>");
    },
  );
  apiOptions(
    projects
      .command("delete <id>")
      .description("delete a project with its end users, their connected accounts and deployed triggers"),
  ).action(async (id: string, options: ApiCommandOptions) => {
    printOutcome(
      options,
      await connectApi(clientFor(options).client).deleteProject(id),
      `Deleted project ${id}`,
    );
  });

  const clients = program
    .command("oauth-clients")
    .description("manage OAuth clients: the client_id and client_secret of @pipedream/sdk");
  apiOptions(
    clients
      .command("create")
      .description("create an OAuth client; its secret is shown once")
      .option("--name <name>", "a label"),
  ).action(async (options: ApiCommandOptions & { name?: string }) => {
    const created = await connectApi(clientFor(options).client).createOAuthClient(options.name);
    if (options.json) printJson({ client_id: created.client_id, client_secret: created.client_secret });
    else {
      printRecord(
        options,
        { client_id: created.client_id, client_secret: created.client_secret, name: created.name },
        "Keep the client_secret: it is shown only now.",
      );
    }
  });
  apiOptions(clients.command("list").description("list OAuth clients (never their secrets)")).action(
    async (options: ApiCommandOptions) => {
      const list = await connectApi(clientFor(options).client).listOAuthClients();
      printList(
        options,
        list,
        clientColumns,
        "No OAuth clients. Create one with: sluice oauth-clients create",
      );
    },
  );
  apiOptions(
    clients.command("revoke <client_id>").description("revoke a client: its secret and tokens stop working"),
  ).action(async (id: string, options: ApiCommandOptions) => {
    const revoked = await connectApi(clientFor(options).client).revokeOAuthClient(id);
    printOutcome(options, revoked, `Revoked OAuth client ${id}`);
  });
}

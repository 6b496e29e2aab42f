/** `sluice projects` and `sluice oauth-clients` as a subprocess against a real server. */
import { beforeAll, describe, expect, it } from "vitest";
import { runCli, useCliServer } from "../support/cli.js";
import type { TestServer } from "../support/server.js";

describe("sluice projects and sluice oauth-clients", () => {
  const server = useCliServer();
  let sluice: TestServer;
  let env: Record<string, string>;

  beforeAll(() => {
    ({ sluice, env } = server);
  });

  it("creates, lists and deletes projects", async () => {
    const created = await runCli(["projects", "create", "Acme app", "--app-name", "Acme", "--json"], env);
    expect(created.code, created.stderr).toBe(0);
    const project = JSON.parse(created.stdout) as { id: string; name: string; app_name: string };
    expect(project).toMatchObject({ name: "Acme app", app_name: "Acme" });
    expect(project.id).toMatch(/^proj_/);

    const listed = await runCli(["projects", "list"], env);
    expect(listed.code).toBe(0);
    expect(listed.stdout).toContain(project.id);
    expect(listed.stdout).toContain("Acme app");

    const deleted = await runCli(["projects", "delete", project.id], env);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain(`Deleted project ${project.id}`);
    const again = await runCli(["projects", "delete", project.id], env);
    expect(again.code).not.toBe(0);
    expect(again.stderr).toContain("not_found");
    expect((await runCli(["projects", "list"], env)).stdout).toContain("No projects");
  });

  it("creates an OAuth client (--json prints client_id and client_secret), lists it without its secret, revokes it", async () => {
    const created = await runCli(["oauth-clients", "create", "--name", "backend", "--json"], env);
    expect(created.code, created.stderr).toBe(0);
    const client = JSON.parse(created.stdout) as Record<string, string>;
    expect(Object.keys(client).sort()).toEqual(["client_id", "client_secret"]);
    expect(client.client_id).toMatch(/^ocl_/);

    const token = await fetch(`${sluice.url}/v1/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials", ...client }),
    });
    expect(token.status).toBe(200);

    const listed = await runCli(["oauth-clients", "list"], env);
    expect(listed.stdout).toContain(client.client_id);
    expect(listed.stdout).toContain("backend");
    expect(listed.stdout).not.toContain(client.client_secret);

    const revoked = await runCli(["oauth-clients", "revoke", client.client_id ?? ""], env);
    expect(revoked.code, revoked.stderr).toBe(0);
    const refused = await fetch(`${sluice.url}/v1/oauth/token`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ grant_type: "client_credentials", ...client }),
    });
    expect(refused.status).toBe(401);
  });
});

/**
 * A Pipedream Connect set-up on a test server: a fresh account owning a project, an OAuth client
 * of that account, the apps fixture's components published by it and its `connect_vault` app
 * registered. What the Connect suites (REST, SDK, browser) start from.
 */
import { appsApi } from "../../src/client/apps-client.js";
import type { SluiceClient } from "../../src/client/client.js";
import { type ConnectProject, connectApi } from "../../src/client/connect-client.js";
import { GREET_ACTION, MESSAGE_TRIGGER, SHEET_TRIGGER, VAULT_APP } from "./connect-fixtures.js";
import type { TestServer } from "./server.js";

export interface ConnectSetUp {
  /** The project's account. */
  readonly owner: { id: string; apiKey: string; client: SluiceClient };
  readonly project: ConnectProject;
  readonly clientId: string;
  readonly clientSecret: string;
}

export async function setUpConnectProject(sluice: TestServer, name = "product"): Promise<ConnectSetUp> {
  const owner = await sluice.newAccount(name);
  for (const code of [GREET_ACTION, MESSAGE_TRIGGER, SHEET_TRIGGER]) {
    await owner.client.publishComponent({ component_code: code });
  }
  await appsApi(owner.client).registerApp({ ...VAULT_APP, fields: [...VAULT_APP.fields] });
  const api = connectApi(owner.client);
  const project = await api.createProject({ name: `${name} project`, app_name: "Acme" });
  const created = await api.createOAuthClient("tests");
  return { owner, project, clientId: created.client_id, clientSecret: created.client_secret };
}

/** The answer of one raw request to the server: status and parsed JSON (or undefined). */
export async function connectRequest(
  url: string,
  init: { method?: string; token?: string; environment?: string; body?: unknown; origin?: string } = {},
): Promise<{ status: number; body: unknown; headers: Headers }> {
  const headers: Record<string, string> = {};
  if (init.token !== undefined) headers.authorization = `Bearer ${init.token}`;
  if (init.environment !== undefined) headers["x-pd-environment"] = init.environment;
  if (init.origin !== undefined) headers.origin = init.origin;
  if (init.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers,
    body: init.body === undefined ? undefined : JSON.stringify(init.body),
  });
  const text = await response.text();
  let body: unknown;
  try {
    body = text === "" ? undefined : JSON.parse(text);
  } catch {
    body = text;
  }
  return { status: response.status, body, headers: response.headers };
}

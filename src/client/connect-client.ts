/**
 * Sluice's own management of Pipedream Connect, over a SluiceClient: `connectApi(client)`
 * (projects and OAuth clients). The Connect API itself is for Pipedream's SDK, `@pipedream/sdk`.
 */
import type { SluiceClient } from "./client.js";
import type { Deleted, PageOf, PageParams } from "./types.js";

export interface ConnectProject {
  id: string;
  name: string;
  app_name: string | null;
  support_email: string | null;
  created_at: string;
  updated_at: string;
}

export interface ConnectProjectParams {
  name: string;
  app_name?: string;
  support_email?: string;
}

export interface OAuthClientInfo {
  id: string;
  client_id: string;
  name: string | null;
  created_at: string;
  last_used_at: string | null;
}

export interface CreatedOAuthClient extends OAuthClientInfo {
  /** Shown only in this answer. */
  client_secret: string;
}

export function connectApi(client: SluiceClient) {
  const project = (id: string) => `/v1/connect/projects/${encodeURIComponent(id)}`;
  return {
    createProject: (params: ConnectProjectParams) =>
      client.request<ConnectProject>("POST", "/v1/connect/projects", { body: params }),
    listProjects: (params: PageParams & { q?: string } = {}) =>
      client.request<PageOf<ConnectProject>>("GET", "/v1/connect/projects", { query: { ...params } }),
    getProject: (id: string) => client.request<ConnectProject>("GET", project(id)),
    async deleteProject(id: string): Promise<Deleted> {
      await client.request<undefined>("DELETE", project(id));
      return { id, deleted: true };
    },
    createOAuthClient: (name?: string) =>
      client.data<CreatedOAuthClient>("POST", "/v1/oauth_clients", {
        body: name === undefined ? {} : { name },
      }),
    listOAuthClients: () => client.data<OAuthClientInfo[]>("GET", "/v1/oauth_clients"),
    revokeOAuthClient: (id: string) =>
      client.data<Deleted>("DELETE", `/v1/oauth_clients/${encodeURIComponent(id)}`),
  };
}

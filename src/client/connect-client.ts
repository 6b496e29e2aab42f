/**
 * Sluice's own management of Pipedream Connect, over a SluiceClient: `connectApi(client)`
 * (projects and OAuth clients). The Connect API itself is for Pipedream's SDK, `@pipedream/sdk`.
 */
import type { SluiceClient } from "./client.js";
import type { BodyOf, DataOf, Deleted, ItemOf, PageOf, PageParams, ResponseOf } from "./types.js";

export type ConnectProject = ResponseOf<"getConnectProject">;
export type ConnectProjectParams = BodyOf<"createConnectProject">;
export type OAuthClientInfo = ItemOf<"listOAuthClients">;
/** `client_secret` is shown only in this answer. */
export type CreatedOAuthClient = DataOf<"createOAuthClient">;

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

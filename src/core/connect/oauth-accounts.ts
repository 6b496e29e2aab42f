/**
 * Connecting an OAuth app for a Connect end user: the flow of core/apps/oauth-connections.ts in the
 * end user's account, with the project owner's client. The attempt ends with its connect token and
 * spends it on success; the callback page posts its result to the origin of the page that started
 * it (the connect link page, here or on the SDK's `frontendHost`).
 */
// Kysely here, not in the store: it hands the database to the app registry's read.
import { checkSlug } from "../apps/app-definition.js";
import { resolveApp } from "../apps/app-registry.js";
import { startOAuthConnection } from "../apps/oauth-connections.js";
import type { CoreContext } from "../context.js";
import { InvalidInputError } from "../errors.js";
import type { ConnectTokenGrant } from "./connect-tokens.js";
import type { Project } from "./projects.js";

export interface ConnectOAuthInput {
  readonly app_slug?: unknown;
  /** The app's custom fields beside its tokens, as a JSON string (Pipedream's name). */
  readonly cfmap_json?: unknown;
  readonly name?: unknown;
  /** An account of the same end user and app to reconnect. */
  readonly account_id?: unknown;
}

export interface StartedConnectOAuth {
  readonly authorizeUrl: string;
  readonly redirectUri: string;
  readonly expiresAt: number;
}

/** The origin of a browser's request (its `Origin` header) when it is an http(s) origin. */
export function requestOrigin(header: unknown): string | undefined {
  if (typeof header !== "string" || header === "") return undefined;
  try {
    const url = new URL(header);
    return url.protocol === "http:" || url.protocol === "https:" ? url.origin : undefined;
  } catch {
    return undefined;
  }
}

function parseFields(value: unknown): unknown {
  if (value === undefined || value === null || value === "") return {};
  if (typeof value !== "string") {
    throw new InvalidInputError("cfmap_json must be a JSON string of the app's fields", "invalid_fields");
  }
  try {
    return JSON.parse(value);
  } catch {
    throw new InvalidInputError("cfmap_json is not valid JSON", "invalid_fields");
  }
}

/**
 * Starts the OAuth flow for the connect token's end user; answers the provider's authorize URL.
 * `openerOrigin`: the starting page's origin (already checked against the token's allowed
 * origins), where the callback page posts its result; this server's origin when unknown.
 */
export async function startConnectOAuth(
  context: CoreContext,
  project: Project,
  grant: ConnectTokenGrant,
  input: ConnectOAuthInput,
  openerOrigin?: string,
): Promise<StartedConnectOAuth> {
  const app = await resolveApp(context.store.db, project.accountId, checkSlug(input.app_slug, "app_slug"));
  if (app.authType !== "oauth") {
    throw new InvalidInputError(
      `app '${app.slug}' connects with ${app.authType === "none" ? "no credentials" : "keys"}: create the account with POST /v1/connect/accounts`,
      "not_an_oauth_app",
    );
  }
  const started = await startOAuthConnection(
    context,
    grant.endUser.accountId,
    {
      app: app.slug,
      name: input.name,
      fields: parseFields(input.cfmap_json),
      connected_account_id: input.account_id === "" ? undefined : input.account_id,
    },
    {
      openerOrigin: openerOrigin ?? new URL(context.baseUrl).origin,
      connectToken: { hash: grant.tokenHash, expiresAt: grant.expiresAt },
    },
  );
  return {
    authorizeUrl: started.authorizeUrl,
    redirectUri: started.redirectUri,
    expiresAt: started.connection.expiresAt,
  };
}

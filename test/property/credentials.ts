/**
 * The other ways B authenticates beside its API key, live and dead: the web UI's session cookie
 * (POST /v1/sessions), a connect token of each of two Connect projects (`ctok_…`, what Connect's
 * browser routes take) and an OAuth access token (POST /v1/oauth/token). A live one acts as B only
 * where the server accepts it: the cookie outside /v1/connect (and, for a change, with the CSRF
 * header and no foreign Origin), the tokens inside it. A dead one (signed out, its key revoked,
 * expired, spent, its client revoked, malformed) acts as nobody anywhere.
 */
import { randomBytes } from "node:crypto";
import fc from "fast-check";
import type { SluiceClient } from "../../src/client/client.js";
import { waitUntil } from "../support/webhook-delivery.js";
import type { AccountFixture } from "./accounts.js";

export const SESSION_COOKIE = "sluice_session";
const CSRF_HEADER = "x-sluice-csrf";

export interface Credentials {
  /** A live session of B's main key: the cookie's value. */
  session: string;
  /** A live access token of B's OAuth client. */
  accessToken: string;
  /** B's second Connect project, its end user and a live connect token of it. */
  otherProject: { readonly id: string; readonly externalUser: string; token: string };
  /** Credentials that were B's and no longer act for anyone. */
  readonly dead: {
    readonly signedOutSession: string;
    readonly revokedKeySession: string;
    readonly expiredConnectToken: string;
    readonly revokedClientToken: string;
  };
}

/** How a request authenticates, and what the server must make of it. */
export interface Credential {
  /** What was sent, for failure messages. */
  readonly label: string;
  readonly headers: Readonly<Record<string, string>>;
  /** "b" when the server may take it as B's for this route and method; else it must refuse. */
  readonly auth: "b" | "none" | "invalid";
  /** A connect token of B's second project: it must not reach the first project's end users. */
  readonly otherProject: boolean;
}

async function openSession(serverUrl: string, apiKey: string): Promise<string> {
  const response = await fetch(`${serverUrl}/v1/sessions`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ api_key: apiKey }),
  });
  const cookie = new RegExp(`${SESSION_COOKIE}=([^;]+)`).exec(response.headers.get("set-cookie") ?? "");
  if (response.status !== 200 || !cookie?.[1]) throw new Error(`signing in: ${await response.text()}`);
  return cookie[1];
}

async function issueAccessToken(client: SluiceClient, clientId: string, secret: string): Promise<string> {
  const answer = await client.request<{ access_token: string }>("POST", "/v1/oauth/token", {
    body: { grant_type: "client_credentials", client_id: clientId, client_secret: secret },
  });
  return answer.access_token;
}

async function connectToken(client: SluiceClient, project: string, externalUser: string, expiresIn?: number) {
  const answer = await client.request<{ token: string }>("POST", `/v1/connect/${project}/tokens`, {
    body: { external_user_id: externalUser, ...(expiresIn === undefined ? {} : { expires_in: expiresIn }) },
  });
  return answer.token;
}

async function tokenIsLive(serverUrl: string, token: string): Promise<boolean> {
  const response = await fetch(`${serverUrl}/v1/connect/tokens/${encodeURIComponent(token)}/validate`);
  return response.status === 200 && ((await response.json()) as { success?: boolean }).success === true;
}

/** Opens B's sessions and issues its tokens, and makes the dead ones. */
export async function provisionCredentials(serverUrl: string, b: AccountFixture): Promise<Credentials> {
  const { client } = b;
  const project = await client.request<{ id: string }>("POST", "/v1/connect/projects", {
    body: { name: "second project" },
  });
  // Not B's first end user's id with a suffix: that one must not show in this one's answers.
  const externalUser = `other${randomBytes(6).toString("hex")}`;
  const [session, signedOutSession, accessToken, otherToken, expiredConnectToken] = await Promise.all([
    openSession(serverUrl, b.apiKey),
    openSession(serverUrl, b.apiKey),
    issueAccessToken(client, b.named.oauthClient, b.named.oauthClientSecret),
    connectToken(client, project.id, externalUser),
    connectToken(client, project.id, externalUser, 1),
  ]);
  const signOut = await fetch(`${serverUrl}/v1/sessions/current`, {
    method: "DELETE",
    headers: { cookie: `${SESSION_COOKIE}=${signedOutSession}`, [CSRF_HEADER]: "1" },
  });
  if (signOut.status !== 204) throw new Error(`signing out: ${await signOut.text()}`);
  const doomedKey = await client.createApiKey("revoked with its session");
  const revokedKeySession = await openSession(serverUrl, doomedKey.api_key);
  await client.revokeApiKey(doomedKey.id);
  const doomedClient = await client.request<{ data: { client_id: string; client_secret: string } }>(
    "POST",
    "/v1/oauth_clients",
    { body: { name: "revoked with its token" } },
  );
  const revokedClientToken = await issueAccessToken(
    client,
    doomedClient.data.client_id,
    doomedClient.data.client_secret,
  );
  await client.request("DELETE", `/v1/oauth_clients/${doomedClient.data.client_id}`);
  await waitUntil(
    "the short connect token's expiry",
    async () => !(await tokenIsLive(serverUrl, expiredConnectToken)),
    10_000,
  );
  return {
    session,
    accessToken,
    otherProject: { id: project.id, externalUser, token: otherToken },
    dead: { signedOutSession, revokedKeySession, expiredConnectToken, revokedClientToken },
  };
}

/**
 * Renews what random requests used up since the last route: a signed-out session, a spent
 * connect token, an access token of a client that was revoked (or re-provisioned with B).
 */
export async function renewCredentials(
  serverUrl: string,
  b: AccountFixture,
  credentials: Credentials,
): Promise<void> {
  const me = await fetch(`${serverUrl}/v1/users/me`, {
    headers: { cookie: `${SESSION_COOKIE}=${credentials.session}` },
  });
  if (me.status !== 200) credentials.session = await openSession(serverUrl, b.apiKey);
  const projects = await fetch(`${serverUrl}/v1/connect/projects`, {
    headers: { authorization: `Bearer ${credentials.accessToken}` },
  });
  if (projects.status !== 200) {
    credentials.accessToken = await issueAccessToken(
      b.client,
      b.named.oauthClient,
      b.named.oauthClientSecret,
    );
  }
  const other = credentials.otherProject;
  if (!(await tokenIsLive(serverUrl, other.token))) {
    other.token = await connectToken(b.client, other.id, other.externalUser);
  }
}

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/** Whether a route authenticates Connect's way (its own hook) rather than the API's. */
export function isConnectRoute(url: string): boolean {
  return url.startsWith("/v1/connect/");
}

/**
 * A credential for one request to `url` with `method`: B's key mostly, and now and then each other
 * way, live or dead: `bKey` is B's API key, `bToken` B's live connect token, `aSpentToken` A's
 * spent one.
 */
export function credentialArbitrary(
  url: string,
  bKey: string,
  credentials: Credentials,
  bToken: string,
  aSpentToken: string,
): fc.Arbitrary<(method: string) => Credential> {
  const connect = isConnectRoute(url);
  const fixed =
    (label: string, headers: Record<string, string>, auth: Credential["auth"], otherProject = false) =>
    (): Credential => ({ label, headers, auth, otherProject });
  const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
  const cookie = (value: string) => ({ cookie: `${SESSION_COOKIE}=${value}` });
  const { dead } = credentials;

  const session = fc
    .constantFrom("csrf", "no csrf", "foreign origin", "other cookies")
    .map((variant) => (method: string): Credential => {
      const headers: Record<string, string> = cookie(credentials.session);
      if (variant !== "no csrf") headers[CSRF_HEADER] = "1";
      if (variant === "foreign origin") headers.origin = "http://evil.example";
      if (variant === "other cookies") headers.cookie = `theme=dark; ${headers.cookie}; x=1`;
      const guarded = variant === "no csrf" || variant === "foreign origin";
      const acts = !connect && (SAFE_METHODS.has(method) || !guarded);
      return { label: `session (${variant})`, headers, auth: acts ? "b" : "invalid", otherProject: false };
    });
  const connectAuth = connect ? "b" : "invalid";
  const connectTokens = fc.constantFrom(
    fixed("connect token", bearer(bToken), connectAuth),
    fixed("other project's connect token", bearer(credentials.otherProject.token), connectAuth, true),
    fixed("access token", bearer(credentials.accessToken), connectAuth),
  );
  const deadOnes = fc.constantFrom(
    fixed("signed-out session", { ...cookie(dead.signedOutSession), [CSRF_HEADER]: "1" }, "invalid"),
    fixed("session of a revoked key", { ...cookie(dead.revokedKeySession), [CSRF_HEADER]: "1" }, "invalid"),
    fixed("a made-up session", { ...cookie("ses_AAAA"), [CSRF_HEADER]: "1" }, "invalid"),
    fixed("an empty session", { cookie: `${SESSION_COOKIE}=; other=1` }, "none"),
    fixed(
      "a dead session before the live one",
      { cookie: `${SESSION_COOKIE}=ses_x; ${SESSION_COOKIE}=${credentials.session}` },
      "invalid",
    ),
    fixed("a session of 5,000 characters", cookie("s".repeat(5000)), "invalid"),
    fixed("an expired connect token", bearer(dead.expiredConnectToken), "invalid"),
    fixed("A's spent connect token", bearer(aSpentToken), "invalid"),
    fixed("a revoked client's access token", bearer(dead.revokedClientToken), "invalid"),
    fixed("a made-up connect token", bearer("ctok_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), "invalid"),
    fixed("a made-up access token", bearer("sat_AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA"), "invalid"),
    fixed("a bare prefix", bearer("ctok_"), "invalid"),
  );
  // A session with a bearer key too: the key decides, as it would alone.
  const both = fixed("key and session", { ...bearer(bKey), ...cookie(dead.signedOutSession) }, "b");
  return fc.oneof(
    { weight: 3, arbitrary: session },
    { weight: connect ? 4 : 1, arbitrary: connectTokens },
    { weight: 3, arbitrary: deadOnes },
    { weight: 1, arbitrary: fc.constant(both) },
  );
}

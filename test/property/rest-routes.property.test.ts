/**
 * Property tests over every route the server registers (issue #7): random and malformed path
 * ids, query strings and bodies, sent with account B's key (or none, or a bad one), never get a
 * 5xx, always get the JSON error shape when refused, never take the server down, never touch
 * account A's data and never show B any of it. B authenticates with its key, its web UI session
 * cookie, its connect tokens and its OAuth access token, live and dead (credentials.ts). Before the
 * random requests, each route is sent one valid request (valid-requests.ts), which must answer 2xx:
 * the last test names the routes that did not.
 *
 * A failure prints fast-check's seed and path; re-run one route with them:
 *   SLUICE_PROPERTY_SEED=<seed> SLUICE_PROPERTY_PATH=<path> npx vitest run test/property -t "<route>"
 * SLUICE_PROPERTY_RUNS=<n> overrides the runs of every route (a longer hunt); SLUICE_PROPERTY_STATS=1
 * prints each route's answers by status and error code.
 */
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { RegisteredRoute } from "../../src/server/plugins/route-list.js";
import { dialects, isAvailable, type TestDatabase } from "../support/dialects.js";
import { type OAuthProvider, startOAuthProvider } from "../support/oauth-provider.js";
import { type Recorder, startRecorder } from "../support/recorder.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { type AccountFixture, type AccountHandle, isIntact, provision } from "./accounts.js";
import {
  describeRequest,
  type GeneratedRequest,
  type Operation,
  requestArbitrary,
  type World,
} from "./arbitraries.js";
import { type Credentials, provisionCredentials, renewCredentials } from "./credentials.js";
import { type RawReply, send } from "./raw-http.js";
import { DEFAULT_RUNS, pathParams, ROUTE_TABLE } from "./route-table.js";
import { snapshotAccount } from "./snapshot.js";
import { type Bench, CANNOT_SUCCEED, TEMPLATES, validRequest } from "./valid-requests.js";

const replay = {
  seed: process.env.SLUICE_PROPERTY_SEED ? Number(process.env.SLUICE_PROPERTY_SEED) : undefined,
  path: process.env.SLUICE_PROPERTY_PATH || undefined,
  runs: process.env.SLUICE_PROPERTY_RUNS ? Number(process.env.SLUICE_PROPERTY_RUNS) : undefined,
  /** Print each route's answers by status and code: how much of a route the runs reached. */
  stats: process.env.SLUICE_PROPERTY_STATS === "1",
};

/** 5xx answers a route may give on purpose, by stable code: a dependency that is down. None here. */
const DOCUMENTED_UNAVAILABLE = new Set<string>();

interface RouteUnderTest {
  /** The methods to send, repeated for weight. */
  readonly methods: readonly string[];
  readonly public: boolean;
}

/**
 * The route table's `METHOD url` keys for what the server registered: `ANY url` for a route of
 * several methods; the HEAD route Fastify adds for a GET folded into it (sent one time in five).
 */
function routeKeys(routes: readonly RegisteredRoute[]): Map<string, RouteUnderTest> {
  const keys = new Map<string, RouteUnderTest>();
  const gets = new Set(routes.filter((route) => route.methods.includes("GET")).map((route) => route.url));
  for (const route of routes) {
    if (route.methods.length > 1) {
      keys.set(`ANY ${route.url}`, route);
      continue;
    }
    const [method = ""] = route.methods;
    if (method === "HEAD" && gets.has(route.url)) continue;
    const methods = method === "GET" ? ["GET", "GET", "GET", "GET", "HEAD"] : [method];
    keys.set(`${method} ${route.url}`, { methods, public: route.public });
  }
  return keys;
}

/** Fields by which a resource names another: a B resource must never name one of A's. */
const LINK_FIELDS = new Set(["id", "owner_id", "component_id", "emitter_id", "listener_id", "webhook_id"]);

/** A's ids that a JSON answer names in a link field, anywhere in it. */
function linkedIds(text: string, ids: ReadonlySet<string>): string[] {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  const found: string[] = [];
  const pending: unknown[] = [value];
  for (let item = pending.pop(); item !== undefined; item = pending.pop()) {
    if (item === null || typeof item !== "object") continue;
    for (const [key, child] of Object.entries(item)) {
      if (LINK_FIELDS.has(key) && typeof child === "string" && ids.has(child)) found.push(`${key}: ${child}`);
      else pending.push(child);
    }
  }
  return found;
}

/** Whether a request's path is under /v1/connect, whose CORS preflights answer any path. */
function isConnectPath(path: string): boolean {
  return path === "/v1/connect" || path.startsWith("/v1/connect/") || path.startsWith("/v1/connect?");
}

function openApiPath(url: string): string {
  return url.replace(/:(\w+)/g, "{$1}");
}

/** The path and query as the server reads them, as far as they decode. */
function decoded(path: string): string {
  return path
    .split(/([/?&=])/)
    .map((part) => {
      try {
        return decodeURIComponent(part);
      } catch {
        return part;
      }
    })
    .join("");
}

/** Everything a request carries, as the server may read it: what an answer may echo. */
function sentText(request: GeneratedRequest): string {
  return `${request.path} ${decoded(request.path)} ${JSON.stringify(request.headers)} ${request.body?.toString("utf8") ?? ""}`;
}

/** The strings of A's data that B must never see unless it sent them itself. */
function tokensOf(fixture: AccountFixture): string[] {
  const { ids } = fixture;
  return [
    fixture.accountId,
    ...ids.webhook,
    ...ids.apiKey,
    fixture.mainKeyId,
    ...ids.source,
    ...ids.delivery,
    ...ids.component,
    ...ids.published,
    ...ids.endpoint,
    ...ids.subscription,
    ...ids.workflow,
    ...ids.workflowRun,
    ...ids.connectedAccount,
    ...ids.dataStore,
    ...fixture.markers,
    ...fixture.secrets,
  ].filter((token) => token.length >= 8);
}

for (const dialect of dialects) {
  describe.skipIf(!isAvailable(dialect))(`every REST route under random input on ${dialect.name}`, () => {
    let database: TestDatabase;
    let sluice: TestServer;
    let receiver: Recorder;
    let provider: OAuthProvider;
    let credentials: Credentials;
    /** B's OAuth app, registered against `provider`. */
    const oauthApp = `oauthapp${Date.now().toString(36)}`;
    /** Each route's answer to its valid request. */
    const validAnswers = new Map<string, { status: number; text: string }>();
    let a: AccountFixture;
    let b: AccountFixture;
    let bHandle: AccountHandle;
    let registered: Map<string, RouteUnderTest>;
    /** A's resource ids (not names, which B may give its own resources too). */
    let aIds: ReadonlySet<string> = new Set();
    let paths: Record<string, Record<string, Operation>>;
    /** A's strings that B has sent in some request: B may see those again. */
    const sentByB = new Set<string>();
    let aTokens: string[] = [];

    beforeAll(async () => {
      database = await dialect.create();
      [receiver, provider] = await Promise.all([startRecorder(), startOAuthProvider()]);
      sluice = await startTestServer(database, {
        env: { SLUICE_RATE_LIMIT: "1000000", SLUICE_ALLOWED_CIDRS: "127.0.0.0/8" },
      });
      const [accountA, accountB] = await Promise.all([sluice.newAccount("a"), sluice.newAccount("b")]);
      bHandle = accountB;
      [a, b] = await Promise.all([
        provision(accountA, "a", receiver.url),
        provision(accountB, "b", receiver.url),
      ]);
      credentials = await provisionCredentials(sluice.url, b);
      await b.client.request("POST", "/v1/apps", {
        body: { slug: oauthApp, auth_type: "oauth", oauth: provider.appSettings() },
      });
      aTokens = tokensOf(a);
      aIds = new Set(aTokens.filter((token) => /^[a-z]+_[0-9a-z]{26}$/.test(token)));
      registered = routeKeys(sluice.server.app.registeredRoutes);
      const document = (await (await fetch(`${sluice.url}/v1/openapi.json`)).json()) as {
        paths: Record<string, Record<string, Operation>>;
      };
      paths = document.paths;
    }, 120_000);

    afterAll(async () => {
      await sluice?.close();
      await receiver?.close();
      await provider?.close();
      await database?.cleanup();
    });

    it("the route table names every route the server registers, and no other", () => {
      const missing = [...registered.keys()].filter((key) => !(key in ROUTE_TABLE));
      const stale = Object.keys(ROUTE_TABLE).filter((key) => !registered.has(key));
      expect(missing, "routes without a property: add them to test/property/route-table.ts").toEqual([]);
      expect(stale, "route-table entries for routes the server no longer has").toEqual([]);
      const staleTemplates = [...Object.keys(TEMPLATES), ...Object.keys(CANNOT_SUCCEED)].filter(
        (key) => !(key in ROUTE_TABLE),
      );
      expect(staleTemplates, "valid-requests.ts entries for routes not in the table").toEqual([]);
      for (const [key, spec] of Object.entries(ROUTE_TABLE)) {
        const url = key.slice(key.indexOf(" ") + 1);
        expect(Object.keys(spec.params ?? {}).sort(), `path parameters of ${key}`).toEqual(
          pathParams(url).sort(),
        );
      }
      // Every documented operation is a registered route.
      for (const [path, operations] of Object.entries(paths)) {
        for (const method of Object.keys(operations)) {
          const match = [...registered.keys()].some(
            (key) => key === `${method.toUpperCase()} ${path.replace(/\{(\w+)\}/g, ":$1")}`,
          );
          expect(match, `${method} ${path}`).toBe(true);
        }
      }
    });

    /** Provisions B again when random requests deleted or disabled part of it. */
    async function restoreB(): Promise<void> {
      if (await isIntact(b)) return;
      b = await provision(bHandle, "b", receiver.url);
    }

    function world(): World {
      return { a, b, receiver: receiver.url, serverUrl: sluice.url, credentials };
    }

    function bench(): Bench {
      return {
        world: world(),
        admin: { apiKey: sluice.apiKey, client: sluice.client },
        provider,
        oauthApp,
      };
    }

    /** B's first Connect project's end-user data, which a token of its second project must not see. */
    function firstProjectTokens(): string[] {
      return [...b.ids.externalUser, ...b.ids.endUserAccount, ...b.ids.trigger];
    }

    function checkReply(request: GeneratedRequest, reply: RawReply, route: RouteUnderTest): void {
      const what = `${describeRequest(request)}\n→ ${reply.status} ${reply.text.slice(0, 500)}`;
      let error: { code?: unknown; message?: unknown } | undefined;
      if (reply.status >= 400 && request.method !== "HEAD") {
        expect(reply.contentType, what).toMatch(/^application\/json/);
        error = (JSON.parse(reply.text) as { error?: typeof error }).error;
        expect(typeof error?.code, what).toBe("string");
        expect(typeof error?.message, what).toBe("string");
      }
      if (reply.status >= 500) {
        expect(reply.status === 503 && DOCUMENTED_UNAVAILABLE.has(String(error?.code)), what).toBe(true);
      }
      // A CORS preflight of a Connect route (the SDK's browser client calls them cross-origin) is
      // answered 204 with no body for any path, without credentials by design: it reaches nothing.
      const preflight =
        request.method === "OPTIONS" &&
        reply.status === 204 &&
        reply.text === "" &&
        isConnectPath(request.path);
      const succeeded = reply.status >= 200 && reply.status < 300 && !preflight;
      if (request.foreignIdsInPath.length > 0) {
        expect(succeeded, `A's resource reached by B: ${what}`).toBe(false);
      }
      if (request.auth !== "b" && !route.public) {
        expect(succeeded, `a route that needs a key answered without a valid one: ${what}`).toBe(false);
      }
      if (request.otherProject) {
        const named = [...b.ids.project, ...b.ids.trigger, ...b.ids.endUserAccount].filter((id) =>
          request.path.includes(id),
        );
        if (named.length > 0)
          expect(succeeded, `another project's connect token reached ${named.join(", ")}: ${what}`).toBe(
            false,
          );
        const sent = sentText(request);
        const seen = firstProjectTokens().filter(
          (token) => reply.text.includes(token) && !sent.includes(token),
        );
        expect(seen, `another project's connect token saw this project's end user: ${what}`).toEqual([]);
      }
      if (succeeded)
        expect(linkedIds(reply.text, aIds), `B's answer links to A's resources: ${what}`).toEqual([]);
      const leaked = aTokens.filter((token) => reply.text.includes(token) && !sentByB.has(token));
      expect(leaked, `A's data in B's answer: ${what}`).toEqual([]);
    }

    for (const [key, spec] of Object.entries(ROUTE_TABLE)) {
      const [, url = ""] = key.split(" ");
      it(`${key}: no 5xx, the server stays up, A's data is untouched and unseen`, async () => {
        const route = registered.get(key);
        if (!route) throw new Error(`the server has no route ${key}`);
        const { methods } = route;
        await restoreB();
        await renewCredentials(sluice.url, b, credentials);
        const before = await snapshotAccount(a);
        const valid = await validRequest(key, spec, bench());
        const answer = await send(sluice.url, valid);
        validAnswers.set(key, { status: answer.status, text: answer.text });
        checkReply(
          { ...valid, foreignIdsInPath: [], auth: "b", credential: "valid", otherProject: false },
          answer,
          route,
        );
        const requests = requestArbitrary(url, methods, spec, paths[openApiPath(url)] ?? {}, world());
        const outcomes = new Map<string, number>();
        const mutating = !methods.every((method) => method === "GET" || method === "HEAD");
        await fc.assert(
          fc.asyncProperty(requests, async (request) => {
            const sent = sentText(request);
            for (const token of aTokens) if (sent.includes(token)) sentByB.add(token);
            const reply = await send(sluice.url, request);
            const outcome =
              `${reply.status} ${/^\{"error":\{"code":"([^"]*)"/.exec(reply.text)?.[1] ?? ""}`.trim();
            outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
            checkReply(request, reply, route);
            const health = await send(sluice.url, { method: "GET", path: "/health", headers: {} });
            expect(health.status, `health after ${describeRequest(request)}`).toBe(200);
            if (mutating)
              expect(await snapshotAccount(a), `A after ${describeRequest(request)}`).toEqual(before);
          }),
          {
            numRuns: replay.runs ?? spec.runs ?? DEFAULT_RUNS,
            ...(replay.seed === undefined ? {} : { seed: replay.seed }),
            ...(replay.path === undefined ? {} : { path: replay.path }),
          },
        );
        expect(await snapshotAccount(a)).toEqual(before);
        if (replay.stats) {
          const counts = [...outcomes].sort(([, x], [, y]) => y - x).map(([what, n]) => `${n}× ${what}`);
          console.log(`${dialect.name} ${key}: ${counts.join(", ")}`);
        }
      }, 300_000);
    }

    it("every route answered its valid request with a 2xx", () => {
      const excused = Object.entries(CANNOT_SUCCEED).map(([key, why]) => `${key}: ${why}`);
      console.log(`${dialect.name}: routes that cannot answer 2xx, by design:\n  ${excused.join("\n  ")}`);
      const failed = Object.keys(ROUTE_TABLE).flatMap((key) => {
        const answer = validAnswers.get(key);
        const ok = answer !== undefined && answer.status >= 200 && answer.status < 300;
        if (ok === !(key in CANNOT_SUCCEED)) return [];
        const what = answer ? `${answer.status} ${answer.text.slice(0, 300)}` : "not sent";
        return [key in CANNOT_SUCCEED ? `${key} succeeded: take it off CANNOT_SUCCEED` : `${key} → ${what}`];
      });
      expect(failed, "routes whose valid request did not answer 2xx").toEqual([]);
    });
  });
}

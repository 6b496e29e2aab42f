/**
 * The public registry (issue 13), through the `sluice` command and REST on a real server: the
 * admin publishes an action and a source with `sluice publish --public`; Pipedream's rules refuse
 * a bad key, a version that is not semver or not greater, and a missing name or description, each
 * with a 4xx naming the rule and nothing published; another account finds them with `sluice
 * search`, runs the action and deploys the source by key (`POST /v1/sources {key}` too, its own
 * key first); only the publisher, or an admin, unpublishes or deprecates; a deprecated version
 * keeps running where deployed but is not offered for new deploys.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ApiError, type SluiceClient } from "../../src/client/client.js";
import type { ActionRunResult, ListedComponent, PublicPublished } from "../../src/client/types.js";
import { type CliResult, runCli } from "../support/cli.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

const action = (version: string, extra = "") => `
  import greeter from "./greeter.app.mjs";
  export default {
    key: "greeter-say-hello",
    name: "Say hello",
    description: "Greets someone by name",
    version: "${version}",
    type: "action",
    props: { greeter, who: { type: "string" } },
    async run() { return this.greeter.greet(this.who) + "${extra}"; },
  };`;

/** The same code with the app inlined, for REST (which takes one file; the CLI bundles relative imports). */
const selfContained = (code: string) =>
  code.replace(
    'import greeter from "./greeter.app.mjs";',
    'const greeter = { type: "app", app: "greeter", methods: { greet(who) { return "Hello, " + who; } } };',
  );

const FILES: Record<string, string> = {
  "greeter.app.mjs": `
    export default {
      type: "app",
      app: "greeter",
      methods: { greet(who) { return "Hello, " + who; } },
    };`,
  "say-hello.mjs": action("0.1.0"),
  "say-hello-v2.mjs": action("0.2.0", "!"),
  "say-hello-v3.mjs": action("0.3.0", "!!!"),
  "lower.mjs": action("0.0.9", "?"),
  "same-version-other-code.mjs": action("0.1.0", " (changed)"),
  "bad-key.mjs": `export default { key: "Say Hello", name: "x", description: "d", version: "0.1.0", type: "action", run() {} };`,
  "wrong-app.mjs": action("0.1.0").replace("greeter-say-hello", "slack-say-hello"),
  "not-semver.mjs": action("1.0").replace("greeter-say-hello", "greeter-not-semver"),
  "no-description.mjs": `export default { key: "greeter-quiet", name: "Quiet", version: "0.1.0", type: "action", run() {} };`,
  "no-name.mjs": `export default { key: "greeter-nameless", description: "d", version: "0.1.0", type: "action", run() {} };`,
  "source.mjs": `
    export default {
      key: "greeter-new-greeting",
      name: "New greeting",
      description: "Emits each greeting posted to it",
      version: "0.1.0",
      props: { http: { type: "$.interface.http" } },
      async run(event) { this.$emit({ greeting: event.body }); },
    };`,
};

let database: TestDatabase;
let server: TestServer;
let dir: string;
let adminEnv: Record<string, string>;
let other: { id: string; apiKey: string; client: SluiceClient };
let otherEnv: Record<string, string>;

beforeAll(async () => {
  const sqlite = dialects.find((dialect) => dialect.name === "sqlite");
  if (!sqlite) throw new Error("the sqlite test dialect is missing");
  database = await sqlite.create();
  server = await startTestServer(database);
  dir = tempDir("sluice-cli-registry-");
  for (const [name, code] of Object.entries(FILES)) fs.writeFileSync(path.join(dir, name), code);
  adminEnv = {
    HOME: tempDir("sluice-cli-home-"),
    SLUICE_API_KEY: server.apiKey,
    SLUICE_BASE_URL: server.url,
  };
  other = await server.newAccount("other");
  otherEnv = { HOME: tempDir("sluice-cli-home-"), SLUICE_API_KEY: other.apiKey, SLUICE_BASE_URL: server.url };
});

afterAll(async () => {
  await server?.close();
  await database?.cleanup();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

function sluice(args: string[], env = adminEnv): Promise<CliResult> {
  return runCli(args, env);
}

function json<T>(result: CliResult): T {
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as T;
}

const file = (name: string) => path.join(dir, name);

describe("the public registry", () => {
  it("publishes with --public, and publishing the same code again changes nothing", async () => {
    const first = json<PublicPublished>(
      await sluice(["publish", file("say-hello.mjs"), "--public", "--json"]),
    );
    expect(first).toMatchObject({
      key: "greeter-say-hello",
      version: "0.1.0",
      registry: "public",
      app: "greeter",
      type: "action",
      status: "published",
    });
    const again = json<PublicPublished>(
      await sluice(["publish", file("say-hello.mjs"), "--public", "--json"]),
    );
    expect(again.status).toBe("unchanged");
    const source = await sluice(["publish", file("source.mjs"), "--public"]);
    expect(source.code, source.stderr).toBe(0);
    expect(source.stdout).toContain("Published greeter-new-greeting@0.1.0 in the public registry");
  });

  it("refuses each broken rule with a 4xx naming it, and publishes nothing", async () => {
    const cases: [string, RegExp][] = [
      ["bad-key.mjs", /public key is <app_slug>-<kebab-name>/],
      ["wrong-app.mjs", /must start with the slug of the component's app: greeter-/],
      ["not-semver.mjs", /'1\.0' .* is not a semantic version/],
      ["lower.mjs", /0\.0\.9 of greeter-say-hello must be greater than 0\.1\.0/],
      ["same-version-other-code.mjs", /already in the public registry with other code/],
      ["no-description.mjs", /greeter-quiet has no description/],
      ["no-name.mjs", /has no name: add name/],
    ];
    for (const [name, message] of cases) {
      const result = await sluice(["publish", file(name), "--public"]);
      expect(result.code, name).toBe(1);
      expect(result.stderr, name).toMatch(message);
    }
    const codes = await Promise.all(
      ["bad-key.mjs", "not-semver.mjs", "lower.mjs", "no-description.mjs", "no-name.mjs"].map(
        async (name) => {
          const error = await server.client
            .publishPublic({ component_code: selfContained(FILES[name] ?? "") })
            .catch((thrown: unknown) => thrown);
          expect(error, name).toBeInstanceOf(ApiError);
          return [(error as ApiError).status, (error as ApiError).code];
        },
      ),
    );
    expect(codes).toEqual([
      [400, "invalid_key"],
      [400, "invalid_version"],
      [409, "version_not_greater"],
      [400, "missing_description"],
      // Every component needs a name, public or not: a nameless one is refused when it is saved.
      [400, "invalid_component"],
    ]);
    const listed = await server.client.searchComponents({ registry: "public" });
    expect(listed.data.map((row) => `${row.key}@${row.version}`).sort()).toEqual([
      "greeter-new-greeting@0.1.0",
      "greeter-say-hello@0.1.0",
    ]);
    expect((await server.client.getPublic("greeter-say-hello")).versions).toHaveLength(1);
  });

  it("another account finds the components with sluice search, runs the action and deploys the source by key", async () => {
    const found = json<ListedComponent[]>(await sluice(["search", "hello", "--json"], otherEnv));
    expect(found.map((row) => [row.key, row.registry, row.type])).toEqual([
      ["greeter-say-hello", "public", "action"],
    ]);
    const sources = json<ListedComponent[]>(
      await sluice(["search", "--app", "greeter", "--type", "source", "--json"], otherEnv),
    );
    expect(sources.map((row) => row.key)).toEqual(["greeter-new-greeting"]);
    expect(
      json<ListedComponent[]>(await sluice(["search", "--registry", "private", "--json"], otherEnv)),
    ).toEqual([]);

    const ran = json<ActionRunResult>(
      await sluice(["run-action", "greeter-say-hello", "--prop", "who=Ada", "--json"], otherEnv),
    );
    expect(ran.return_value).toBe("Hello, Ada");

    const deployed = await sluice(["deploy", "greeter-new-greeting", "--json"], otherEnv);
    expect(deployed.code, deployed.stderr).toBe(0);
    const source = JSON.parse(deployed.stdout) as {
      id: string;
      component_key: string;
      endpoint_url?: string;
    };
    expect(source.component_key).toBe("greeter-new-greeting");
    const copy = await other.client.componentForKey("greeter-new-greeting");
    expect(copy.key).toBe("greeter-new-greeting");
    // The copy is the other account's own: the publisher's saved component is not reachable by id.
    const publisher = await server.client.getPublic("greeter-new-greeting");
    expect(copy.id).not.toBe(publisher.id);
    await expect(other.client.getComponent(publisher.id)).rejects.toMatchObject({ status: 404 });
  });

  it("only the publisher unpublishes, deprecates or publishes new versions of a key", async () => {
    for (const attempt of [
      () => other.client.unpublishPublic("greeter-say-hello"),
      () => other.client.deprecatePublic("greeter-say-hello@0.1.0"),
    ]) {
      const error = await attempt().catch((thrown: unknown) => thrown);
      expect(error).toMatchObject({ status: 403, code: "not_publisher" });
    }
    const taken = await other.client
      .publishPublic({ component_code: selfContained(action("0.5.0")) })
      .catch((thrown: unknown) => thrown);
    expect(taken).toMatchObject({ status: 409, code: "key_taken" });
  });

  it("an admin unpublishes a public key another account published", async () => {
    const published = await other.client.publishPublic({
      component_code: `export default { key: "farewell-say-goodbye", name: "Say goodbye", description: "Says goodbye", version: "0.1.0", type: "action", run() { return "bye"; } };`,
    });
    expect(published).toMatchObject({ key: "farewell-say-goodbye", status: "published" });
    const removed = await sluice(["unpublish", "farewell-say-goodbye", "--public"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect(removed.stdout).toContain("Unpublished farewell-say-goodbye from the public registry: 0.1.0");
    await expect(other.client.getPublic("farewell-say-goodbye")).rejects.toMatchObject({ status: 404 });
  });

  it("POST /v1/sources {key} deploys another account's public source, and an account's own key comes first", async () => {
    const publisher = await server.client.getPublic("greeter-new-greeting");
    const fresh = await server.newAccount("fresh");
    const fromPublic = await fresh.client.deploySource({
      key: "greeter-new-greeting",
      name: "public greeting",
    });
    expect(fromPublic).toMatchObject({ component_key: "greeter-new-greeting", component_version: "0.1.0" });
    expect(fromPublic.component_id).not.toBe(publisher.id);
    expect((await fresh.client.getComponent(fromPublic.component_id)).name).toBe("New greeting");

    // Its own component under the key wins, though the public one has a higher version.
    const owner = await server.newAccount("owner");
    const own = await owner.client.saveComponent({
      component_code: `export default { key: "greeter-new-greeting", name: "My own greeting", version: "0.0.1", props: { http: { type: "$.interface.http" } }, async run() {} };`,
    });
    const fromOwn = await owner.client.deploySource({ key: "greeter-new-greeting", name: "own greeting" });
    expect(fromOwn).toMatchObject({ component_id: own.id, component_version: "0.0.1" });
  });

  it("a deprecated version still runs where deployed but is not offered for new deploys", async () => {
    json<PublicPublished>(await sluice(["publish", file("say-hello-v2.mjs"), "--public", "--json"]));
    const pinned = json<ActionRunResult>(
      await sluice(["run-action", "greeter-say-hello@0.2.0", "--prop", "who=Bo", "--json"], otherEnv),
    );
    expect(pinned.return_value).toBe("Hello, Bo!");

    const deprecated = await sluice(["deprecate", "greeter-say-hello@0.2.0"]);
    expect(deprecated.code, deprecated.stderr).toBe(0);
    // The latest version offered is now 0.1.0; 0.2.0 by name is refused with a reason.
    const latest = json<ActionRunResult>(
      await sluice(["run-action", "greeter-say-hello", "--prop", "who=Cy", "--json"], otherEnv),
    );
    expect(latest.return_value).toBe("Hello, Cy");
    const refused = await other.client
      .runAction({ key: "greeter-say-hello@0.2.0", configured_props: { who: "Di" } })
      .catch((thrown: unknown) => thrown);
    expect(refused).toMatchObject({ status: 400, code: "component_deprecated" });
    // The other account's copy of 0.2.0, made when it first ran, still runs by its id.
    const copy = (await other.client.searchComponents({ registry: "public", q: "hello" })).data[0];
    expect(copy?.version).toBe("0.1.0");
    expect(pinned.component_id).toMatch(/^sc_/);
    const again = await other.client.runAction({
      component_id: pinned.component_id,
      configured_props: { who: "Ed" },
    });
    expect(again.return_value).toBe("Hello, Ed!");

    json<PublicPublished>(await sluice(["publish", file("say-hello-v3.mjs"), "--public", "--json"]));
    const removed = await sluice(["unpublish", "greeter-say-hello@0.3.0", "--public"]);
    expect(removed.code, removed.stderr).toBe(0);
    expect((await server.client.getPublic("greeter-say-hello")).versions.map((row) => row.version)).toEqual([
      "0.2.0",
      "0.1.0",
    ]);
  });
});

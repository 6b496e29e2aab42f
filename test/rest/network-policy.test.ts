/**
 * The sandbox's network policy through the public surface: actions run with `POST
 * /v1/actions/run` (and the CLI's `sluice run-action`) on a real server, on each database. By
 * default component code reaches no loopback address: not the test PostgreSQL, not the server
 * itself, not a name that resolves to 127.0.0.1, not over UDP. With SLUICE_COMPONENT_ALLOWED_CIDRS
 * the operator allows loopback again, but the server's own port, and in scale mode its database,
 * stay refused. Traffic goes to loopback only.
 */
import fs from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../support/cli.js";
import { dialects, postgresUrl, type TestDatabase } from "../support/dialects.js";
import { type LoopbackTargets, runProbe, startLoopbackTargets } from "../support/network-probe.js";
import { startTestServer, type TestServer } from "../support/server.js";
import { tempDir } from "../support/temp.js";

const postgres = new URL(postgresUrl ?? "postgres://postgres@127.0.0.1:5432/test");
const postgresPort = Number(postgres.port || 5432);

const LOOPBACK =
  "127.0.0.1 is a loopback address (an operator may allow it with SLUICE_COMPONENT_ALLOWED_CIDRS)";

for (const dialect of dialects) {
  describe(`the network policy of component code (${dialect.name})`, () => {
    let database: TestDatabase;
    let openDatabase: TestDatabase;
    let closed: TestServer;
    let open: TestServer;
    let targets: LoopbackTargets;

    beforeAll(async () => {
      database = await dialect.create();
      openDatabase = await dialect.create();
      closed = await startTestServer(database);
      open = await startTestServer(openDatabase, { env: { SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8" } });
      targets = await startLoopbackTargets();
    }, 60_000);

    afterAll(async () => {
      await closed?.close();
      await open?.close();
      targets?.close();
      await database?.cleanup();
      await openDatabase?.cleanup();
    });

    it("by default, an action cannot connect to the test PostgreSQL, and its log says why", async () => {
      const { value, logs } = await runProbe(closed, "tcp", postgresPort);
      // In scale mode that PostgreSQL is the server's own database, refused whatever the allow list says.
      const why =
        dialect.name === "postgres"
          ? "it is Sluice's own database, which components may never reach"
          : LOOPBACK;
      const refused = `connection to 127.0.0.1:${postgresPort} refused by Sluice's network policy: ${why}`;
      expect(value).toBe(refused);
      expect(logs).toContain(refused);
    });

    it("by default, an action cannot fetch the server's own /health, by address or by a name resolving to 127.0.0.1", async () => {
      const port = Number(new URL(closed.url).port);
      expect((await runProbe(closed, "http", port)).value).toBe(
        `connection to 127.0.0.1:${port} refused by Sluice's network policy: it is this Sluice server's own listen address, which components may never reach`,
      );
      expect((await runProbe(closed, "name", targets.httpPort)).value).toMatch(
        new RegExp(
          `^connection to localhost \\((127\\.0\\.0\\.1|\\[::1\\]):${targets.httpPort}\\) refused by Sluice's network policy`,
        ),
      );
    });

    it("by default, an action cannot send a UDP datagram to 127.0.0.1; nothing arrives", async () => {
      const before = targets.datagrams();
      const { value } = await runProbe(closed, "udp", targets.udpPort);
      expect(value).toBe(`datagram to 127.0.0.1 refused by Sluice's network policy: ${LOOPBACK}`);
      expect(await targets.datagramsBeforeMarker()).toBe(before);
      expect(targets.datagrams()).toBe(before);
    });

    it("with 127.0.0.0/8 allowed, loopback services are reachable, but the server itself and its database are not", async () => {
      expect((await runProbe(open, "http", targets.httpPort)).value).toBe("reached 200");
      const port = Number(new URL(open.url).port);
      expect((await runProbe(open, "http", port)).value).toBe(
        `connection to 127.0.0.1:${port} refused by Sluice's network policy: it is this Sluice server's own listen address, which components may never reach`,
      );
      const database = (await runProbe(open, "tcp", postgresPort)).value;
      if (dialect.name === "postgres") {
        expect(database).toBe(
          `connection to 127.0.0.1:${postgresPort} refused by Sluice's network policy: it is Sluice's own database, which components may never reach`,
        );
      } else {
        // On SQLite the local PostgreSQL is just another service the operator allowed.
        expect(database).toBe("reached");
      }
    });
  });
}

describe("sluice run-action", () => {
  let database: TestDatabase;
  let server: TestServer;

  beforeAll(async () => {
    database = await (dialects[0] as NonNullable<(typeof dialects)[0]>).create();
    server = await startTestServer(database);
  });
  afterAll(async () => {
    await server?.close();
    await database?.cleanup();
  });

  it("prints the refusal when an action's connection is refused", async () => {
    const file = path.join(tempDir(), "connect.mjs");
    fs.writeFileSync(
      file,
      `import net from "node:net";
      export default { name: "Connect", type: "action", async run() {
        await new Promise((resolve, reject) => net.connect(${postgresPort}, "127.0.0.1", resolve).on("error", reject));
      } };`,
    );
    const result = await runCli(["run-action", file], {
      HOME: tempDir(),
      SLUICE_API_KEY: server.apiKey,
      SLUICE_BASE_URL: server.url,
    });
    expect(result.code).not.toBe(0);
    expect(result.stdout + result.stderr).toContain(
      `connection to 127.0.0.1:${postgresPort} refused by Sluice's network policy: ${LOOPBACK}`,
    );
  });
});

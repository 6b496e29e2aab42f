/**
 * The network-namespace mode (SLUICE_SANDBOX_NETWORK=namespace), on a real server: each runner
 * starts in a network namespace of its own with no interface at all, and the server opens the
 * connections its component asks for, under the same policy. Runs once, on SQLite: what differs is
 * the runner's network, not the database. Needs Linux, root and unshare, as CI has; elsewhere the
 * suite says it was skipped and why.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceLauncher } from "../../src/runtime/sandbox/egress/network-namespace.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { type LoopbackTargets, runProbe, startLoopbackTargets } from "../support/network-probe.js";
import { startTestServer, type TestServer } from "../support/server.js";

const unsupported = (() => {
  try {
    namespaceLauncher();
    return undefined;
  } catch (error) {
    return (error as Error).message;
  }
})();

describe.skipIf(unsupported !== undefined)(
  `runners in a network namespace of their own${unsupported ? ` (skipped: ${unsupported})` : ""}`,
  () => {
    let database: TestDatabase;
    let closedDatabase: TestDatabase;
    let server: TestServer;
    let closed: TestServer;
    let targets: LoopbackTargets;

    beforeAll(async () => {
      const sqlite = dialects[0] as NonNullable<(typeof dialects)[0]>;
      database = await sqlite.create();
      closedDatabase = await sqlite.create();
      server = await startTestServer(database, {
        env: { SLUICE_SANDBOX_NETWORK: "namespace", SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8" },
      });
      closed = await startTestServer(closedDatabase, { env: { SLUICE_SANDBOX_NETWORK: "namespace" } });
      targets = await startLoopbackTargets();
    }, 60_000);

    afterAll(async () => {
      await server?.close();
      await closed?.close();
      targets?.close();
      await database?.cleanup();
      await closedDatabase?.cleanup();
    });

    const probed = async (on: TestServer, what: string, port = 0) => (await runProbe(on, what, port)).value;

    it("the runner has no network interface at all", async () => {
      expect(await probed(server, "interfaces")).toEqual([]);
    });

    it("allowed connections go through the server: by address, by name, and over net", async () => {
      expect(await probed(server, "http", targets.httpPort)).toBe("reached 200");
      expect(await probed(server, "name", targets.httpPort)).toBe("reached 200");
      expect(await probed(server, "tcp", targets.httpPort)).toBe("reached");
    });

    it("the policy still refuses, with the same message: the server's own port, and loopback by default", async () => {
      const port = Number(new URL(server.url).port);
      expect(await probed(server, "http", port)).toBe(
        `connection to 127.0.0.1:${port} refused by Sluice's network policy: it is this Sluice server's own listen address, which components may never reach`,
      );
      expect(await probed(closed, "tcp", targets.httpPort)).toBe(
        `connection to 127.0.0.1:${targets.httpPort} refused by Sluice's network policy: 127.0.0.1 is a loopback address (an operator may allow it with SLUICE_COMPONENT_ALLOWED_CIDRS)`,
      );
      expect(await probed(closed, "name", targets.httpPort)).toMatch(
        /^connection to localhost \(.*\) refused by Sluice's network policy/,
      );
    });

    it("UDP has no route out of the namespace, even to an allowed address; nothing arrives", async () => {
      const before = targets.datagrams();
      expect(await probed(server, "udp", targets.udpPort)).toMatch(/ENETUNREACH/);
      expect(await targets.datagramsBeforeMarker()).toBe(before);
      expect(targets.datagrams()).toBe(before);
    });
  },
);

/**
 * The network-namespace mode (SLUICE_SANDBOX_NETWORK=namespace), on a real server: each runner
 * starts in a network namespace of its own with no interface at all, and the server opens the
 * connections its component asks for, under the same policy. Runs once, on SQLite: what differs is
 * the runner's network, not the database. Needs Linux, root and unshare, as CI has; elsewhere the
 * suite says it was skipped and why.
 */
import dgram from "node:dgram";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { namespaceLauncher } from "../../src/runtime/sandbox/egress/network-namespace.js";
import { dialects, type TestDatabase } from "../support/dialects.js";
import { probe } from "../support/network-probe.js";
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
    let bystander: http.Server;
    let bystanderPort: number;
    let udp: dgram.Socket;
    let datagrams = 0;

    beforeAll(async () => {
      const sqlite = dialects[0] as NonNullable<(typeof dialects)[0]>;
      database = await sqlite.create();
      closedDatabase = await sqlite.create();
      server = await startTestServer(database, {
        env: { SLUICE_SANDBOX_NETWORK: "namespace", SLUICE_COMPONENT_ALLOWED_CIDRS: "127.0.0.0/8" },
      });
      closed = await startTestServer(closedDatabase, { env: { SLUICE_SANDBOX_NETWORK: "namespace" } });
      bystander = http.createServer((_request, response) => response.end("ok"));
      await new Promise<void>((resolve) => bystander.listen(0, "127.0.0.1", resolve));
      bystanderPort = (bystander.address() as AddressInfo).port;
      udp = dgram.createSocket("udp4").on("message", () => datagrams++);
      await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
    }, 60_000);

    afterAll(async () => {
      await server?.close();
      await closed?.close();
      bystander?.close();
      udp?.close();
      await database?.cleanup();
      await closedDatabase?.cleanup();
    });

    const runProbe = async (on: TestServer, what: string, port = 0) => {
      const result = await on.client.runAction({ component_code: probe, configured_props: { what, port } });
      expect(result.ok).toBe(true);
      return result.return_value;
    };

    it("the runner has no network interface at all", async () => {
      expect(await runProbe(server, "interfaces")).toEqual([]);
    });

    it("allowed connections go through the server: by address, by name, and over net", async () => {
      expect(await runProbe(server, "http", bystanderPort)).toBe("reached 200");
      expect(await runProbe(server, "name", bystanderPort)).toBe("reached 200");
      expect(await runProbe(server, "tcp", bystanderPort)).toBe("reached");
    });

    it("the policy still refuses, with the same message: the server's own port, and loopback by default", async () => {
      const port = Number(new URL(server.url).port);
      expect(await runProbe(server, "http", port)).toBe(
        `connection to 127.0.0.1:${port} refused by Sluice's network policy: it is this Sluice server's own listen address, which components may never reach`,
      );
      expect(await runProbe(closed, "tcp", bystanderPort)).toBe(
        `connection to 127.0.0.1:${bystanderPort} refused by Sluice's network policy: 127.0.0.1 is a loopback address (an operator may allow it with SLUICE_COMPONENT_ALLOWED_CIDRS)`,
      );
      expect(await runProbe(closed, "name", bystanderPort)).toMatch(
        /^connection to localhost \(.*\) refused by Sluice's network policy/,
      );
    });

    it("UDP has no route out of the namespace, even to an allowed address; nothing arrives", async () => {
      const before = datagrams;
      expect(await runProbe(server, "udp", udp.address().port)).toMatch(/ENETUNREACH/);
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(datagrams).toBe(before);
    });
  },
);

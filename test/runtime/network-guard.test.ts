/**
 * The sandbox's network policy, on real runner processes: component code cannot connect to or send
 * datagrams to refused addresses (here: loopback, the only place tests may send traffic), not by
 * name, not through a DNS answer that changes, not after tampering with the guard; what the
 * operator allows is reachable, except the protected endpoints. Every receiver counts what reached
 * it, so a refusal is shown by nothing arriving, not only by the error the component saw.
 */
import { createHash } from "node:crypto";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createSandbox } from "../../src/runtime/sandbox/runner-pool.js";
import type { InvocationResult, RunnerSpec, Sandbox } from "../../src/runtime/sandbox/sandbox.js";
import { type LoopbackTargets, startLoopbackTargets } from "../support/network-probe.js";
import { tempDir } from "../support/temp.js";

/** A TCP server that counts connections and answers HTTP. */
async function countingServer(
  host: string,
): Promise<{ port: number; connections: () => number; close(): void }> {
  let connections = 0;
  const server = http.createServer((_request, response) => response.end("reached"));
  server.on("connection", () => connections++);
  await new Promise<void>((resolve) => server.listen(0, host, resolve));
  return {
    port: (server.address() as AddressInfo).port,
    connections: () => connections,
    close: () => server.close(),
  };
}

let dataDir: string;
let closed: Sandbox;
let allowing: Sandbox;
let tcp: Awaited<ReturnType<typeof countingServer>>;
let other: Awaited<ReturnType<typeof countingServer>>;
let protectedService: Awaited<ReturnType<typeof countingServer>>;
let udp: LoopbackTargets;
let udpPort: number;

beforeAll(async () => {
  dataDir = tempDir("sluice-network-");
  tcp = await countingServer("127.0.0.1");
  other = await countingServer("127.0.0.2");
  protectedService = await countingServer("127.0.0.1");
  udp = await startLoopbackTargets();
  udpPort = udp.udpPort;
  closed = createSandbox({ dataDir, maxRunners: 10 });
  allowing = createSandbox({
    dataDir,
    maxRunners: 10,
    egressPolicy: () => ({
      allowedCidrs: ["127.0.0.0/8"],
      protectedEndpoints: [
        { cidr: "127.0.0.0/8", port: protectedService.port, what: "Sluice's own database" },
      ],
    }),
  });
});

afterAll(async () => {
  await closed.close();
  await allowing.close();
  for (const server of [tcp, other, protectedService]) server.close();
  udp.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

let components = 0;

function component(run: string, imports = ""): RunnerSpec {
  const code = `import net from "node:net"; import http from "node:http"; import dgram from "node:dgram";
    import dns from "node:dns"; import vm from "node:vm"; import { createRequire } from "node:module";
    ${imports}
    const connect = (port, host = "127.0.0.1") => new Promise((resolve) => {
      const socket = net.connect(port, host, () => { socket.destroy(); resolve("connected"); });
      socket.on("error", (error) => resolve(error.message));
    });
    export default { name: "net", async run(event) { ${run} } };`;
  return {
    componentId: `dc_net${++components}`,
    bundleHash: createHash("sha256").update(code).digest("hex"),
    bundle: code,
  };
}

async function run(sandbox: Sandbox, spec: RunnerSpec, event: unknown = {}): Promise<InvocationResult> {
  const result = await sandbox.invoke(spec, { method: "run", props: {}, db: {}, timeoutMs: 10_000, event });
  expect(result.failure).toBeUndefined();
  return result;
}

const refusedLoopback = (target: string) =>
  `connection to ${target} refused by Sluice's network policy: 127.0.0.1 is a loopback address (an operator may allow it with SLUICE_COMPONENT_ALLOWED_CIDRS)`;

describe("by default, component code reaches no loopback address", () => {
  test("net.connect to 127.0.0.1 fails with an error naming the address and the rule, logged too; nothing connects", async () => {
    const before = tcp.connections();
    const result = await run(closed, component("return connect(event.port);"), { port: tcp.port });
    expect(result.returnValue).toBe(refusedLoopback(`127.0.0.1:${tcp.port}`));
    expect(result.logs.map((line) => line.message)).toContain(refusedLoopback(`127.0.0.1:${tcp.port}`));
    expect(tcp.connections()).toBe(before);
  });

  test("fetch and http.get of a name that resolves to 127.0.0.1 are refused, naming the name", async () => {
    const before = tcp.connections();
    const spec = component(`
      const viaFetch = await fetch("http://localhost:" + event.port + "/").then(() => "fetched", (e) => e.cause?.message ?? e.message);
      const viaHttp = await new Promise((resolve) => http.get({ host: "localhost", port: event.port, family: 4 }, () => resolve("got")).on("error", (e) => resolve(e.message)));
      return { viaFetch, viaHttp };`);
    const result = await run(closed, spec, { port: tcp.port });
    const refused = `connection to localhost (127.0.0.1:${tcp.port}) refused by Sluice's network policy`;
    expect((result.returnValue as { viaHttp: string }).viaHttp).toContain(refused);
    expect((result.returnValue as { viaFetch: string }).viaFetch).toContain(
      "refused by Sluice's network policy",
    );
    expect(tcp.connections()).toBe(before);
  });

  test("a UDP datagram to 127.0.0.1 is refused, by send and by connect; nothing arrives", async () => {
    const before = udp.datagrams();
    const spec = component(`
      const socket = dgram.createSocket("udp4");
      const sent = await new Promise((resolve) => socket.send("ping", event.port, "127.0.0.1", (e) => resolve(e ? e.message : "sent")));
      const connected = await new Promise((resolve) => { socket.once("error", (e) => resolve(e.message)); socket.connect(event.port, "127.0.0.1", (e) => resolve(e ? e.message : "connected")); });
      socket.close();
      return { sent, connected };`);
    const result = await run(closed, spec, { port: udpPort });
    expect(result.returnValue).toEqual({
      sent: "datagram to 127.0.0.1 refused by Sluice's network policy: 127.0.0.1 is a loopback address (an operator may allow it with SLUICE_COMPONENT_ALLOWED_CIDRS)",
      connected:
        "datagram to 127.0.0.1 refused by Sluice's network policy: 127.0.0.1 is a loopback address (an operator may allow it with SLUICE_COMPONENT_ALLOWED_CIDRS)",
    });
    expect(await udp.datagramsBeforeMarker()).toBe(before);
    expect(udp.datagrams()).toBe(before);
  });

  test("a DNS resolver pointed at a loopback server is refused; the system's servers stay usable", async () => {
    const before = udp.datagrams();
    const spec = component(`
      const resolver = new dns.Resolver();
      resolver.setServers(dns.getServers());
      try { resolver.setServers(["127.0.0.1:" + event.port]); } catch (e) { return e.message; }
      return await resolver.resolve4("example.test").then(() => "resolved", (e) => "queried: " + e.code);`);
    const result = await run(closed, spec, { port: udpPort });
    expect(result.returnValue).toBe(
      `datagram to 127.0.0.1:${udpPort} refused by Sluice's network policy: 127.0.0.1 is a loopback address (an operator may allow it with SLUICE_COMPONENT_ALLOWED_CIDRS)`,
    );
    expect(await udp.datagramsBeforeMarker()).toBe(before);
    expect(udp.datagrams()).toBe(before);
  });

  test("unix sockets are refused", async () => {
    const result = await run(
      closed,
      component(`
      return await new Promise((resolve) => net.connect({ path: "/var/run/postgresql/.s.PGSQL.5432" }, () => resolve("connected")).on("error", (e) => resolve(e.message)));`),
    );
    expect(result.returnValue).toBe(
      "connection to the local socket /var/run/postgresql/.s.PGSQL.5432 refused by Sluice's network policy: components may not use local (unix) sockets",
    );
  });
});

describe("the guard cannot be undone from inside the component", () => {
  const attempts: Record<string, string> = {
    "restoring net.Socket.prototype.connect": `
      const saved = net.Socket.prototype.connect;
      try { net.Socket.prototype.connect = function (...args) { return saved.apply(this, args); }; } catch (e) { notes.push(e.constructor.name); }
      try { Object.defineProperty(net.Socket.prototype, "connect", { value: () => "mine" }); } catch (e) { notes.push(e.constructor.name); }
      try { delete net.Socket.prototype.connect; } catch (e) { notes.push(e.constructor.name); }`,
    "process.binding('tcp_wrap')": `
      try { const { TCP } = process.binding("tcp_wrap"); notes.push(typeof TCP); } catch (e) { notes.push(e.code); }`,
    "vm.runInNewContext tricks": `
      const outer = vm.runInNewContext("this.constructor.constructor('return process')()");
      try { outer.binding("tcp_wrap"); notes.push("bound"); } catch (e) { notes.push(e.code); }
      const fresh = outer.getBuiltinModule ? outer.getBuiltinModule("node:net") : net;
      notes.push(fresh === net ? "same net" : "another net");
      notes.push(await vm.runInNewContext("connect(port)", { connect, port: event.port }));`,
    "Module._load('net')": `
      const require = createRequire(import.meta.url);
      const loaded = require("module")._load("net");
      notes.push(loaded === net ? "same net" : "another net");
      notes.push(await new Promise((resolve) => loaded.connect(event.port, "127.0.0.1", () => resolve("connected")).on("error", (e) => resolve(e.message))));`,
    "calling the native handle's connect directly": `
      const server = net.createServer();
      await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
      const proto = Object.getPrototypeOf(server._handle);
      notes.push(proto.connect.call(server._handle, {}, "127.0.0.1", event.port));
      notes.push(proto.connect6.call(server._handle, {}, "::ffff:127.0.0.1", event.port));
      const descriptor = Object.getOwnPropertyDescriptor(proto, "connect");
      notes.push(descriptor.writable || descriptor.configurable ? "replaceable" : "locked");
      try { proto.connect = () => 0; } catch (e) { notes.push(e.constructor.name); }
      server.close();`,
    "replacing the built-ins the checks use": `
      net.BlockList.prototype.check = () => false;
      Array.prototype.some = () => false;
      Array.prototype.includes = () => true;
      String.prototype.indexOf = () => -1;
      Reflect.apply = (fn, self, args) => fn.apply(self, args);
      notes.push("tampered");`,
  };

  for (const [name, code] of Object.entries(attempts)) {
    test(`${name}: fails, and the guard still holds after it`, async () => {
      const before = tcp.connections();
      const spec = component(
        `const notes = []; ${code}; return { notes, after: await connect(event.port) };`,
      );
      const result = await run(closed, spec, { port: tcp.port });
      const { notes, after } = result.returnValue as { notes: unknown[]; after: string };
      expect(after).toBe(refusedLoopback(`127.0.0.1:${tcp.port}`));
      expect(tcp.connections()).toBe(before);
      expect(notes).not.toContain("connected");
      expect(notes).not.toContain("another net");
      expect(notes).not.toContain("bound");
      expect(notes).not.toContain("replaceable");
      // A native connect that was refused returns EACCES (-13) rather than 0.
      for (const note of notes) if (typeof note === "number") expect(note).toBe(-13);
    });
  }
});

describe("what the operator allows, and what stays refused", () => {
  test("an allowed loopback address connects; the protected endpoint is refused whatever the allow list says", async () => {
    const before = protectedService.connections();
    const spec = component(
      `return { allowed: await connect(event.open), protected: await connect(event.protected, "127.0.0.5") };`,
    );
    const result = await run(allowing, spec, { open: tcp.port, protected: protectedService.port });
    expect(result.returnValue).toEqual({
      allowed: "connected",
      protected: `connection to 127.0.0.5:${protectedService.port} refused by Sluice's network policy: it is Sluice's own database, which components may never reach`,
    });
    expect(protectedService.connections()).toBe(before);
  });

  test("DNS rebinding: a name whose answer changes between lookups is checked at each connect", async () => {
    const before = { first: other.connections(), second: protectedService.connections() };
    const spec = component(`
      let lookups = 0;
      // The first answer is an allowed address, the next one the protected service on loopback.
      const rebinding = (hostname, options, callback) => {
        const address = lookups++ === 0 ? "127.0.0.2" : "127.0.0.1";
        return options.all ? callback(null, [{ address, family: 4 }]) : callback(null, address, 4);
      };
      const get = (port) => new Promise((resolve) => http.get({ host: "rebind.example", port, lookup: rebinding, agent: false }, (res) => { res.resume(); resolve("got " + res.statusCode); }).on("error", (e) => resolve(e.message)));
      return [await get(event.first), await get(event.second)];`);
    const result = await run(allowing, spec, { first: other.port, second: protectedService.port });
    expect(result.returnValue).toEqual([
      "got 200",
      `connection to rebind.example (127.0.0.1:${protectedService.port}) refused by Sluice's network policy: it is Sluice's own database, which components may never reach`,
    ]);
    expect(other.connections()).toBe(before.first + 1);
    expect(protectedService.connections()).toBe(before.second);
  });
});

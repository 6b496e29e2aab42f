import dgram from "node:dgram";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { TestServer } from "./server.js";

/**
 * An action for the network-policy tests (test/rest/network-*.test.ts) that tries one thing and
 * returns what happened: the error's message, or "reached".
 */
export const probe = `import net from "node:net"; import dgram from "node:dgram";
export default {
  name: "Probe", type: "action",
  props: { what: { type: "string" }, port: { type: "integer" } },
  async run() {
    switch (this.what) {
      case "tcp": return await new Promise((resolve) => net.connect(this.port, "127.0.0.1", () => resolve("reached")).on("error", (e) => resolve(e.message)));
      case "http": return await fetch("http://127.0.0.1:" + this.port + "/health").then((r) => "reached " + r.status, (e) => e.cause?.message ?? e.message);
      case "name": return await fetch("http://localhost:" + this.port + "/health").then((r) => "reached " + r.status, (e) => e.cause?.message ?? e.message);
      case "interfaces": return Object.keys((await import("node:os")).networkInterfaces());
      case "udp": return await new Promise((resolve) => { const s = dgram.createSocket("udp4"); s.send("x", this.port, "127.0.0.1", (e) => { s.close(); resolve(e ? e.message : "reached"); }); });
    }
  },
};`;

/** What the probe aims at, on loopback: an HTTP server, and a UDP socket that counts datagrams. */
export interface LoopbackTargets {
  readonly httpPort: number;
  readonly udpPort: number;
  /** Datagrams received so far (the markers not counted). */
  datagrams(): number;
  /**
   * Sends a marker datagram from the test and resolves, once it has arrived, to the datagrams
   * received before it: on loopback a datagram is queued to the socket as it is sent, so one sent
   * before the marker is counted by then. The sign that a probe's datagram is not on its way.
   */
  datagramsBeforeMarker(): Promise<number>;
  close(): void;
}

export async function startLoopbackTargets(): Promise<LoopbackTargets> {
  const bystander = http.createServer((_request, response) => response.end("ok"));
  await new Promise<void>((resolve) => bystander.listen(0, "127.0.0.1", resolve));
  let received = 0;
  const markers = new Map<string, () => void>();
  const udp = dgram.createSocket("udp4").on("message", (message) => {
    const marked = markers.get(message.toString());
    if (marked) marked();
    else received++;
  });
  await new Promise<void>((resolve) => udp.bind(0, "127.0.0.1", resolve));
  const udpPort = udp.address().port;
  return {
    httpPort: (bystander.address() as AddressInfo).port,
    udpPort,
    datagrams: () => received,
    async datagramsBeforeMarker() {
      const marker = `marker-${markers.size}-${Date.now()}`;
      const arrived = new Promise<number>((resolve) => markers.set(marker, () => resolve(received)));
      const sender = dgram.createSocket("udp4");
      await new Promise<void>((resolve, reject) =>
        sender.send(marker, udpPort, "127.0.0.1", (error) => (error ? reject(error) : resolve())),
      );
      sender.close();
      return arrived;
    },
    close() {
      bystander.close();
      udp.close();
    },
  };
}

/** Runs the probe as an action on `server`; resolves to what it returned and its log lines. */
export async function runProbe(
  server: TestServer,
  what: string,
  port = 0,
): Promise<{ value: unknown; logs: string[] }> {
  const result = await server.client.runAction({ component_code: probe, configured_props: { what, port } });
  if (!result.ok) throw new Error(`the probe action failed: ${JSON.stringify(result)}`);
  return { value: result.return_value, logs: result.logs.map((line) => line.message) };
}

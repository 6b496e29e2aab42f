/**
 * The endpoints no component may reach, whatever the allow list says: Sluice's own database and
 * the server's own listen address. A service on this machine (a loopback, unspecified or local
 * interface address) is protected on every local address, since any of them reaches it.
 */
import dns from "node:dns";
import os from "node:os";
import { refusingRule } from "./address-rules.js";
import type { ProtectedEndpoint } from "./egress-policy.js";

export interface ServiceAddress {
  /** A host name or IP address, as configured. */
  readonly host: string;
  readonly port: number;
  /** What listens there, as a refusal names it: "Sluice's own database". */
  readonly what: string;
}

/** Every address by which this machine reaches itself. */
function localCidrs(): string[] {
  const interfaces = Object.values(os.networkInterfaces()).flatMap((entries) => entries ?? []);
  return ["127.0.0.0/8", "::1/128", "0.0.0.0/32", "::/128", ...interfaces.map((entry) => entry.address)];
}

async function addressesOf(host: string): Promise<string[]> {
  const bare = host.replace(/^\[|\]$/g, "");
  try {
    const found = await dns.promises.lookup(bare, { all: true });
    return found.map((entry) => entry.address);
  } catch {
    // A name that does not resolve now cannot be connected to by a component now either; the
    // rules for private addresses still apply to whatever it resolves to later.
    return [];
  }
}

export async function protectedEndpoints(services: readonly ServiceAddress[]): Promise<ProtectedEndpoint[]> {
  const local = localCidrs();
  const endpoints = new Map<string, ProtectedEndpoint>();
  for (const service of services) {
    for (const address of await addressesOf(service.host)) {
      const rule = refusingRule(address);
      const isLocal = rule === "loopback" || rule === "unspecified" || local.includes(address);
      for (const cidr of isLocal ? local : [address]) {
        endpoints.set(`${cidr}|${service.port}`, { cidr, port: service.port, what: service.what });
      }
    }
  }
  return [...endpoints.values()];
}

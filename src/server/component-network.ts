/**
 * The network policy the server gives its runners: the operator's allow list for component code
 * (SLUICE_COMPONENT_ALLOWED_CIDRS), and the endpoints no component may reach whatever that list
 * says: the database in scale mode, and the server's own listen address, which is known only once
 * the server listens (the port may be 0 in the configuration).
 */
import type { FastifyInstance } from "fastify";
import type { ServerConfig } from "../config/server-config.js";
import type { EgressPolicySpec } from "../runtime/sandbox/egress/egress-policy.js";
import { protectedEndpoints, type ServiceAddress } from "../runtime/sandbox/egress/protected-endpoints.js";

export interface ComponentNetworkPolicy {
  /** The policy for runners started now. */
  readonly spec: EgressPolicySpec;
  /** Adds the listen address to the protected endpoints, once the server listens. */
  protectListenAddress(port: number): Promise<void>;
}

const DATABASE = "Sluice's own database";
const SERVER = "this Sluice server's own listen address";

/** The database's address in scale mode; none for SQLite or a unix socket. */
function databaseAddress(databaseUrl: string | undefined): ServiceAddress | undefined {
  if (databaseUrl === undefined) return undefined;
  const url = new URL(databaseUrl);
  if (url.hostname === "" || url.searchParams.get("host")?.startsWith("/")) return undefined;
  return { host: url.hostname, port: Number(url.port || 5432), what: DATABASE };
}

export async function componentNetworkPolicy(config: ServerConfig): Promise<ComponentNetworkPolicy> {
  const database = databaseAddress(config.databaseUrl);
  const services: ServiceAddress[] = database ? [database] : [];
  let spec: EgressPolicySpec = {
    allowedCidrs: config.componentAllowedCidrs,
    protectedEndpoints: await protectedEndpoints(services),
  };
  return {
    get spec() {
      return spec;
    },
    async protectListenAddress(port) {
      const listen: ServiceAddress = { host: config.host, port, what: SERVER };
      spec = { ...spec, protectedEndpoints: await protectedEndpoints([...services, listen]) };
    },
  };
}

/** The port the app listens on (the configured one, or the one the system chose for port 0). */
export function listenPort(app: FastifyInstance): number {
  const address = app.server.address();
  return typeof address === "object" && address !== null ? address.port : 0;
}

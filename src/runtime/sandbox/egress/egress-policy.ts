/**
 * Which address and port component code may reach, built from a spec the server passes each runner
 * on its command line: the addresses of address-rules.ts are refused unless the operator's allow
 * list names them, and Sluice's own database and listen address always. The check path calls only
 * captured functions, so a component cannot change its answers.
 */
import { type CidrSet, ipLiteral, parseCidrSet, refusingRule } from "./address-rules.js";

/** The variable that names what components may reach beyond the public internet. */
export const COMPONENT_CIDRS_VARIABLE = "SLUICE_COMPONENT_ALLOWED_CIDRS";

/** An address and port that no component may reach, whatever the allow list says. */
export interface ProtectedEndpoint {
  /** An IP address or a CIDR range ("127.0.0.0/8": any loopback address). */
  readonly cidr: string;
  readonly port: number;
  /** What listens there, as it reads in the refusal: "Sluice's own database". */
  readonly what: string;
}

export interface EgressPolicySpec {
  readonly allowedCidrs: readonly string[];
  readonly protectedEndpoints: readonly ProtectedEndpoint[];
  /**
   * Set in the network-namespace mode: the runner has no network of its own and asks the server
   * for each connection (egress-tunnel.ts).
   */
  readonly tunnel?: boolean;
}

export interface EgressRefusal {
  /** `127.0.0.1:5432`, `[::1]:8080`, or the address alone when there is no port. */
  readonly target: string;
  /** The sentence an error and the invocation's log carry. */
  readonly message: string;
}

export interface EgressPolicy {
  /** The refusal for a connection or datagram to `address` (an IP literal) and `port`, if refused. */
  check(
    address: string,
    port: number | undefined,
    kind?: "connection" | "datagram",
  ): EgressRefusal | undefined;
}

interface CompiledEndpoint {
  readonly addresses: CidrSet;
  readonly port: number;
  readonly what: string;
}

export function targetOf(address: string, port: number | undefined): string {
  if (port === undefined) return address;
  return ipLiteral(address)?.family === "ipv6" ? `[${address}]:${port}` : `${address}:${port}`;
}

export function createEgressPolicy(spec: EgressPolicySpec): EgressPolicy {
  const allowed = parseCidrSet(spec.allowedCidrs, COMPONENT_CIDRS_VARIABLE);
  const endpoints: CompiledEndpoint[] = spec.protectedEndpoints.map((endpoint) => ({
    addresses: parseCidrSet([endpoint.cidr], "a protected endpoint"),
    port: endpoint.port,
    what: endpoint.what,
  }));
  return {
    check(address, port, kind = "connection") {
      const target = targetOf(address, port);
      const refused = (why: string): EgressRefusal => ({
        target,
        message: `${kind} to ${target} refused by Sluice's network policy: ${why}`,
      });
      for (let i = 0; i < endpoints.length; i++) {
        const endpoint = endpoints[i] as CompiledEndpoint;
        if (port === endpoint.port && endpoint.addresses.has(address)) {
          return refused(`it is ${endpoint.what}, which components may never reach`);
        }
      }
      const rule = refusingRule(address);
      if (rule === undefined || allowed.has(address)) return undefined;
      return refused(
        `${address} is ${rule === "unspecified" ? "an" : "a"} ${rule} address ` +
          `(an operator may allow it with ${COMPONENT_CIDRS_VARIABLE})`,
      );
    },
  };
}

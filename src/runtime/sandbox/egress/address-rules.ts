/**
 * Which IP addresses Sluice refuses to connect to for a user: everything that is not globally
 * reachable unicast (loopback, private, link-local where cloud metadata lives, reserved and
 * transition ranges, which can embed a private IPv4 address). Shared by the server's SSRF guard and
 * the runner's egress guard, so it uses `net.BlockList` only, and only functions captured at load:
 * component code that replaces built-ins later cannot change its answers.
 */
import net from "node:net";

/** A reason an address is refused, as it reads in an error: "a loopback address". */
export type AddressRule =
  | "loopback"
  | "private"
  | "unique local"
  | "link-local"
  | "carrier-grade NAT"
  | "multicast"
  | "unspecified"
  | "reserved";

type Family = "ipv4" | "ipv6";

const RANGES: readonly (readonly [AddressRule, string, number, Family])[] = [
  ["unspecified", "0.0.0.0", 8, "ipv4"],
  ["loopback", "127.0.0.0", 8, "ipv4"],
  ["private", "10.0.0.0", 8, "ipv4"],
  ["private", "172.16.0.0", 12, "ipv4"],
  ["private", "192.168.0.0", 16, "ipv4"],
  ["carrier-grade NAT", "100.64.0.0", 10, "ipv4"],
  ["link-local", "169.254.0.0", 16, "ipv4"],
  ["multicast", "224.0.0.0", 4, "ipv4"],
  ["reserved", "192.0.0.0", 24, "ipv4"],
  ["reserved", "192.0.2.0", 24, "ipv4"],
  ["reserved", "192.88.99.0", 24, "ipv4"],
  ["reserved", "198.18.0.0", 15, "ipv4"],
  ["reserved", "198.51.100.0", 24, "ipv4"],
  ["reserved", "203.0.113.0", 24, "ipv4"],
  ["reserved", "240.0.0.0", 4, "ipv4"],
  ["unspecified", "::", 128, "ipv6"],
  ["loopback", "::1", 128, "ipv6"],
  ["unique local", "fc00::", 7, "ipv6"],
  ["link-local", "fe80::", 10, "ipv6"],
  ["multicast", "ff00::", 8, "ipv6"],
  // IPv4-compatible (deprecated), NAT64, discard-only, IETF assignments (Teredo), documentation,
  // 6to4 and site-local: none is a destination a component needs.
  ["reserved", "::", 96, "ipv6"],
  ["reserved", "64:ff9b::", 96, "ipv6"],
  ["reserved", "64:ff9b:1::", 48, "ipv6"],
  ["reserved", "100::", 64, "ipv6"],
  ["reserved", "2001::", 23, "ipv6"],
  ["reserved", "2001:db8::", 32, "ipv6"],
  ["reserved", "2002::", 16, "ipv6"],
  ["reserved", "3fff::", 20, "ipv6"],
  ["reserved", "fec0::", 10, "ipv6"],
];

// Captured once: later changes to these globals by component code do not reach the checks.
const blockListCheck = Function.prototype.call.bind(net.BlockList.prototype.check) as (
  list: net.BlockList,
  address: string,
  family: Family,
) => boolean;
const blockListAddSubnet = Function.prototype.call.bind(net.BlockList.prototype.addSubnet) as (
  list: net.BlockList,
  network: string,
  prefix: number,
  family: Family,
) => void;
const isIP = net.isIP;
const stringIndexOf = Function.prototype.call.bind(String.prototype.indexOf) as (
  text: string,
  search: string,
) => number;
const stringSlice = Function.prototype.call.bind(String.prototype.slice) as (
  text: string,
  start: number,
  end?: number,
) => string;
const BlockList = net.BlockList;

interface RuleList {
  readonly rule: AddressRule;
  readonly list: net.BlockList;
}

const RULE_LISTS: readonly RuleList[] = (() => {
  const lists = new Map<AddressRule, net.BlockList>();
  for (const [rule, network, prefix, family] of RANGES) {
    let list = lists.get(rule);
    if (list === undefined) {
      list = new BlockList();
      lists.set(rule, list);
    }
    blockListAddSubnet(list, network, prefix, family);
  }
  return [...lists].map(([rule, list]) => ({ rule, list }));
})();

/** An IP literal without an IPv6 zone (`fe80::1%eth0` → `fe80::1`), or undefined if not an IP. */
export function ipLiteral(
  address: string,
): { readonly address: string; readonly family: Family } | undefined {
  if (typeof address !== "string") return undefined;
  const zone = stringIndexOf(address, "%");
  const bare = zone < 0 ? address : stringSlice(address, 0, zone);
  const version = isIP(bare);
  if (version === 4) return { address: bare, family: "ipv4" };
  if (version === 6) return { address: bare, family: "ipv6" };
  return undefined;
}

/**
 * The rule that refuses `address` (an IP literal), or undefined for a globally reachable unicast
 * address. A string that is not an IP address is "reserved": nothing may connect to it.
 */
export function refusingRule(address: string): AddressRule | undefined {
  const ip = ipLiteral(address);
  if (ip === undefined) return "reserved";
  for (let i = 0; i < RULE_LISTS.length; i++) {
    const entry = RULE_LISTS[i] as RuleList;
    if (blockListCheck(entry.list, ip.address, ip.family)) return entry.rule;
  }
  return undefined;
}

/** A set of CIDR ranges ("10.0.0.0/8", "::1/128", or a bare address for one host). */
export interface CidrSet {
  has(address: string): boolean;
  readonly size: number;
}

/**
 * Parses CIDR ranges; throws an Error naming the first one that is not a range, prefixed with
 * `source` (the variable it came from).
 */
export function parseCidrSet(cidrs: readonly string[], source: string): CidrSet {
  const list = new BlockList();
  for (const cidr of cidrs) {
    const slash = cidr.indexOf("/");
    const network = slash < 0 ? cidr : cidr.slice(0, slash);
    const version = isIP(network);
    const maxPrefix = version === 4 ? 32 : 128;
    const prefixText = slash < 0 ? String(maxPrefix) : cidr.slice(slash + 1);
    const prefix = Number(prefixText);
    if (version === 0 || !/^\d{1,3}$/.test(prefixText) || prefix > maxPrefix) {
      throw new Error(`${source}: '${cidr}' is not a CIDR range such as 127.0.0.0/8`);
    }
    blockListAddSubnet(list, network, prefix, version === 4 ? "ipv4" : "ipv6");
  }
  return {
    size: cidrs.length,
    has(address) {
      const ip = ipLiteral(address);
      return ip !== undefined && blockListCheck(list, ip.address, ip.family);
    },
  };
}

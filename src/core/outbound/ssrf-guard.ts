/**
 * The SSRF guard for every request Sluice makes on a user's behalf (component URLs, webhook
 * deliveries, $.send.http). Addresses are checked at connect time, after DNS, so a name resolving
 * to a private address is refused; the ranges refused are the sandbox egress guard's, unless
 * SLUICE_ALLOWED_CIDRS allows them.
 */
import dns from "node:dns";
import net from "node:net";
import { Agent } from "undici";
import { type AddressRule, parseCidrSet, refusingRule } from "../../runtime/sandbox/egress/address-rules.js";

export class BlockedAddressError extends Error {
  override readonly name = "BlockedAddressError";
  readonly code = "blocked_address";
}

export interface AddressPolicy {
  /** Throws BlockedAddressError when `address` (an IP literal) may not be reached. */
  check(address: string, host: string): void;
}

/** Addresses whose verdict is kept: the policy never changes, and each delivery checks its URL's. */
const KEPT_VERDICTS = 1000;

export function createAddressPolicy(allowedCidrs: readonly string[]): AddressPolicy {
  const allowed = parseCidrSet(allowedCidrs, "SLUICE_ALLOWED_CIDRS");
  /** The refusing rule of each address checked, or null where it may be reached. */
  const verdicts = new Map<string, AddressRule | null>();
  const verdict = (address: string): AddressRule | null => {
    let rule = verdicts.get(address);
    if (rule === undefined) {
      const refusing = refusingRule(address);
      rule = refusing === undefined || allowed.has(address) ? null : refusing;
      if (verdicts.size >= KEPT_VERDICTS) verdicts.delete(verdicts.keys().next().value as string);
      verdicts.set(address, rule);
    }
    return rule;
  };
  return {
    check(address, host) {
      const rule = verdict(address);
      if (rule === null) return;
      throw new BlockedAddressError(
        `${host} resolves to ${address}, ${rule === "unspecified" ? "an" : "a"} ${rule} address; Sluice does not connect to it unless SLUICE_ALLOWED_CIDRS allows it`,
      );
    },
  };
}

/** An undici dispatcher whose connections go only to addresses the policy allows. */
export function createGuardedAgent(
  policy: AddressPolicy,
  options: { connectTimeoutMs?: number } = {},
): Agent {
  const lookup: net.LookupFunction = (hostname, lookupOptions, callback) => {
    dns.lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as dns.LookupAddress[];
      try {
        for (const entry of list) policy.check(entry.address, hostname);
      } catch (blocked) {
        return callback(blocked as Error, "", 0);
      }
      if (lookupOptions.all) return callback(null, list as unknown as string, 0);
      const first = list[0];
      if (!first) return callback(new Error(`${hostname} has no address`), "", 0);
      callback(null, first.address, first.family);
    });
  };
  return new Agent({ connect: { lookup, timeout: options.connectTimeoutMs ?? 10_000 } });
}

/** Checks a URL whose host is an IP literal (no DNS lookup happens for those). */
export function checkUrlHost(policy: AddressPolicy, url: URL): void {
  const host = url.hostname.replace(/^\[|\]$/g, "");
  if (net.isIP(host)) policy.check(host, host);
}

/**
 * The address rules and the egress policy, without opening any socket: which addresses are refused
 * and why (cloud metadata, link-local, private, …), that public addresses are allowed, what the
 * operator's list allows again, and that protected endpoints stay refused. Then the guard on the
 * native handle methods, with stand-in handles that record what would have reached the socket
 * layer, so that no test ever sends traffic to a non-loopback address.
 */
import { describe, expect, it } from "vitest";
import { parseCidrSet, refusingRule } from "../../src/runtime/sandbox/egress/address-rules.js";
import { createEgressPolicy, type EgressRefusal } from "../../src/runtime/sandbox/egress/egress-policy.js";
import { guardNativeHandles } from "../../src/runtime/sandbox/egress/native-handles.js";

describe("address rules", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["10.1.2.3", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.1.1", "private"],
    ["fd12:3456::1", "unique local"],
    ["169.254.169.254", "link-local"],
    ["fd00:ec2::254", "unique local"],
    ["fe80::1", "link-local"],
    ["fe80::1%eth0", "link-local"],
    ["100.64.0.1", "carrier-grade NAT"],
    ["100.127.255.254", "carrier-grade NAT"],
    ["224.0.0.1", "multicast"],
    ["ff02::1", "multicast"],
    ["0.0.0.0", "unspecified"],
    ["::", "unspecified"],
    ["255.255.255.255", "reserved"],
    ["192.0.2.1", "reserved"],
    ["64:ff9b::7f00:1", "reserved"],
    ["2002:7f00:1::", "reserved"],
    ["2001:db8::1", "reserved"],
    ["not an address", "reserved"],
  ])("%s is refused as %s", (address, rule) => {
    expect(refusingRule(address)).toBe(rule);
  });

  it.each([
    "8.8.8.8",
    "1.1.1.1",
    "93.184.216.34",
    "172.32.0.1",
    "100.128.0.1",
    "2606:4700::1111",
    "2a00:1450::1",
  ])("%s, a public address, is allowed", (address) => {
    expect(refusingRule(address)).toBeUndefined();
  });

  it("parses CIDR lists and names the variable and the value it cannot read", () => {
    const set = parseCidrSet(["10.0.0.0/8", "::1", "192.168.1.7"], "X");
    expect(set.has("10.200.0.1")).toBe(true);
    expect(set.has("::1")).toBe(true);
    expect(set.has("192.168.1.7")).toBe(true);
    expect(set.has("192.168.1.8")).toBe(false);
    expect(() => parseCidrSet(["10.0.0.0/33"], "SLUICE_COMPONENT_ALLOWED_CIDRS")).toThrow(
      "SLUICE_COMPONENT_ALLOWED_CIDRS: '10.0.0.0/33' is not a CIDR range such as 127.0.0.0/8",
    );
    expect(() => parseCidrSet(["localhost"], "X")).toThrow("'localhost' is not a CIDR range");
  });
});

describe("the egress policy", () => {
  const policy = createEgressPolicy({
    allowedCidrs: ["10.0.0.0/8"],
    protectedEndpoints: [{ cidr: "10.0.0.5", port: 5432, what: "Sluice's own database" }],
  });

  it("refuses cloud metadata with the address, the port and the rule", () => {
    expect(policy.check("169.254.169.254", 80)?.message).toBe(
      "connection to 169.254.169.254:80 refused by Sluice's network policy: 169.254.169.254 is a link-local address (an operator may allow it with SLUICE_COMPONENT_ALLOWED_CIDRS)",
    );
    expect(policy.check("fd00:ec2::254", 80, "datagram")?.message).toBe(
      "datagram to [fd00:ec2::254]:80 refused by Sluice's network policy: fd00:ec2::254 is a unique local address (an operator may allow it with SLUICE_COMPONENT_ALLOWED_CIDRS)",
    );
  });

  it("allows public addresses and what the operator allows, but never a protected endpoint", () => {
    expect(policy.check("93.184.216.34", 443)).toBeUndefined();
    expect(policy.check("10.0.0.7", 5432)).toBeUndefined();
    expect(policy.check("10.0.0.5", 6379)).toBeUndefined();
    expect(policy.check("10.0.0.5", 5432)?.message).toBe(
      "connection to 10.0.0.5:5432 refused by Sluice's network policy: it is Sluice's own database, which components may never reach",
    );
    expect(policy.check("192.168.0.1", 80)?.message).toContain("192.168.0.1 is a private address");
  });
});

describe("the guard on the native handles (stand-in handles, no socket)", () => {
  function standIns() {
    const reached: string[] = [];
    const method =
      (name: string) =>
      (...args: unknown[]) => {
        reached.push(`${name} ${JSON.stringify(args.slice(1))}`);
        return 0;
      };
    const tcp = { connect: method("connect"), connect6: method("connect6") };
    const pipe = { connect: method("pipe") };
    const udp = {
      send: method("send"),
      send6: method("send6"),
      connect: (address: string, port: number) => reached.push(`udp-connect ${address} ${port}`) && 0,
      connect6: (address: string, port: number) => reached.push(`udp-connect6 ${address} ${port}`) && 0,
    };
    const refusals: EgressRefusal[] = [];
    guardNativeHandles(
      { tcp, pipe, udp },
      createEgressPolicy({ allowedCidrs: [], protectedEndpoints: [] }),
      (refusal) => refusals.push(refusal),
    );
    return { tcp, pipe, udp, reached, refusals };
  }

  it("refuses metadata, link-local and private addresses with EACCES before the socket layer, and reports them", () => {
    const { tcp, udp, reached, refusals } = standIns();
    expect(tcp.connect({}, "169.254.169.254", 80)).toBe(-13);
    expect(tcp.connect6({}, "fe80::1", 80)).toBe(-13);
    expect(tcp.connect({}, "10.0.0.1", 5432)).toBe(-13);
    expect(udp.send({}, [], 0, 53, "192.168.0.1", false)).toBe(-13);
    expect(udp.connect("100.64.0.1", 53)).toBe(-13);
    expect(reached).toEqual([]);
    expect(refusals.map((refusal) => refusal.target)).toEqual([
      "169.254.169.254:80",
      "[fe80::1]:80",
      "10.0.0.1:5432",
      "192.168.0.1:53",
      "100.64.0.1:53",
    ]);
  });

  it("lets public addresses through to the socket layer, and a connected UDP socket's sends", () => {
    const { tcp, udp, reached } = standIns();
    expect(tcp.connect({}, "93.184.216.34", 443)).toBe(0);
    expect(udp.send({}, [], 0, false)).toBe(0);
    expect(reached).toEqual(['connect ["93.184.216.34",443]', "send [[],0,false]"]);
  });

  it("refuses arguments that are not a plain string and number, and every unix socket", () => {
    const { tcp, pipe, reached } = standIns();
    const shifty = { toString: () => "93.184.216.34" };
    expect(tcp.connect({}, shifty, 443)).toBe(-13);
    expect(tcp.connect({}, "93.184.216.34", { valueOf: () => 443 })).toBe(-13);
    expect(pipe.connect({}, "/run/postgresql/.s.PGSQL.5432")).toBe(-13);
    expect(reached).toEqual([]);
  });

  it("the guarded methods cannot be replaced or redefined", () => {
    const { tcp } = standIns();
    expect(() => {
      (tcp as { connect: unknown }).connect = () => 0;
    }).toThrow(TypeError);
    expect(() => Object.defineProperty(tcp, "connect", { value: () => 0 })).toThrow(TypeError);
    expect(tcp.connect({}, "127.0.0.1", 5432)).toBe(-13);
  });
});

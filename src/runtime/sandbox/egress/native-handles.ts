/**
 * The backstop of the egress guard: the methods of Node's native handle classes that open
 * connections or send datagrams, wrapped so that a refused destination gets EACCES before the
 * socket layer is reached, and locked so that component code cannot put the originals back (see
 * egress-guard.ts for the whole design). Everything here runs on every connection, so it calls
 * only functions captured when the module loads.
 */
import dgram from "node:dgram";
import dns from "node:dns";
import net from "node:net";
import path from "node:path";
import { ipLiteral } from "./address-rules.js";
import type { EgressPolicy, EgressRefusal } from "./egress-policy.js";

/** The error a refused connection fails with. */
export class NetworkPolicyError extends Error {
  override readonly name = "NetworkPolicyError";
  readonly code = "ERR_NETWORK_POLICY";
  constructor(
    message: string,
    readonly target: string,
  ) {
    super(message);
  }
}

/** libuv's EACCES, which net and dgram turn into their usual errors. */
const UV_EACCES = -13;

export type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;

const apply = Reflect.apply;
const defineProperty = Object.defineProperty;
const getPrototypeOf = Object.getPrototypeOf;
const isArray = Array.isArray;

/** Replaces `object[key]` for good: the property can be neither reassigned nor redefined. */
export function lock(object: object, key: string, value: unknown): void {
  defineProperty(object, key, { value, writable: false, configurable: false, enumerable: true });
}

/** Wraps a native method so that it returns EACCES when `refusalOf(arguments)` says so. */
function guardMethod(
  proto: object,
  key: string,
  refusalOf: (args: IArguments) => EgressRefusal | undefined,
  report: (refusal: EgressRefusal) => void,
): void {
  const original = (proto as Record<string, unknown>)[key];
  if (typeof original !== "function") throw new Error(`the network guard found no ${key} to guard`);
  lock(proto, key, function (this: unknown) {
    // biome-ignore lint/complexity/noArguments: the native method takes a variable argument list
    const refusal = refusalOf(arguments);
    if (refusal !== undefined) {
      report(refusal);
      return UV_EACCES;
    }
    // biome-ignore lint/complexity/noArguments: passed through unchanged
    return apply(original as AnyFunction, this, arguments);
  });
}

/** The prototypes of the native TCP and Pipe handles, from sockets that never connect anywhere. */
function streamHandlePrototypes(): { tcp: object; pipe: object } {
  const tcpSocket = new net.Socket();
  tcpSocket.on("error", () => {});
  // An IP literal: the handle is made now and the connect deferred a tick; destroying the socket
  // first means no connect is ever attempted.
  tcpSocket.connect({ port: 9, host: "127.0.0.1" });
  const tcp = (tcpSocket as unknown as { _handle: object | null })._handle;
  tcpSocket.destroy();
  const pipeSocket = new net.Socket();
  pipeSocket.on("error", () => {});
  // A path that does not exist in the runner's own directory: the connect fails with ENOENT.
  pipeSocket.connect({ path: path.join(process.cwd(), `.egress-probe-${process.pid}`) });
  const pipe = (pipeSocket as unknown as { _handle: object | null })._handle;
  pipeSocket.destroy();
  if (!tcp || !pipe) throw new Error("the network guard could not reach the socket handles");
  return { tcp: getPrototypeOf(tcp) as object, pipe: getPrototypeOf(pipe) as object };
}

function udpHandlePrototype(): object {
  const socket = dgram.createSocket("udp4");
  const state = Object.getOwnPropertySymbols(socket).find((symbol) => symbol.description === "state symbol");
  const handle = state
    ? (socket as unknown as Record<symbol, { handle?: object }>)[state]?.handle
    : undefined;
  socket.close();
  if (!handle) throw new Error("the network guard could not reach the UDP handle");
  return getPrototypeOf(handle) as object;
}

function resolverHandle(): { proto: object; servers: readonly (readonly [string, number])[] } {
  const handle = (new dns.Resolver() as unknown as { _handle?: { getServers(): [string, number][] } })
    ._handle;
  if (!handle) throw new Error("the network guard could not reach the DNS resolver");
  return { proto: getPrototypeOf(handle) as object, servers: handle.getServers() };
}
/** The native prototypes the guard wraps, found through objects that never reach the network. */
export function nativeHandlePrototypes(): {
  readonly tcp: object;
  readonly pipe: object;
  readonly udp: object;
  readonly resolver: { proto: object; servers: readonly (readonly [string, number])[] };
} {
  return { ...streamHandlePrototypes(), udp: udpHandlePrototype(), resolver: resolverHandle() };
}

/**
 * Guards the connecting methods of the native handle prototypes (exported so that tests can pass
 * stand-ins and check every rule without opening a socket).
 */
export function guardNativeHandles(
  prototypes: { readonly tcp: object; readonly pipe: object; readonly udp: object },
  policy: EgressPolicy,
  report: (refusal: EgressRefusal) => void,
  issued: IssuedSockets = new IssuedSockets(),
): void {
  const { tcp, pipe, udp } = prototypes;
  // Anything but a string address and a number port is refused: an object could read one way
  // here and another in the native code.
  const tcpRefusal = (args: IArguments) => checkPrimitive(policy, args[1], args[2], "connection");
  guardMethod(tcp, "connect", tcpRefusal, report);
  guardMethod(tcp, "connect6", tcpRefusal, report);
  guardMethod(
    pipe,
    "connect",
    (args) =>
      typeof args[1] === "string" && issued.take(args[1]) ? undefined : unixSocketRefusal(String(args[1])),
    report,
  );
  // send(req, buffers, count, port, address, hasCallback); a connected socket's send has no address.
  const sendRefusal = (args: IArguments) =>
    args.length >= 6 ? checkPrimitive(policy, args[4], args[3], "datagram") : undefined;
  guardMethod(udp, "send", sendRefusal, report);
  guardMethod(udp, "send6", sendRefusal, report);
  const udpConnectRefusal = (args: IArguments) => checkPrimitive(policy, args[0], args[1], "datagram");
  guardMethod(udp, "connect", udpConnectRefusal, report);
  guardMethod(udp, "connect6", udpConnectRefusal, report);
}

/**
 * The unix sockets the server issued for tunnelled connections (namespace mode), each usable once.
 * Kept in this module's closure, with captured Set methods: component code can neither add to it
 * nor change how it answers.
 */
export class IssuedSockets {
  private static readonly has = Function.prototype.call.bind(Set.prototype.has) as (
    set: Set<string>,
    value: string,
  ) => boolean;
  private static readonly add = Function.prototype.call.bind(Set.prototype.add) as (
    set: Set<string>,
    value: string,
  ) => void;
  private static readonly remove = Function.prototype.call.bind(Set.prototype.delete) as (
    set: Set<string>,
    value: string,
  ) => boolean;
  readonly #paths = new Set<string>();

  issue(socketPath: string): void {
    IssuedSockets.add(this.#paths, socketPath);
  }

  /** True, once, for a socket the server issued. */
  take(socketPath: string): boolean {
    if (!IssuedSockets.has(this.#paths, socketPath)) return false;
    IssuedSockets.remove(this.#paths, socketPath);
    return true;
  }
}

function checkPrimitive(
  policy: EgressPolicy,
  address: unknown,
  port: unknown,
  kind: "connection" | "datagram",
): EgressRefusal | undefined {
  if (typeof address === "string" && typeof port === "number") return policy.check(address, port, kind);
  return {
    target: "?",
    message: `${kind} refused by Sluice's network policy: the address is not a plain string and port`,
  };
}

export function unixSocketRefusal(socketPath: string): EgressRefusal {
  return {
    target: socketPath,
    message: `connection to the local socket ${socketPath} refused by Sluice's network policy: components may not use local (unix) sockets`,
  };
}

/**
 * A resolver may keep the system's DNS servers; any other server must pass the policy, since a
 * DNS query is a datagram the component addresses. The native method gets a copy made of the
 * checked values, so an array whose elements change between reads cannot slip past.
 */
export function guardResolverServers(
  resolver: { proto: object; servers: readonly (readonly [string, number])[] },
  policy: EgressPolicy,
  report: (refusal: EgressRefusal) => void,
): void {
  const system = resolver.servers.map(([address, port]) => `${address}|${port}`);
  const isSystemServer = (key: string) => {
    for (let i = 0; i < system.length; i++) if (system[i] === key) return true;
    return false;
  };
  const original = (resolver.proto as Record<string, unknown>).setServers as AnyFunction;
  lock(resolver.proto, "setServers", function (this: unknown, servers: unknown) {
    if (!isArray(servers)) return apply(original, this, [servers]);
    const checked: unknown[] = [];
    const count = servers.length;
    for (let i = 0; i < count; i++) {
      const server = servers[i] as unknown[];
      const address = server[1];
      const givenPort = server[2];
      const port = typeof givenPort === "number" && givenPort > 0 ? givenPort : 53;
      const ip = typeof address === "string" ? ipLiteral(address) : undefined;
      const refusal =
        ip === undefined
          ? checkPrimitive(policy, undefined, port, "datagram")
          : isSystemServer(`${ip.address}|${port}`)
            ? undefined
            : policy.check(ip.address, port, "datagram");
      if (refusal !== undefined) {
        report(refusal);
        throw new NetworkPolicyError(refusal.message, refusal.target);
      }
      defineProperty(checked, i, {
        value: [ip?.family === "ipv6" ? 6 : 4, ip?.address, port],
        writable: true,
        enumerable: true,
        configurable: true,
      });
    }
    return apply(original, this, [checked]);
  });
}

/**
 * The egress guard: installed in a runner before the component's bundle loads, it applies the
 * network policy (egress-policy.ts) to every outbound connection and datagram the component makes.
 * Two layers:
 *
 * 1. The backstop, at the lowest level JavaScript can reach: the methods of the native handle
 *    classes that open connections (`TCP#connect`/`connect6`, `Pipe#connect`, `UDP#send`/`send6`/
 *    `connect`/`connect6`, and the DNS resolver's `setServers`). Every path — `net`, `tls`, `http`,
 *    `https`, `http2`, `fetch` (undici), `dgram`, happy-eyeballs retries — ends in one of them,
 *    with the address already resolved, so DNS rebinding cannot slip past: the address checked is
 *    the address connected to. A refused call returns EACCES, as the kernel would.
 * 2. Clear errors, one level up: `net.Socket#connect` and `dgram` check IP literals and wrap the
 *    DNS lookup, so a refusal reaches the component as an error that names the address and the
 *    rule ("connection to 127.0.0.1:5432 refused by Sluice's network policy: …") rather than a
 *    bare EACCES. Each refusal is also reported through `onRefusal` (the invocation's log).
 *
 * Why the component cannot undo it: the native originals live only in this module's closures; the
 * replaced properties are made non-writable and non-configurable; Node's permission model denies
 * `process.binding`, and `internalBinding` is not reachable from user code; `require("net")`,
 * `Module._load` and `import` return the same built-in module objects; a new `vm` context gets no
 * bindings of its own. The checks call only functions captured here (see address-rules.ts), so
 * replacing globals or prototypes of built-ins later changes nothing. See docs/architecture.md for
 * what this cannot cover.
 */
import dgram from "node:dgram";
import dns from "node:dns";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import path from "node:path";
import { ipLiteral } from "./address-rules.js";
import { type EgressPolicy, type EgressRefusal, targetOf } from "./egress-policy.js";
import type { TunnelAnswer, TunnelRequest } from "./egress-tunnel.js";

export interface EgressGuardOptions {
  readonly policy: EgressPolicy;
  /** Told of every refused connection or datagram (the runner writes it to the invocation's log). */
  readonly onRefusal: (refusal: EgressRefusal) => void;
  /**
   * The network-namespace mode: TCP connections are opened by the server, which answers with a
   * unix socket carrying the connection (egress-tunnel.ts). Only sockets it issued may be used.
   */
  readonly tunnel?: (request: TunnelRequest) => Promise<TunnelAnswer>;
}

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

type AnyFunction = (this: unknown, ...args: unknown[]) => unknown;
type LookupCallback = (error: Error | null, address: unknown, family?: number) => void;
type LookupFunction = (hostname: string, options: unknown, callback: LookupCallback) => void;

const apply = Reflect.apply;
const defineProperty = Object.defineProperty;
const getPrototypeOf = Object.getPrototypeOf;
const isArray = Array.isArray;

/** Replaces `object[key]` for good: the property can be neither reassigned nor redefined. */
function lock(object: object, key: string, value: unknown): void {
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

/**
 * Installs the guard in this process. Throws (the runner then refuses to load the component) when
 * a handle it must guard cannot be found: it fails closed, never open.
 */
export function installEgressGuard({ policy, onRefusal, tunnel }: EgressGuardOptions): void {
  const report = (refusal: EgressRefusal) => {
    try {
      onRefusal(refusal);
    } catch {
      // Reporting must never turn a refusal into a crash.
    }
  };
  const { tcp, pipe } = streamHandlePrototypes();
  const udp = udpHandlePrototype();
  const resolver = resolverHandle();

  // Layer 1: the backstop on the native handles.
  const issued = new IssuedSockets();
  guardNativeHandles({ tcp, pipe, udp }, policy, report, issued);
  guardResolverServers(resolver, policy, report);

  // Layer 2: clear errors where the component calls.
  guardSocketConnect(policy, report, tunnel === undefined ? undefined : { open: tunnel, issued });
  guardDatagramSockets(policy, report);
  syncBuiltinESMExports();
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
class IssuedSockets {
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

function unixSocketRefusal(socketPath: string): EgressRefusal {
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
function guardResolverServers(
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

/** A lookup that refuses when any address it returns is refused. */
function guardedLookup(
  lookup: LookupFunction,
  port: number | undefined,
  kind: "connection" | "datagram",
  policy: EgressPolicy,
  report: (refusal: EgressRefusal) => void,
): LookupFunction {
  return (hostname, options, callback) => {
    apply(lookup, undefined, [
      hostname,
      options,
      (error: Error | null, address: unknown, family?: number) => {
        if (error) return callback(error, address, family);
        const entries = isArray(address) ? address : [{ address }];
        for (let i = 0; i < entries.length; i++) {
          const entry = entries[i] as { address?: unknown };
          const refusal = policy.check(String(entry.address), port, kind);
          if (refusal !== undefined) {
            const named =
              hostname === entry.address
                ? refusal
                : {
                    ...refusal,
                    message: refusal.message.replace(
                      ` to ${refusal.target}`,
                      ` to ${hostname} (${refusal.target})`,
                    ),
                  };
            report(named);
            return callback(new NetworkPolicyError(named.message, named.target), undefined);
          }
        }
        callback(null, address, family);
      },
    ]);
  };
}

interface ConnectOptions {
  path?: unknown;
  host?: unknown;
  port?: unknown;
  lookup?: unknown;
}

interface Tunnels {
  readonly open: (request: TunnelRequest) => Promise<TunnelAnswer>;
  readonly issued: IssuedSockets;
}

function guardSocketConnect(
  policy: EgressPolicy,
  report: (refusal: EgressRefusal) => void,
  tunnels: Tunnels | undefined,
): void {
  const proto = net.Socket.prototype as unknown as Record<string, unknown>;
  const original = proto.connect as AnyFunction;
  const normalizeArgs = (net as unknown as { _normalizeArgs: (args: unknown[]) => unknown[] })._normalizeArgs;
  const defaultLookup = dns.lookup as unknown as LookupFunction;
  lock(proto, "connect", function (this: net.Socket, ...args: unknown[]) {
    // Node's own callers pass one already normalized [options, callback] array.
    const normalized = args.length === 1 && isArray(args[0]) ? (args[0] as unknown[]) : normalizeArgs(args);
    const options = normalized[0] as ConnectOptions | undefined;
    const callback = normalized[1];
    if (options === null || typeof options !== "object") return apply(original, this, args);
    const fail = (refusal: EgressRefusal) => {
      report(refusal);
      process.nextTick(() => this.destroy(new NetworkPolicyError(refusal.message, refusal.target)));
      return this;
    };
    if (options.path !== undefined && options.path !== null)
      return fail(unixSocketRefusal(String(options.path)));
    const port = options.port === undefined ? undefined : Number(options.port);
    const host = typeof options.host === "string" ? options.host : "localhost";
    if (ipLiteral(host) !== undefined) {
      const refusal = policy.check(host, port);
      if (refusal !== undefined) return fail(refusal);
      if (tunnels === undefined) return apply(original, this, args);
    }
    if (tunnels !== undefined)
      return connectThroughTunnel(this, tunnels, host, port, callback, original, report);
    if (options.lookup !== undefined && typeof options.lookup !== "function")
      return apply(original, this, args);
    const lookup = guardedLookup(
      (options.lookup as LookupFunction | undefined) ?? defaultLookup,
      port,
      "connection",
      policy,
      report,
    );
    const guarded = { ...options, lookup };
    return apply(original, this, callback === undefined ? [guarded] : [guarded, callback]);
  });
}

/**
 * Datagram sockets get a lookup that checks where they send. Their `bind` resolves its local
 * address through the same lookup (synchronously, inside `bind`, also for the implicit bind of a
 * first `send`), so lookups made while binding are passed through: a local address is not a
 * destination, and the backstop still checks every datagram sent.
 */
/**
 * Namespace mode: the server opens the connection and hands over a unix socket; the component's
 * socket connects to that. Writes made meanwhile wait for 'connect', as they do during a lookup.
 */
function connectThroughTunnel(
  socket: net.Socket,
  tunnels: Tunnels,
  host: string,
  port: number | undefined,
  callback: unknown,
  original: AnyFunction,
  report: (refusal: EgressRefusal) => void,
): net.Socket {
  (socket as { connecting: boolean }).connecting = true;
  tunnels.open({ host, port: port ?? 0 }).then(
    (answer) => {
      if (socket.destroyed) return;
      if (answer.ok) {
        tunnels.issued.issue(answer.path);
        apply(
          original,
          socket,
          callback === undefined ? [{ path: answer.path }] : [{ path: answer.path }, callback],
        );
        return;
      }
      if (answer.refused) {
        report({ target: answer.target ?? host, message: answer.message });
        socket.destroy(new NetworkPolicyError(answer.message, answer.target ?? host));
      } else {
        socket.destroy(Object.assign(new Error(answer.message), { code: answer.code }));
      }
    },
    (error: unknown) => socket.destroy(error instanceof Error ? error : new Error(String(error))),
  );
  return socket;
}

function guardDatagramSockets(policy: EgressPolicy, report: (refusal: EgressRefusal) => void): void {
  const OriginalSocket = dgram.Socket as unknown as new (options: object, listener?: unknown) => dgram.Socket;
  const proto = OriginalSocket.prototype as unknown as Record<string, unknown>;
  const originalBind = proto.bind as AnyFunction;
  let binding = 0;
  lock(proto, "bind", function (this: unknown, ...args: unknown[]) {
    binding++;
    try {
      return apply(originalBind, this, args);
    } finally {
      binding--;
    }
  });
  const defaultLookup = dns.lookup as unknown as LookupFunction;
  function withGuardedLookup(type: unknown): object {
    const options = (typeof type === "string" ? { type } : { ...(type as object) }) as { lookup?: unknown };
    const given = typeof options.lookup === "function" ? (options.lookup as LookupFunction) : defaultLookup;
    const checked = guardedLookup(given, undefined, "datagram", policy, report);
    const lookup: LookupFunction = (hostname, lookupOptions, callback) =>
      (binding > 0 ? given : checked)(hostname, lookupOptions, callback);
    return { ...options, lookup };
  }
  function GuardedSocket(type: unknown, listener?: unknown): dgram.Socket {
    return new OriginalSocket(withGuardedLookup(type), listener);
  }
  GuardedSocket.prototype = OriginalSocket.prototype;
  lock(dgram, "Socket", GuardedSocket);
  lock(dgram, "createSocket", (type: unknown, listener?: unknown) => GuardedSocket(type, listener));
}

export { targetOf };

/**
 * The egress guard, installed in a runner before the bundle loads. A backstop on the native handle
 * methods every connection and datagram ends in (native-handles.ts: the address checked is the
 * address connected to, a refusal is EACCES), and clear errors one level up that name the address
 * and the rule. Why a component cannot undo it: ../ARCHITECTURE.md; what it cannot cover:
 * docs/architecture.md.
 */
import dgram from "node:dgram";
import dns from "node:dns";
import { syncBuiltinESMExports } from "node:module";
import net from "node:net";
import { ipLiteral } from "./address-rules.js";
import type { EgressPolicy, EgressRefusal } from "./egress-policy.js";
import type { TunnelAnswer, TunnelRequest } from "./egress-tunnel.js";
import {
  type AnyFunction,
  guardNativeHandles,
  guardResolverServers,
  IssuedSockets,
  lock,
  NetworkPolicyError,
  nativeHandlePrototypes,
  unixSocketRefusal,
} from "./native-handles.js";

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

type LookupCallback = (error: Error | null, address: unknown, family?: number) => void;
type LookupFunction = (hostname: string, options: unknown, callback: LookupCallback) => void;

const apply = Reflect.apply;
const isArray = Array.isArray;

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
  const { tcp, pipe, udp, resolver } = nativeHandlePrototypes();

  // Layer 1: the backstop on the native handles.
  const issued = new IssuedSockets();
  guardNativeHandles({ tcp, pipe, udp }, policy, report, issued);
  guardResolverServers(resolver, policy, report);

  // Layer 2: clear errors where the component calls.
  guardSocketConnect(policy, report, tunnel === undefined ? undefined : { open: tunnel, issued });
  guardDatagramSockets(policy, report);
  syncBuiltinESMExports();
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

/**
 * Datagram sockets get a lookup that checks where they send. Their `bind` resolves its local
 * address through the same lookup (synchronously, inside `bind`, also for the implicit bind of a
 * first `send`), so lookups made while binding are passed through: a local address is not a
 * destination, and the backstop still checks every datagram sent.
 */
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

export { NetworkPolicyError };

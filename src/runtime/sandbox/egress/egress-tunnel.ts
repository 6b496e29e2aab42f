/**
 * The server's half of the network-namespace mode: a runner there has no route, so the server
 * resolves, checks and connects each address itself (a DNS answer cannot change between the check
 * and the connect), and hands the runner a unix socket in the runner's own directory: sockets are
 * files, which cross network namespaces.
 */
import dns from "node:dns";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { ipLiteral } from "./address-rules.js";
import type { EgressPolicy } from "./egress-policy.js";

export interface TunnelRequest {
  readonly host: string;
  readonly port: number;
}

export type TunnelAnswer =
  | { readonly ok: true; readonly path: string }
  | {
      readonly ok: false;
      readonly message: string;
      /** True when the policy refused (the runner logs it); false for a failed lookup or connect. */
      readonly refused: boolean;
      readonly code?: string;
      readonly target?: string;
    };

/** How long a connection or the runner's pick-up of it may take. */
const TUNNEL_TIMEOUT_MS = 15_000;

async function addressesOf(host: string): Promise<string[]> {
  const literal = ipLiteral(host.replace(/^\[|\]$/g, ""));
  if (literal) return [literal.address];
  const found = await dns.promises.lookup(host, { all: true });
  return found.map((entry) => entry.address);
}

function connectTo(address: string, port: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port, timeout: TUNNEL_TIMEOUT_MS });
    socket.once("connect", () => {
      socket.setTimeout(0);
      resolve(socket);
    });
    socket.once("timeout", () =>
      socket.destroy(Object.assign(new Error(`connect ETIMEDOUT ${address}:${port}`), { code: "ETIMEDOUT" })),
    );
    socket.once("error", reject);
  });
}

/** A unix socket at `socketPath` that carries `upstream` to the first (and only) client. */
function handOver(upstream: net.Socket, socketPath: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const server = net.createServer({ allowHalfOpen: true }, (client) => {
      clearTimeout(unclaimed);
      server.close();
      fs.rm(socketPath, { force: true }, () => {});
      const end = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on("error", end).on("close", end);
      upstream.on("error", end).on("close", end);
      client.pipe(upstream);
      upstream.pipe(client);
    });
    const unclaimed = setTimeout(() => {
      server.close();
      upstream.destroy();
      fs.rm(socketPath, { force: true }, () => {});
    }, TUNNEL_TIMEOUT_MS);
    unclaimed.unref();
    server.once("error", (error) => {
      clearTimeout(unclaimed);
      upstream.destroy();
      reject(error);
    });
    server.listen(socketPath, () => resolve());
  });
}

/**
 * Opens one tunnelled connection for a runner whose directory is `dir`. Never throws: every
 * outcome is an answer for the runner.
 */
export async function openTunnel(
  request: TunnelRequest,
  policy: EgressPolicy,
  dir: string,
  id: number,
): Promise<TunnelAnswer> {
  const { host, port } = request;
  if (typeof host !== "string" || !Number.isInteger(port) || port < 1 || port > 65535) {
    return {
      ok: false,
      refused: true,
      message: "connection refused by Sluice's network policy: not a host and port",
    };
  }
  let addresses: string[];
  try {
    addresses = await addressesOf(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "ENOTFOUND";
    return { ok: false, refused: false, code, message: `getaddrinfo ${code} ${host}` };
  }
  for (const address of addresses) {
    const refusal = policy.check(address, port);
    if (refusal !== undefined) {
      const message =
        host === address
          ? refusal.message
          : refusal.message.replace(` to ${refusal.target}`, ` to ${host} (${refusal.target})`);
      return { ok: false, refused: true, message, target: refusal.target };
    }
  }
  const address = addresses[0];
  if (address === undefined)
    return { ok: false, refused: false, code: "ENOTFOUND", message: `getaddrinfo ENOTFOUND ${host}` };
  let upstream: net.Socket;
  try {
    upstream = await connectTo(address, port);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code ?? "ECONNREFUSED";
    return { ok: false, refused: false, code, message: (error as Error).message };
  }
  const socketPath = path.join(dir, `egress-${id}.sock`);
  try {
    await handOver(upstream, socketPath);
  } catch (error) {
    return {
      ok: false,
      refused: false,
      code: "EIO",
      message: `the egress tunnel could not be opened: ${(error as Error).message}`,
    };
  }
  return { ok: true, path: socketPath };
}

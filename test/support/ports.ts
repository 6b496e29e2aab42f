/**
 * Fixed ports on 127.0.0.1 for processes that must come back on the same port after a restart
 * (cluster nodes behind nginx). They are picked below Linux's ephemeral range (32768 and up by
 * default), so no outgoing connection of the test can hold one while its node restarts.
 */
import net from "node:net";

const LOW = 20_000;
const HIGH = 32_000;
const taken = new Set<number>();

/** A port in 20000–31999 that is free on 127.0.0.1 now and not handed out before in this process. */
export async function freeLoopbackPort(): Promise<number> {
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOW + Math.floor(Math.random() * (HIGH - LOW));
    if (taken.has(port)) continue;
    if (await canListen(port)) {
      taken.add(port);
      return port;
    }
  }
  throw new Error(`no free port between ${LOW} and ${HIGH} on 127.0.0.1`);
}

function canListen(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** Resolves once 127.0.0.1:port accepts a connection; rejects after timeoutMs or when `gaveUp` says so. */
export async function waitForPort(port: number, timeoutMs: number, gaveUp: () => boolean = () => false) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const connected = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, "127.0.0.1");
      socket.once("connect", () => {
        socket.destroy();
        resolve(true);
      });
      socket.once("error", () => resolve(false));
    });
    if (connected) return;
    if (gaveUp()) throw new Error(`the process exited before 127.0.0.1:${port} accepted connections`);
    if (Date.now() > deadline)
      throw new Error(`127.0.0.1:${port} accepted no connection within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * The local TCP ports of a process's sockets, read from /proc (Linux): which requests a recorder
 * got came from which server process, for tests that must know what one node of several holds.
 *
 * Asynchronous, and it searches the socket tables for the process's inodes rather than parsing
 * every line: after a load test the tables hold tens of thousands of TIME_WAIT lines, and a
 * synchronous scan of them blocked the test process (which timestamps the recorder's arrivals)
 * long enough to bunch arrivals up.
 */
import fs from "node:fs/promises";

/** Local ports of the TCP sockets (IPv4 and IPv6) the process has open; empty once it is gone. */
export async function tcpLocalPorts(pid: number): Promise<Set<number>> {
  let fds: string[];
  try {
    fds = await fs.readdir(`/proc/${pid}/fd`);
  } catch {
    return new Set();
  }
  const links = await Promise.all(
    // A descriptor closed between readdir and readlink reads as nothing.
    fds.map((fd) => fs.readlink(`/proc/${pid}/fd/${fd}`).catch(() => "")),
  );
  const inodes = links.flatMap((link) => /^socket:\[(\d+)\]$/.exec(link)?.[1] ?? []);
  const ports = new Set<number>();
  for (const table of [`/proc/${pid}/net/tcp`, `/proc/${pid}/net/tcp6`]) {
    const text = await fs.readFile(table, "utf8").catch(() => "");
    for (const inode of inodes) {
      const port = localPortOf(text, inode);
      if (port !== undefined) ports.add(port);
    }
  }
  return ports;
}

/**
 * The local port on the line of a /proc/net/tcp table whose inode field is `inode`:
 * `sl local_address rem_address st tx_queue:rx_queue tr:tm->when retrnsmt uid timeout inode …`.
 */
function localPortOf(table: string, inode: string): number | undefined {
  for (let at = table.indexOf(` ${inode} `); at !== -1; at = table.indexOf(` ${inode} `, at + 1)) {
    const start = table.lastIndexOf("\n", at) + 1;
    const end = table.indexOf("\n", at);
    const fields = table
      .slice(start, end === -1 ? undefined : end)
      .trim()
      .split(/\s+/);
    const local = fields[1];
    if (fields[9] !== inode || !local) continue;
    return Number.parseInt(local.slice(local.lastIndexOf(":") + 1), 16);
  }
  return undefined;
}

/**
 * An action for the network-policy tests (test/rest/network-*.test.ts) that tries one thing and
 * returns what happened: the error's message, or "reached".
 */
export const probe = `import net from "node:net"; import dgram from "node:dgram";
export default {
  name: "Probe", type: "action",
  props: { what: { type: "string" }, port: { type: "integer" } },
  async run() {
    switch (this.what) {
      case "tcp": return await new Promise((resolve) => net.connect(this.port, "127.0.0.1", () => resolve("reached")).on("error", (e) => resolve(e.message)));
      case "http": return await fetch("http://127.0.0.1:" + this.port + "/health").then((r) => "reached " + r.status, (e) => e.cause?.message ?? e.message);
      case "name": return await fetch("http://localhost:" + this.port + "/health").then((r) => "reached " + r.status, (e) => e.cause?.message ?? e.message);
      case "interfaces": return Object.keys((await import("node:os")).networkInterfaces());
      case "udp": return await new Promise((resolve) => { const s = dgram.createSocket("udp4"); s.send("x", this.port, "127.0.0.1", (e) => { s.close(); resolve(e ? e.message : "reached"); }); });
    }
  },
};`;

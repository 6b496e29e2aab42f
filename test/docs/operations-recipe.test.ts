/**
 * docs/operations.md's "Several nodes behind nginx" is the set-up the cluster suite runs: its nginx
 * site is the one the suite generates (test/support/nginx.ts), its node environment is one the
 * server accepts, and its systemd unit waits long enough for a drain.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ENV } from "../../src/config/env.js";
import { loadServerConfig } from "../../src/config/server-config.js";
import { loadMasterKey } from "../../src/core/secret-box.js";
import { projectRoot } from "../support/cli.js";
import { nginxSiteConfig } from "../support/nginx.js";

const page = fs.readFileSync(path.join(projectRoot, "docs", "operations.md"), "utf8");
const recipe = page.slice(
  page.indexOf("## Several nodes behind nginx"),
  page.indexOf("## When the database goes away"),
);

/** The body of the recipe's first fenced block in `language`. */
function block(language: string): string {
  const match = new RegExp(`\`\`\`${language}\\n([\\s\\S]*?)\`\`\``).exec(recipe);
  if (!match?.[1]) throw new Error(`the recipe has no ${language} block`);
  return match[1];
}

describe("the several-nodes recipe of docs/operations.md", () => {
  it("shows the nginx site the cluster suite runs, for three nodes on port 8080", () => {
    expect(block("nginx")).toBe(
      nginxSiteConfig({
        upstreams: ["10.0.0.11:8080", "10.0.0.12:8080", "10.0.0.13:8080"],
        listen: "80",
        serverName: "sluice.example.com",
      }),
    );
  });

  it("gives each node an environment the server accepts, naming only variables it reads", () => {
    const env: Record<string, string> = {};
    for (const line of block("sh").split("\n")) {
      if (line === "" || line.startsWith("#")) continue;
      const [name = "", ...value] = line.split("=");
      env[name] = value.join("=");
    }
    const known: string[] = Object.values(ENV);
    expect(Object.keys(env).filter((name) => !known.includes(name))).toEqual([]);
    const config = loadServerConfig({}, env);
    expect(config).toMatchObject({
      host: "10.0.0.11",
      port: 8080,
      baseUrl: "https://sluice.example.com",
      databaseUrl: "postgres://sluice:secret@10.0.0.5:5432/sluice",
      drainDelayMs: 0,
      shutdownTimeoutMs: 30_000,
    });
    expect(loadMasterKey(config.masterKey, "/nonexistent")).toHaveLength(32);

    // systemd waits for the drain before it kills the node.
    const stopSeconds = Number(/^TimeoutStopSec=(\d+)$/m.exec(block("ini"))?.[1]);
    expect(stopSeconds * 1000).toBeGreaterThan(config.drainDelayMs + config.shutdownTimeoutMs);
    expect(block("ini")).toMatch(/^KillMode=mixed$/m);
  });
});

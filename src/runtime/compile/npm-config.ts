/**
 * The npm settings the compiler honours (registry, TLS, proxy, cache), read once from the npm CLI
 * so that registry look-ups in this process go where `npm install` on this machine goes.
 */

import { execFile } from "node:child_process";
import fs from "node:fs/promises";
import path from "node:path";
import { promisify } from "node:util";

const execFileAsync = promisify(execFile);

/** What registry look-ups need to know; field names are those of npm-registry-fetch. */
export interface NpmSettings {
  readonly registry: string;
  readonly ca: string | readonly string[] | null;
  readonly strictSSL: boolean;
  readonly proxy: string | null;
  readonly httpsProxy: string | null;
  readonly noProxy: string | null;
  /** npm's content cache (`<cache>/_cacache`), shared with the npm CLI. */
  readonly cache: string | undefined;
  readonly timeout: number | undefined;
}

/** Runs `npm config list --json` and keeps what registry look-ups need. */
export async function readNpmSettings(npmCommand: string): Promise<NpmSettings> {
  const { stdout } = await execFileAsync(npmCommand, ["config", "list", "--json"], {
    maxBuffer: 4 * 1024 * 1024,
    timeout: 60_000,
  });
  const config: Record<string, unknown> = JSON.parse(stdout);
  const text = (key: string): string | null => {
    const value = config[key];
    return typeof value === "string" && value !== "" ? value : null;
  };
  const cafile = text("cafile");
  const ca = cafile !== null ? await fs.readFile(cafile, "utf8") : caList(config.ca);
  const cache = text("cache");
  const timeout = config["fetch-timeout"];
  return {
    registry: text("registry") ?? "https://registry.npmjs.org/",
    ca,
    strictSSL: config["strict-ssl"] !== false,
    proxy: text("proxy"),
    httpsProxy: text("https-proxy"),
    noProxy: text("noproxy"),
    cache: cache === null ? undefined : path.join(cache, "_cacache"),
    timeout: typeof timeout === "number" ? timeout : undefined,
  };
}

function caList(value: unknown): string | readonly string[] | null {
  if (typeof value === "string" && value !== "") return value;
  if (Array.isArray(value) && value.every((entry) => typeof entry === "string")) return value;
  return null;
}

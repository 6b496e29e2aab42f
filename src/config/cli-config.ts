/**
 * Where the CLI finds its server and key: flags, then SLUICE_API_KEY / SLUICE_BASE_URL, then the
 * profile in ~/.config/sluice/config (INI, one section per profile), then the local default.
 */
import fs from "node:fs";
import path from "node:path";
import ini from "ini";
import { ConfigError, ENV, type Environment, processEnvironment } from "./env.js";

export const DEFAULT_BASE_URL = "http://127.0.0.1:8080";
export const DEFAULT_PROFILE = "default";

export interface CliFlags {
  profile?: string;
  apiKey?: string;
  baseUrl?: string;
}

export interface CliConfig {
  readonly profile: string;
  readonly apiKey: string | undefined;
  readonly baseUrl: string;
  /** The profile file consulted, for messages. */
  readonly file: string;
}

export interface ProfileSettings {
  api_key?: string;
  base_url?: string;
}

export function profileFile(env: Environment = processEnvironment()): string {
  const configHome = env[ENV.configHome] || path.join(env[ENV.home] || "", ".config");
  return path.join(configHome, "sluice", "config");
}

export function loadCliConfig(flags: CliFlags = {}, env: Environment = processEnvironment()): CliConfig {
  const file = profileFile(env);
  const profile = flags.profile || env[ENV.profile] || DEFAULT_PROFILE;
  const saved = readProfiles(file)[profile] ?? {};
  return {
    profile,
    file,
    apiKey: flags.apiKey || env[ENV.apiKey] || saved.api_key || undefined,
    baseUrl: (flags.baseUrl || env[ENV.baseUrl] || saved.base_url || DEFAULT_BASE_URL).replace(/\/+$/, ""),
  };
}

/** Writes one profile, keeping the others; the file is readable by its owner only. */
export function saveProfile(file: string, profile: string, settings: ProfileSettings): void {
  const profiles = readProfiles(file);
  profiles[profile] = { ...profiles[profile], ...settings };
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  fs.writeFileSync(file, ini.stringify(profiles), { mode: 0o600 });
  fs.chmodSync(file, 0o600);
}

function readProfiles(file: string): Record<string, ProfileSettings> {
  let text: string;
  try {
    text = fs.readFileSync(file, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return {};
    throw new ConfigError(`Cannot read ${file}: ${(error as Error).message}`);
  }
  return ini.parse(text) as Record<string, ProfileSettings>;
}

/**
 * The server's configuration: one typed object built once from command-line flags, then the
 * environment (DESIGN.md section 7), then defaults. Every value is checked here, so a bad value
 * stops the server at start with a message naming the variable, never later at runtime.
 */
import os from "node:os";
import path from "node:path";
import { parseCidrSet } from "../runtime/sandbox/egress/address-rules.js";
import type { SandboxNetworkMode } from "../runtime/sandbox/egress/network-namespace.js";
import { ConfigError, ENV, type Environment, processEnvironment } from "./env.js";

export type LogLevel = "fatal" | "error" | "warn" | "info" | "debug" | "trace" | "silent";
const LOG_LEVELS: readonly LogLevel[] = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

export interface ServerConfig {
  readonly host: string;
  readonly port: number;
  /** Public URL of this server, used to build source endpoint URLs. */
  readonly baseUrl: string;
  readonly dataDir: string;
  /** `postgres://…` for scale mode; undefined means the embedded SQLite file in dataDir. */
  readonly databaseUrl: string | undefined;
  /** Base64 or hex 32-byte key; undefined means generate one into dataDir on first start. */
  readonly masterKey: string | undefined;
  readonly bootstrapApiKey: string | undefined;
  /** Private ranges that webhook deliveries, component URLs and `$.send.http` may reach. */
  readonly allowedCidrs: readonly string[];
  /**
   * Private ranges that component code may connect to (the sandbox's network policy). Sluice's
   * own database and listen address stay refused whatever this says.
   */
  readonly componentAllowedCidrs: readonly string[];
  /**
   * How the sandbox enforces that policy: `guard` (in each runner, the default) or `namespace`
   * (also a network namespace per runner, with the server opening its connections).
   */
  readonly sandboxNetwork: SandboxNetworkMode;
  /** Seconds between a webhook delivery's attempts (the first entry: before the first). */
  readonly retryScheduleSeconds: readonly number[];
  /** Seconds between a workflow run's attempts, for its `retries` (the first entry: before the first). */
  readonly runRetryScheduleSeconds: readonly number[];
  /**
   * How long a delivery that is over (delivered, or failed) is kept, with its attempts, after it
   * last changed; 0 keeps every one (core/delivery/retention.ts).
   */
  readonly deliveryRetentionMs: number;
  readonly maxRunners: number;
  /** MB of proportional set size (PSS) the warm runners may take together. */
  readonly runnerMemoryMb: number;
  /** Requests per minute per API key (or per client address without a key). */
  readonly rateLimitPerMinute: number;
  readonly bodyLimitBytes: number;
  /** Largest request body a source's HTTP endpoint accepts. */
  readonly endpointBodyLimitBytes: number;
  readonly logLevel: LogLevel;
  /**
   * After SIGTERM, how long the node goes on serving requests with /ready answering 503 before it
   * closes its listener: time for a load balancer that polls /ready to send traffic elsewhere.
   */
  readonly drainDelayMs: number;
  /** After the drain delay, how long requests and jobs in flight may take before the process exits 1. */
  readonly shutdownTimeoutMs: number;
  /** How long an access token of `POST /v1/oauth/token` lasts (Pipedream's: an hour). */
  readonly accessTokenSeconds: number;
  /** Where an action's `$.send.email` goes; undefined when SLUICE_SMTP_URL is not set. */
  readonly smtp: SmtpConfig | undefined;
  /** How long an OAuth connection's authorize link (its `state`) stays usable. */
  readonly oauthStateTtlSeconds: number;
}

export interface SmtpConfig {
  /** `smtp://` or `smtps://`, with credentials if the server needs them (never logged). */
  readonly url: string;
  /** The sender of every email (SLUICE_SMTP_FROM). */
  readonly from: string;
  /** The recipient (SLUICE_SMTP_TO, else the sender): the account owner's address, as on Pipedream. */
  readonly to: string;
}

/** Flags of `sluice server`; each overrides its environment variable. */
export interface ServerFlags {
  host?: string;
  port?: string | number;
  baseUrl?: string;
  dataDir?: string;
  databaseUrl?: string;
  logLevel?: string;
}

const DEFAULT_RETRY_SCHEDULE = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];
/** Pipedream's auto-retry: 8 retries over about 10 hours, each wait twice the one before. */
const DEFAULT_RUN_RETRY_SCHEDULE = [0, 140, 280, 560, 1120, 2240, 4480, 8960, 17920];

export function loadServerConfig(
  flags: ServerFlags = {},
  env: Environment = processEnvironment(),
): ServerConfig {
  const pick = (flag: string | number | undefined, name: string): string | undefined => {
    if (flag !== undefined && flag !== "") return String(flag);
    const value = env[name];
    return value === undefined || value === "" ? undefined : value;
  };

  const host = pick(flags.host, ENV.host) ?? "127.0.0.1";
  const port = parseInteger(pick(flags.port, ENV.port), ENV.port, { min: 0, max: 65535 }) ?? 8080;
  const baseUrl = trimSlash(
    parseUrl(pick(flags.baseUrl, ENV.baseUrl), ENV.baseUrl) ?? `http://${hostForUrl(host)}:${port}`,
  );
  const dataDir = path.resolve(pick(flags.dataDir, ENV.dataDir) ?? ".sluice");
  const databaseUrl = parseDatabaseUrl(pick(flags.databaseUrl, ENV.databaseUrl));
  const logLevel = parseLogLevel(pick(flags.logLevel, ENV.logLevel) ?? "info");

  return {
    host,
    port,
    baseUrl,
    dataDir,
    databaseUrl,
    masterKey: pick(undefined, ENV.masterKey),
    bootstrapApiKey: parseBootstrapKey(pick(undefined, ENV.bootstrapApiKey)),
    allowedCidrs: parseCidrs(pick(undefined, ENV.allowedCidrs), ENV.allowedCidrs),
    componentAllowedCidrs: parseCidrs(pick(undefined, ENV.componentAllowedCidrs), ENV.componentAllowedCidrs),
    sandboxNetwork: parseSandboxNetwork(pick(undefined, ENV.sandboxNetwork)),
    retryScheduleSeconds:
      parseRetrySchedule(pick(undefined, ENV.retrySchedule), ENV.retrySchedule) ?? DEFAULT_RETRY_SCHEDULE,
    runRetryScheduleSeconds:
      parseRetrySchedule(pick(undefined, ENV.runRetrySchedule), ENV.runRetrySchedule) ??
      DEFAULT_RUN_RETRY_SCHEDULE,
    deliveryRetentionMs:
      (parseDays(pick(undefined, ENV.deliveryRetentionDays), ENV.deliveryRetentionDays) ?? 30) * 86_400_000,
    maxRunners:
      parseInteger(pick(undefined, ENV.maxRunners), ENV.maxRunners, { min: 1, max: 10_000 }) ??
      defaultMaxRunners(),
    runnerMemoryMb:
      parseInteger(pick(undefined, ENV.runnerMemory), ENV.runnerMemory, { min: 64, max: 1 << 24 }) ??
      defaultRunnerMemoryMb(),
    rateLimitPerMinute:
      parseInteger(pick(undefined, ENV.rateLimit), ENV.rateLimit, { min: 1, max: 10_000_000 }) ?? 1200,
    bodyLimitBytes:
      parseInteger(pick(undefined, ENV.bodyLimit), ENV.bodyLimit, { min: 1024, max: 1 << 30 }) ?? 1 << 20,
    endpointBodyLimitBytes:
      parseInteger(pick(undefined, ENV.endpointBodyLimit), ENV.endpointBodyLimit, {
        min: 1024,
        max: 1 << 30,
      }) ?? 10 << 20,
    logLevel,
    drainDelayMs:
      parseInteger(pick(undefined, ENV.drainDelay), ENV.drainDelay, { min: 0, max: 3_600_000 }) ?? 0,
    // Long enough for what a node may have in flight by default: an HTTP invocation (30 s time-out)
    // and a delivery attempt (15 s).
    shutdownTimeoutMs:
      parseInteger(pick(undefined, ENV.shutdownTimeout), ENV.shutdownTimeout, { min: 0, max: 3_600_000 }) ??
      30_000,
    smtp: parseSmtp(pick(undefined, ENV.smtpUrl), pick(undefined, ENV.smtpFrom), pick(undefined, ENV.smtpTo)),
    oauthStateTtlSeconds:
      parseInteger(pick(undefined, ENV.oauthStateTtl), ENV.oauthStateTtl, { min: 1, max: 86_400 }) ?? 600,
    accessTokenSeconds:
      parseInteger(pick(undefined, ENV.accessTokenSeconds), ENV.accessTokenSeconds, {
        min: 1,
        max: 86_400,
      }) ?? 3600,
  };
}

const DEFAULT_SMTP_FROM = "sluice@localhost";
/** `name@example.com` or `Name <name@example.com>`: a sanity check, the SMTP server has the last word. */
const EMAIL_ADDRESS = /^(?:[^\s@<>]+@[^\s@<>]+|[^<>]*<[^\s@<>]+@[^\s@<>]+>)$/;

function parseSmtp(
  url: string | undefined,
  from: string | undefined,
  to: string | undefined,
): SmtpConfig | undefined {
  if (url === undefined) {
    if (from !== undefined || to !== undefined) {
      throw new ConfigError(
        `${ENV.smtpFrom} and ${ENV.smtpTo} need ${ENV.smtpUrl}, the SMTP server to send through`,
      );
    }
    return undefined;
  }
  let parsed: URL | undefined;
  try {
    parsed = new URL(url);
  } catch {
    parsed = undefined;
  }
  // The URL may hold a password: it is never repeated in the message.
  if (
    parsed === undefined ||
    (parsed.protocol !== "smtp:" && parsed.protocol !== "smtps:") ||
    !parsed.hostname
  ) {
    throw new ConfigError(
      `${ENV.smtpUrl} must be an smtp:// or smtps:// URL, such as smtps://user:password@smtp.example.com:465`,
    );
  }
  for (const [name, address] of [
    [ENV.smtpFrom, from],
    [ENV.smtpTo, to],
  ] as const) {
    if (address !== undefined && !EMAIL_ADDRESS.test(address.trim())) {
      throw new ConfigError(
        `${name} must be an email address (name@example.com or "Name <name@example.com>"), got '${address}'`,
      );
    }
  }
  const sender = from?.trim() ?? DEFAULT_SMTP_FROM;
  return { url, from: sender, to: to?.trim() ?? sender };
}

/** One warm runner per 128 MB of memory, kept between 4 and 256. */
const MB = 1024 * 1024;

/**
 * One warm runner per 32 MB of memory, 4 to 1,024. An idle runner takes about 8 MB of PSS (its
 * RSS of about 40 MB is mostly Node's code, shared between runners); the memory budget below is
 * what bounds their memory, measured.
 */
function defaultMaxRunners(): number {
  return Math.max(4, Math.min(1024, Math.floor(os.totalmem() / (32 * MB))));
}

/** Half of the machine's memory for the warm runners, measured as PSS. */
function defaultRunnerMemoryMb(): number {
  return Math.max(64, Math.floor(os.totalmem() / 2 / MB));
}

function parseInteger(
  raw: string | undefined,
  name: string,
  range: { min: number; max: number },
): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^-?\d+$/.test(raw.trim())) throw new ConfigError(`${name} must be an integer, got '${raw}'`);
  const value = Number(raw);
  if (value < range.min || value > range.max) {
    throw new ConfigError(`${name} must be between ${range.min} and ${range.max}, got ${value}`);
  }
  return value;
}

/** A number of days, fractions allowed (0.5 is twelve hours); 0 or more, at most a hundred years. */
function parseDays(raw: string | undefined, name: string): number | undefined {
  if (raw === undefined) return undefined;
  if (!/^\d+(\.\d+)?$/.test(raw.trim())) {
    throw new ConfigError(`${name} must be a number of days (0 keeps everything), got '${raw}'`);
  }
  const value = Number(raw);
  if (value > 36_500) throw new ConfigError(`${name} must be at most 36500 days, got ${value}`);
  return value;
}

function parseUrl(raw: string | undefined, name: string): string | undefined {
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`${name} must be an absolute http(s) URL, got '${raw}'`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new ConfigError(`${name} must be an http or https URL, got '${raw}'`);
  }
  return raw;
}

function parseDatabaseUrl(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (!/^postgres(ql)?:\/\//.test(raw)) {
    throw new ConfigError(
      `${ENV.databaseUrl} must be a postgres:// URL (leave it unset for the embedded SQLite database)`,
    );
  }
  return raw;
}

function parseLogLevel(raw: string): LogLevel {
  const level = LOG_LEVELS.find((candidate) => candidate === raw);
  if (!level) throw new ConfigError(`${ENV.logLevel} must be one of ${LOG_LEVELS.join(", ")}, got '${raw}'`);
  return level;
}

function parseBootstrapKey(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  if (raw.length < 16 || /\s/.test(raw)) {
    throw new ConfigError(`${ENV.bootstrapApiKey} must be at least 16 characters with no spaces`);
  }
  return raw;
}

function parseList(raw: string | undefined): string[] {
  if (raw === undefined) return [];
  return raw
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

function parseSandboxNetwork(raw: string | undefined): SandboxNetworkMode {
  if (raw === undefined || raw === "guard") return "guard";
  if (raw === "namespace") return "namespace";
  throw new ConfigError(`${ENV.sandboxNetwork} must be guard or namespace, got '${raw}'`);
}

/** A comma-separated list of CIDR ranges, each checked now so a typo stops the server at start. */
function parseCidrs(raw: string | undefined, variable: string): string[] {
  const cidrs = parseList(raw);
  try {
    parseCidrSet(cidrs, variable);
  } catch (error) {
    throw new ConfigError((error as Error).message);
  }
  return cidrs;
}

function parseRetrySchedule(raw: string | undefined, variable: string): number[] | undefined {
  if (raw === undefined) return undefined;
  const items = parseList(raw);
  const seconds = items.map(Number);
  if (items.length === 0 || seconds.some((value) => !Number.isFinite(value) || value < 0)) {
    throw new ConfigError(
      `${variable} must be a comma-separated list of seconds between attempts, such as 0,5,300; got '${raw}'`,
    );
  }
  return seconds;
}

function hostForUrl(host: string): string {
  if (host === "0.0.0.0" || host === "::") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

function trimSlash(url: string): string {
  return url.replace(/\/+$/, "");
}

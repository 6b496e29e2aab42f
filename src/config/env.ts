/**
 * Every environment variable Sluice reads, in one place. Nothing outside src/config reads
 * process.env: the server and the CLI build their typed config objects from here.
 */
export type Environment = Readonly<Record<string, string | undefined>>;

export const ENV = {
  host: "SLUICE_HOST",
  port: "SLUICE_PORT",
  baseUrl: "SLUICE_BASE_URL",
  dataDir: "SLUICE_DATA_DIR",
  databaseUrl: "SLUICE_DATABASE_URL",
  masterKey: "SLUICE_MASTER_KEY",
  bootstrapApiKey: "SLUICE_BOOTSTRAP_API_KEY",
  allowedCidrs: "SLUICE_ALLOWED_CIDRS",
  componentAllowedCidrs: "SLUICE_COMPONENT_ALLOWED_CIDRS",
  sandboxNetwork: "SLUICE_SANDBOX_NETWORK",
  retrySchedule: "SLUICE_RETRY_SCHEDULE",
  runRetrySchedule: "SLUICE_RUN_RETRY_SCHEDULE",
  deliveryRetentionDays: "SLUICE_DELIVERY_RETENTION_DAYS",
  maxRunners: "SLUICE_MAX_RUNNERS",
  runnerMemory: "SLUICE_RUNNER_MEMORY_MB",
  rateLimit: "SLUICE_RATE_LIMIT",
  bodyLimit: "SLUICE_BODY_LIMIT",
  endpointBodyLimit: "SLUICE_ENDPOINT_BODY_LIMIT",
  logLevel: "SLUICE_LOG_LEVEL",
  shutdownTimeout: "SLUICE_SHUTDOWN_TIMEOUT",
  drainDelay: "SLUICE_DRAIN_DELAY",
  smtpUrl: "SLUICE_SMTP_URL",
  smtpFrom: "SLUICE_SMTP_FROM",
  smtpTo: "SLUICE_SMTP_TO",
  oauthStateTtl: "SLUICE_OAUTH_STATE_TTL",
  accessTokenSeconds: "SLUICE_ACCESS_TOKEN_SECONDS",
  // CLI only
  apiKey: "SLUICE_API_KEY",
  profile: "SLUICE_PROFILE",
  configHome: "XDG_CONFIG_HOME",
  home: "HOME",
} as const;

/** The process environment. The one sanctioned read of process.env. */
export function processEnvironment(): Environment {
  return process.env;
}

/** A configuration value that cannot be used; the message names the variable or flag and says what to fix. */
export class ConfigError extends Error {
  override readonly name = "ConfigError";
}

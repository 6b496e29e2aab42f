/**
 * The environment of a `sluice server` process in the reliability suite: an ephemeral port on
 * 127.0.0.1, the bootstrap key, a fixed master key, info logs (the "listening" line is read from
 * them), webhooks allowed to reach 127.0.0.1, fast retries (deliveries' and runs'), and no API rate limit.
 */
export const RELIABILITY_API_KEY = "sk_reliability_0123456789abcdef";

export function serverEnvironment(
  location: { dataDir: string; databaseUrl?: string },
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    SLUICE_PORT: "0",
    SLUICE_DATA_DIR: location.dataDir,
    ...(location.databaseUrl ? { SLUICE_DATABASE_URL: location.databaseUrl } : {}),
    SLUICE_BOOTSTRAP_API_KEY: RELIABILITY_API_KEY,
    SLUICE_MASTER_KEY: Buffer.alloc(32, 7).toString("base64"),
    SLUICE_LOG_LEVEL: "info",
    SLUICE_ALLOWED_CIDRS: "127.0.0.0/8",
    SLUICE_RETRY_SCHEDULE: "0,0.2,0.2,0.2",
    SLUICE_RUN_RETRY_SCHEDULE: "0,0.2,0.2,0.2",
    SLUICE_RATE_LIMIT: "100000",
    ...extra,
  };
}

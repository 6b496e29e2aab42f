/** The server's configuration: flags over environment over defaults, and clear errors for bad values. */
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError } from "../../src/config/env.js";
import { loadServerConfig } from "../../src/config/server-config.js";

describe("server configuration", () => {
  it("defaults to 127.0.0.1:8080 with SQLite in ./.sluice", () => {
    const config = loadServerConfig({}, {});
    expect(config).toMatchObject({
      host: "127.0.0.1",
      port: 8080,
      baseUrl: "http://127.0.0.1:8080",
      dataDir: path.resolve(".sluice"),
      databaseUrl: undefined,
      retryScheduleSeconds: [0, 5, 300, 1800, 7200, 18000, 36000, 36000],
      runRetryScheduleSeconds: [0, 140, 280, 560, 1120, 2240, 4480, 8960, 17920],
      allowedCidrs: [],
    });
    expect(config.maxRunners).toBeGreaterThanOrEqual(4);
    expect(config.runnerMemoryMb).toBeGreaterThanOrEqual(64);
  });

  it("reads every documented variable", () => {
    const config = loadServerConfig(
      {},
      {
        SLUICE_HOST: "0.0.0.0",
        SLUICE_PORT: "9000",
        SLUICE_BASE_URL: "https://hooks.example.com/",
        SLUICE_DATA_DIR: "/var/lib/sluice",
        SLUICE_DATABASE_URL: "postgres://u@db/sluice",
        SLUICE_MASTER_KEY: "k",
        SLUICE_BOOTSTRAP_API_KEY: "sk_0123456789abcdef",
        SLUICE_ALLOWED_CIDRS: "127.0.0.0/8, 10.0.0.0/8",
        SLUICE_COMPONENT_ALLOWED_CIDRS: "10.20.0.0/16",
        SLUICE_SANDBOX_NETWORK: "namespace",
        SLUICE_RETRY_SCHEDULE: "0,1,2",
        SLUICE_MAX_RUNNERS: "12",
        SLUICE_RUNNER_MEMORY_MB: "512",
        SLUICE_RATE_LIMIT: "30",
      },
    );
    expect(config).toMatchObject({
      host: "0.0.0.0",
      port: 9000,
      baseUrl: "https://hooks.example.com",
      dataDir: "/var/lib/sluice",
      databaseUrl: "postgres://u@db/sluice",
      masterKey: "k",
      bootstrapApiKey: "sk_0123456789abcdef",
      allowedCidrs: ["127.0.0.0/8", "10.0.0.0/8"],
      componentAllowedCidrs: ["10.20.0.0/16"],
      sandboxNetwork: "namespace",
      retryScheduleSeconds: [0, 1, 2],
      maxRunners: 12,
      runnerMemoryMb: 512,
      rateLimitPerMinute: 30,
    });
  });

  it("flags win over the environment", () => {
    const config = loadServerConfig(
      { port: "7000", dataDir: "/tmp/flag" },
      { SLUICE_PORT: "9000", SLUICE_DATA_DIR: "/x" },
    );
    expect(config.port).toBe(7000);
    expect(config.dataDir).toBe("/tmp/flag");
    expect(config.baseUrl).toBe("http://127.0.0.1:7000");
  });

  it("drains for 0 ms and gives work in flight 30 s at shutdown by default; both are read in milliseconds", () => {
    expect(loadServerConfig({}, {})).toMatchObject({ drainDelayMs: 0, shutdownTimeoutMs: 30_000 });
    expect(
      loadServerConfig({}, { SLUICE_DRAIN_DELAY: "5000", SLUICE_SHUTDOWN_TIMEOUT: "60000" }),
    ).toMatchObject({ drainDelayMs: 5000, shutdownTimeoutMs: 60_000 });
  });

  it("keeps deliveries that are over for 30 days by default; the variable is read in days, fractions allowed, 0 for ever", () => {
    expect(loadServerConfig({}, {}).deliveryRetentionMs).toBe(30 * 86_400_000);
    expect(loadServerConfig({}, { SLUICE_DELIVERY_RETENTION_DAYS: "7" }).deliveryRetentionMs).toBe(
      7 * 86_400_000,
    );
    expect(loadServerConfig({}, { SLUICE_DELIVERY_RETENTION_DAYS: "0.5" }).deliveryRetentionMs).toBe(
      43_200_000,
    );
    expect(loadServerConfig({}, { SLUICE_DELIVERY_RETENTION_DAYS: "0" }).deliveryRetentionMs).toBe(0);
  });

  it.each([
    [{ SLUICE_PORT: "http" }, /SLUICE_PORT must be an integer/],
    [{ SLUICE_DELIVERY_RETENTION_DAYS: "30d" }, /SLUICE_DELIVERY_RETENTION_DAYS must be a number of days/],
    [{ SLUICE_DELIVERY_RETENTION_DAYS: "-1" }, /SLUICE_DELIVERY_RETENTION_DAYS must be a number of days/],
    [{ SLUICE_DELIVERY_RETENTION_DAYS: "40000" }, /SLUICE_DELIVERY_RETENTION_DAYS must be at most 36500/],
    [{ SLUICE_DRAIN_DELAY: "-1" }, /SLUICE_DRAIN_DELAY must be between 0 and 3600000/],
    [{ SLUICE_PORT: "70000" }, /SLUICE_PORT must be between 0 and 65535/],
    [{ SLUICE_DATABASE_URL: "mysql://x" }, /SLUICE_DATABASE_URL must be a postgres:\/\/ URL/],
    [{ SLUICE_BASE_URL: "example.com" }, /SLUICE_BASE_URL must be an absolute http\(s\) URL/],
    [{ SLUICE_RETRY_SCHEDULE: "0,soon" }, /SLUICE_RETRY_SCHEDULE must be a comma-separated list/],
    [{ SLUICE_RUN_RETRY_SCHEDULE: "0,-1" }, /SLUICE_RUN_RETRY_SCHEDULE must be a comma-separated list/],
    [{ SLUICE_LOG_LEVEL: "loud" }, /SLUICE_LOG_LEVEL must be one of/],
    [{ SLUICE_RUNNER_MEMORY_MB: "10" }, /SLUICE_RUNNER_MEMORY_MB must be between 64 and/],
    [{ SLUICE_BOOTSTRAP_API_KEY: "short" }, /SLUICE_BOOTSTRAP_API_KEY must be at least 16 characters/],
    [{ SLUICE_ALLOWED_CIDRS: "10.0.0.0/8,intranet" }, /SLUICE_ALLOWED_CIDRS: 'intranet' is not a CIDR range/],
    [
      { SLUICE_COMPONENT_ALLOWED_CIDRS: "10.0.0.0/40" },
      /SLUICE_COMPONENT_ALLOWED_CIDRS: '10.0.0.0\/40' is not a CIDR/,
    ],
    [{ SLUICE_SANDBOX_NETWORK: "firewall" }, /SLUICE_SANDBOX_NETWORK must be guard or namespace/],
  ])("refuses %j with a message naming the variable", (env, message) => {
    expect(() => loadServerConfig({}, env)).toThrow(ConfigError);
    expect(() => loadServerConfig({}, env)).toThrow(message);
  });
});

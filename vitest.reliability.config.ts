/**
 * The reliability suite (`npm run test:reliability`): real `sluice server` processes through
 * crashes, a flapping receiver, a hanging endpoint, a PostgreSQL restart and a full disk; and the
 * cluster suite (test/cluster): three nodes on one PostgreSQL schema behind a real nginx, through
 * rolling restarts. Its files run one at a time: one measures latency, others restart a database,
 * fill a disk or keep a steady load on three nodes, and none should have another's load on the
 * machine meanwhile.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/reliability/**/*.test.ts", "test/cluster/**/*.test.ts"],
    globalSetup: ["./test/support/reliability-postgres.ts"],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: false,
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});

/**
 * The reliability suite (`npm run test:reliability`): real `sluice server` processes through
 * crashes, a flapping receiver, a hanging endpoint, a PostgreSQL restart and a full disk. Its files
 * run one at a time: one measures latency, others restart a database or fill a disk, and none
 * should have another's load on the machine meanwhile.
 */
import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/reliability/**/*.test.ts"],
    globalSetup: ["./test/support/reliability-postgres.ts"],
    testTimeout: 300_000,
    hookTimeout: 120_000,
    pool: "forks",
    fileParallelism: false,
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});

import os from "node:os";
import { configDefaults, defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    // The reliability and cluster suites have their own command (npm run test:reliability) and config.
    exclude: [...configDefaults.exclude, "test/reliability/**", "test/cluster/**"],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: "forks",
    // Two files at a time even on 2 cores (vitest's default is one fewer than the cores): most
    // files wait on servers, sockets and databases rather than compute, and the property suite,
    // which computes, then runs beside the others instead of alone. 23 minutes become 15 here.
    maxWorkers: Math.max(2, os.availableParallelism() - 1),
    reporters: ["default", "./test/support/summary-reporter.ts"],
  },
});

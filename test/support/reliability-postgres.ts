/**
 * Global setup of the reliability suite: its scenarios that loop over the dialects run on
 * PostgreSQL too, never skipped. With SLUICE_TEST_DATABASE_URL set (CI sets it) they use that
 * server; without it, a private cluster is started for the run (and stopped after it), which
 * needs the PostgreSQL server binaries: missing, the suite fails with a message saying so.
 */
import { type PrivatePostgres, startPrivatePostgres } from "./private-postgres.js";

export default async function setup(): Promise<() => Promise<void>> {
  if (process.env.SLUICE_TEST_DATABASE_URL) return async () => {};
  let cluster: PrivatePostgres;
  try {
    cluster = await startPrivatePostgres();
  } catch (error) {
    throw new Error(
      `SLUICE_TEST_DATABASE_URL is not set, and no private PostgreSQL could be started for the ` +
        `reliability suite's PostgreSQL scenarios: ${(error as Error).message}`,
    );
  }
  // Read by test/support/dialects.ts in each test worker, which inherit this environment.
  process.env.SLUICE_TEST_DATABASE_URL = cluster.url;
  process.stderr.write(
    `SLUICE_TEST_DATABASE_URL is not set: the PostgreSQL scenarios run on a private cluster at ${cluster.url}\n`,
  );
  return () => cluster.destroy();
}

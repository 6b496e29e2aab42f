/**
 * The local MariaDB that the `@pipedream/mysql` tests run against, named by SLUICE_TEST_MYSQL_URL:
 * in CI a missing one fails them, elsewhere they show as skipped (needed-service.ts).
 */
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { neededService } from "./needed-service.js";

const run = promisify(execFile);

export const mariadb = neededService("SLUICE_TEST_MYSQL_URL", "MariaDB", "the @pipedream/mysql tests");

/** Runs SQL statements on the MariaDB at `url` as its user, with the mysql client. */
export function mysqlClient(url: URL): (statements: string) => Promise<unknown> {
  return (statements) =>
    run("mysql", [
      "-h",
      url.hostname,
      "-P",
      url.port || "3306",
      "-u",
      decodeURIComponent(url.username),
      ...(url.password ? [`-p${decodeURIComponent(url.password)}`] : []),
      "-e",
      statements,
    ]);
}

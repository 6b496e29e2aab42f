/**
 * Tests that need a service the machine provides (MariaDB, PostgreSQL), named by an environment
 * variable. CI always provides it (.ci/run starts it, or stops), so in CI a missing variable fails
 * those tests, saying the service did not start; elsewhere they show as skipped, with the
 * variable named, and the run says so once on stderr.
 */
import { describe, it, type TestContext } from "vitest";

export interface NeededService {
  /** The variable's value, undefined when it is not set. */
  readonly url: string | undefined;
  /** Ends a test that needs the service when there is none: a failure in CI, a skip elsewhere. */
  missing(context: TestContext): never;
  /**
   * A describe block whose tests need the service; `body` gets its URL. Without one, its tests
   * are listed as skipped under a block named after the variable, beside a test that fails in CI.
   */
  describeWith(title: string, body: (url: URL) => void): void;
}

const inCi = (process.env.CI ?? "") !== "" && process.env.CI !== "false";

export function neededService(variable: string, service: string, tests: string): NeededService {
  const url = process.env[variable] || undefined;
  const unset = `${variable} is not set`;
  if (!url && !inCi) process.stderr.write(`${unset}: ${tests} are reported as skipped.\n`);
  const missing = (context: TestContext): never => {
    if (inCi) throw new Error(`${unset}: ${service} did not start, and CI runs ${tests} (.ci/run starts it)`);
    return context.skip(`${unset}: no ${service} to run ${tests} against`);
  };
  return {
    url,
    missing,
    describeWith(title, body) {
      if (url) {
        describe(title, () => body(new URL(url)));
        return;
      }
      describe(title, () => {
        it(`has a ${service} to run against (${variable})`, (context) => missing(context));
        describe.skip(unset, () => body(new URL("unset://")));
      });
    },
  };
}

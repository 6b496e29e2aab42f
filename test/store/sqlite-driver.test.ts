/**
 * The embedded database's driver survives the garbage collector. better-sqlite3 12 on Node 24
 * aborts the process (`Assertion failed: (env) != nullptr`) when the collector finalizes a
 * statement; the driver chosen for the running Node must not. A child process (built dist/, as
 * the server runs it) prepares statements and drops them, and the collector runs.
 */
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { sqliteDriver } from "../../src/store/sqlite-driver.js";

const driverModule = path.join(import.meta.dirname, "../../dist/store/sqlite-driver.js");

const script = `
import { sqliteDriver } from ${JSON.stringify(driverModule)};
const { name, Database } = sqliteDriver();
const db = new Database(":memory:");
db.exec("create table t (v integer)");
// One tight loop: the collections it triggers itself finalize statements (with 12 on Node 24 the
// process aborts here), then explicit ones after it.
for (let n = 0; n < 20000; n++) db.prepare("insert into t values (" + n + ")").run();
globalThis.gc();
// A turn of the event loop for the finalizers that collection queued: time is the point.
await new Promise((resolve) => setTimeout(resolve, 20));
globalThis.gc();
const { count } = db.prepare("select count(*) as count from t").get();
db.close();
globalThis.gc();
console.log(name, count);
`;

describe("the embedded database's driver", () => {
  it("is one whose engines include this Node", () => {
    expect(sqliteDriver().name).toMatch(/^better-sqlite3@\d+\./);
  });

  it("statements finalized by the garbage collector do not abort the process", () => {
    const child = spawnSync(process.execPath, ["--expose-gc", "--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(child.stderr).not.toMatch(/Assertion failed/);
    expect(child.signal).toBeNull();
    expect(child.status).toBe(0);
    expect(child.stdout.trim()).toBe(`${sqliteDriver().name} 20000`);
  });
});

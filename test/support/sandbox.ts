/**
 * A sandbox for one test file: created before its tests in a temp directory of its own, closed
 * and removed after them. `sandbox` may be used at the top of the file: it reaches the one made in
 * `beforeAll`.
 */
import fs from "node:fs";
import { afterAll, beforeAll } from "vitest";
import { createSandbox, type SandboxOptions } from "../../src/runtime/sandbox/runner-pool.js";
import type { Sandbox } from "../../src/runtime/sandbox/sandbox.js";
import { tempDir } from "./temp.js";

export interface SandboxFixture {
  readonly sandbox: Sandbox;
  /** The sandbox's data directory, for other pools or files of the test's own. */
  dataDir(): string;
}

export function fileSandbox(
  prefix: string,
  options: Omit<SandboxOptions, "dataDir"> = { maxRunners: 10 },
): SandboxFixture {
  let dir: string | undefined;
  let made: Sandbox | undefined;
  beforeAll(() => {
    dir = tempDir(prefix);
    made = createSandbox({ ...options, dataDir: dir });
  });
  afterAll(async () => {
    await made?.close();
    if (dir !== undefined) fs.rmSync(dir, { recursive: true, force: true });
  });
  const current = (): Sandbox => {
    if (made === undefined) throw new Error("the sandbox is made in beforeAll: use it inside a test");
    return made;
  };
  const sandbox = new Proxy({} as Sandbox, {
    get(_, key) {
      const value: unknown = Reflect.get(current(), key);
      return typeof value === "function" ? value.bind(current()) : value;
    },
  });
  return {
    sandbox,
    dataDir: () => {
      if (dir === undefined) throw new Error("the data directory is made in beforeAll: use it inside a test");
      return dir;
    },
  };
}

/**
 * The Node.js versions `sluice` starts on: the check bin/sluice.js makes before it loads anything
 * else. An older Node gets an error that names the versions that work; the tested lines pass.
 */
import { execFileSync } from "node:child_process";
import { createRequire } from "node:module";
import path from "node:path";
import { describe, expect, it } from "vitest";

const { unsupportedNode } = createRequire(import.meta.url)("../../bin/node-support.cjs") as {
  unsupportedNode: (version: string) => string | undefined;
};

describe("the Node.js versions sluice runs on", () => {
  it("refuses a Node older than the lowest tested one, naming the ones that work", () => {
    for (const version of ["v16.20.2", "v18.20.4", "v20.17.0", "v21.7.3"]) {
      const message = unsupportedNode(version);
      expect(message).toContain(`Node.js ${version}`);
      expect(message).toContain("Node.js 20 (20.18 or later), 22 or 24");
    }
  });

  it("accepts the tested lines, 20.18+, 22 and 24", () => {
    for (const version of ["v20.18.0", "v20.20.2", "v22.12.0", "v22.23.3", "v24.0.0", "v24.21.0"]) {
      expect(unsupportedNode(version)).toBeUndefined();
    }
  });

  it("starts on the Node running the tests", () => {
    const bin = path.join(import.meta.dirname, "../../bin/sluice.js");
    const out = execFileSync(process.execPath, [bin, "--version"], { encoding: "utf8" });
    expect(out.trim()).toMatch(/^\d+\.\d+\.\d+$/);
  });
});

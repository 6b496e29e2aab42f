/**
 * The permission flag a runner is started with comes from the flags the running `node` accepts:
 * `--permission` where it exists (Node 22, 24), `--experimental-permission` on Node 20, and no
 * runner at all on a `node` with neither. The flag chosen here must start a real child that is
 * then denied what the permission model denies.
 */
import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";
import { permissionFlag, quietWarningFlags } from "../../src/runtime/sandbox/node-capabilities.js";

describe("the runner's Node flags", () => {
  it("prefers --permission, falls back to --experimental-permission, and refuses a node with neither", () => {
    expect(permissionFlag(new Set(["--permission", "--experimental-permission"]))).toBe("--permission");
    expect(permissionFlag(new Set(["--permission"]))).toBe("--permission");
    expect(permissionFlag(new Set(["--experimental-permission"]))).toBe("--experimental-permission");
    expect(() => permissionFlag(new Set(["--allow-fs-read"]))).toThrow(/no permission model/);
    expect(quietWarningFlags(new Set())).toEqual([]);
  });

  it("the flags chosen for this node start a child under the permission model", () => {
    const child = spawnSync(
      process.execPath,
      [
        permissionFlag(),
        ...quietWarningFlags(),
        "-e",
        "try { require('node:fs').readFileSync('/etc/hostname'); console.log('read') } catch (e) { console.log(e.code) }",
      ],
      { encoding: "utf8" },
    );
    expect(child.stderr).toBe("");
    expect(child.status).toBe(0);
    expect(child.stdout.trim()).toBe("ERR_ACCESS_DENIED");
  });
});

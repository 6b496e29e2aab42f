/** A package from the npm registry, unpacked into a temporary folder, as the registry tests use it. */
import { execFile } from "node:child_process";
import path from "node:path";
import { promisify } from "node:util";
import { tempDir } from "./temp.js";

const run = promisify(execFile);

/** `npm pack SPEC`, unpacked; resolves to the package's folder. */
export async function unpackNpmPackage(spec: string): Promise<string> {
  const folder = tempDir();
  const { stdout } = await run("npm", ["pack", spec, "--pack-destination", folder, "--silent"], {
    cwd: folder,
  });
  await run("tar", ["xzf", path.join(folder, stdout.trim().split("\n").at(-1) ?? ""), "-C", folder]);
  return path.join(folder, "package");
}

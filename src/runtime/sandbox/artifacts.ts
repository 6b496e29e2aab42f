/**
 * Compiled bundles on disk, `<dataDir>/artifacts/<bundleHash>/component.mjs`: written once per node
 * (temp file and rename, so a runner never imports a half-written one). The bundle's npm packages
 * are linked from this node's package cache into its `node_modules`: they resolve as in any Node
 * project and run from their install directory, which the runner may read.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import { bundlePackages } from "../compile/bundle-packages.js";
import type { RunnerSpec } from "./sandbox.js";

export const ARTIFACT_FILE = "component.mjs";

export interface Artifact {
  /** The directory a runner of this bundle may read. */
  readonly dir: string;
  readonly file: string;
  /** The real install directories of the bundle's packages, which a runner may read too. */
  readonly packageDirs: readonly string[];
}

/** Installs an exact package version (if needed); resolves to its install directory. */
export interface PackageInstaller {
  ensure(name: string, version: string): Promise<string>;
}

export class ArtifactStore {
  private readonly ready = new Map<string, Promise<Artifact>>();

  constructor(
    private readonly root: string,
    private readonly packages: PackageInstaller,
  ) {}

  /**
   * Writes the bundle and links its packages if this process has not done so yet. Throws on an
   * unsafe hash, a package that cannot be installed, or an I/O error (and tries again next time).
   */
  ensure(spec: RunnerSpec): Promise<Artifact> {
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(spec.bundleHash)) {
      return Promise.reject(
        new Error(`invalid bundle hash ${JSON.stringify(spec.bundleHash)}: expected hex or [A-Za-z0-9_-]`),
      );
    }
    let artifact = this.ready.get(spec.bundleHash);
    if (artifact === undefined) {
      artifact = this.prepare(spec);
      this.ready.set(spec.bundleHash, artifact);
      artifact.catch(() => this.ready.delete(spec.bundleHash));
    }
    return artifact;
  }

  private async prepare(spec: RunnerSpec): Promise<Artifact> {
    const dir = path.join(this.root, spec.bundleHash);
    const file = path.join(dir, ARTIFACT_FILE);
    const onDisk = await fs.readFile(file, "utf8").catch((error: NodeJS.ErrnoException) => {
      if (error.code === "ENOENT") return undefined;
      throw error;
    });
    const code = onDisk ?? (typeof spec.bundle === "string" ? spec.bundle : await spec.bundle());
    await fs.mkdir(dir, { recursive: true });
    const packageDirs = await this.linkPackages(dir, bundlePackages(code));
    if (onDisk === undefined) await writeAtomically(file, code);
    return { dir, file, packageDirs };
  }

  /** Links each package into `<dir>/node_modules`; resolves to their real install directories. */
  private async linkPackages(dir: string, packages: Record<string, string>): Promise<string[]> {
    return Promise.all(
      Object.entries(packages).map(async ([name, version]) => {
        const installDir = await fs.realpath(await this.packages.ensure(name, version));
        const link = path.join(dir, "node_modules", name);
        const target = path.join(installDir, "node_modules", name);
        if ((await fs.readlink(link).catch(() => undefined)) !== target) {
          await fs.mkdir(path.dirname(link), { recursive: true });
          // A link made elsewhere (another data directory path) is replaced in one step.
          const temp = `${link}.${randomBytes(6).toString("hex")}.tmp`;
          await fs.symlink(target, temp, "dir");
          await fs.rename(temp, link);
        }
        return installDir;
      }),
    );
  }
}

async function writeAtomically(file: string, code: string): Promise<void> {
  const temp = path.join(path.dirname(file), `.${ARTIFACT_FILE}.${randomBytes(6).toString("hex")}.tmp`);
  try {
    await fs.writeFile(temp, code, { mode: 0o644 });
    await fs.rename(temp, file);
  } catch (error) {
    await fs.rm(temp, { force: true });
    throw error;
  }
}

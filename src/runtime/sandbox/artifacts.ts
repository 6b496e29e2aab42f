/**
 * Compiled bundles on disk: `<dataDir>/artifacts/<bundleHash>/component.mjs`, written once per
 * node (temp file + rename, so a runner never imports a half-written file) and read by runners,
 * which may read nothing else of the data directory.
 */
import { randomBytes } from "node:crypto";
import fs from "node:fs/promises";
import path from "node:path";
import type { RunnerSpec } from "./sandbox.js";

export const ARTIFACT_FILE = "component.mjs";

export interface Artifact {
  /** The directory a runner of this bundle may read. */
  readonly dir: string;
  readonly file: string;
}

export class ArtifactStore {
  private readonly written = new Set<string>();

  constructor(private readonly root: string) {}

  /** Writes the bundle if this node does not have it yet. Throws on an unsafe hash or an I/O error. */
  async ensure(spec: RunnerSpec): Promise<Artifact> {
    if (!/^[A-Za-z0-9_-]{1,128}$/.test(spec.bundleHash)) {
      throw new Error(
        `invalid bundle hash ${JSON.stringify(spec.bundleHash)}: expected hex or [A-Za-z0-9_-]`,
      );
    }
    const dir = path.join(this.root, spec.bundleHash);
    const file = path.join(dir, ARTIFACT_FILE);
    if (this.written.has(spec.bundleHash) || (await exists(file))) {
      this.written.add(spec.bundleHash);
      return { dir, file };
    }
    const code = typeof spec.bundle === "string" ? spec.bundle : await spec.bundle();
    await fs.mkdir(dir, { recursive: true });
    const temp = path.join(dir, `.${ARTIFACT_FILE}.${randomBytes(6).toString("hex")}.tmp`);
    try {
      await fs.writeFile(temp, code, { mode: 0o644 });
      await fs.rename(temp, file);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
    this.written.add(spec.bundleHash);
    return { dir, file };
  }
}

async function exists(file: string): Promise<boolean> {
  try {
    await fs.access(file);
    return true;
  } catch {
    return false;
  }
}

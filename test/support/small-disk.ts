/**
 * A real, small filesystem for a test to fill: a tmpfs of the given size mounted on a new
 * directory, or, where tmpfs may not be mounted, an ext4 image on a loop device. Both need root
 * (CAP_SYS_ADMIN); when neither works the error says what was tried and why it failed, so a
 * suite that needs a full disk fails loudly instead of skipping. `release` always unmounts.
 */
import { execFile, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export interface SmallDisk {
  /** The mounted directory. */
  readonly dir: string;
  /** "tmpfs" or "ext4 on a loop device". */
  readonly kind: string;
  /** Bytes free for an unprivileged writer. */
  freeBytes(): number;
  /** Writes a file that leaves about `leaveBytes` free; returns its path. */
  fill(leaveBytes: number): string;
  /** Unmounts and deletes everything; safe to call twice. */
  release(): Promise<void>;
}

export async function mountSmallDisk(sizeMb: number): Promise<SmallDisk> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-disk-"));
  const dir = path.join(root, "mnt");
  fs.mkdirSync(dir);
  const failures: string[] = [];
  let image: string | undefined;
  let kind: string | undefined;
  try {
    await run("mount", ["-t", "tmpfs", "-o", `size=${sizeMb}m,mode=0700`, "tmpfs", dir]);
    kind = "tmpfs";
  } catch (error) {
    failures.push(`mount -t tmpfs: ${describe(error)}`);
  }
  if (!kind) {
    image = path.join(root, "disk.img");
    try {
      fs.writeFileSync(image, "");
      fs.truncateSync(image, sizeMb * 1024 * 1024);
      await run("mkfs.ext4", ["-q", "-F", "-m", "0", image]);
      await run("mount", ["-o", "loop", image, dir]);
      kind = "ext4 on a loop device";
    } catch (error) {
      failures.push(`mkfs.ext4 + mount -o loop: ${describe(error)}`);
    }
  }
  if (!kind) {
    fs.rmSync(root, { recursive: true, force: true });
    throw new Error(
      `This test needs a small real filesystem to fill, and could not mount one (it must run as root ` +
        `with CAP_SYS_ADMIN):\n  ${failures.join("\n  ")}`,
    );
  }
  let mounted = true;
  const unmountNow = () => {
    // Synchronous, for process exit: a test that dies before its afterAll leaves no mount behind.
    if (mounted) {
      try {
        execFileSync("umount", ["-l", dir]);
      } catch {}
    }
  };
  process.once("exit", unmountNow);
  return {
    dir,
    kind,
    freeBytes() {
      const stats = fs.statfsSync(dir);
      return stats.bavail * stats.bsize;
    },
    fill(leaveBytes) {
      const ballast = path.join(dir, "ballast");
      const stats = fs.statfsSync(dir);
      const size = Math.max(0, stats.bavail * stats.bsize - leaveBytes);
      const fd = fs.openSync(ballast, "w");
      try {
        const chunk = Buffer.alloc(1024 * 1024, 1);
        for (let written = 0; written < size; ) {
          written += fs.writeSync(fd, chunk, 0, Math.min(chunk.length, size - written));
        }
        fs.fsyncSync(fd);
      } finally {
        fs.closeSync(fd);
      }
      return ballast;
    },
    async release() {
      if (mounted) {
        try {
          await run("umount", [dir]);
        } catch {
          // Something still holds a file open (a process that did not exit yet): detach it now.
          await run("umount", ["-l", dir]);
        }
        mounted = false;
        process.off("exit", unmountNow);
      }
      fs.rmSync(root, { recursive: true, force: true });
    },
  };
}

function describe(error: unknown): string {
  const failed = error as Error & { stderr?: string };
  return (failed.stderr?.trim() || failed.message).split("\n")[0] ?? "failed";
}

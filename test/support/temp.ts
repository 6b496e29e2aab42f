import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/** A new empty directory under the system's temp dir. */
export function tempDir(prefix = "sluice-test-"): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

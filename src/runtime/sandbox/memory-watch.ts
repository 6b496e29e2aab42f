/**
 * A runner's resident memory, watched from the parent. `--max-old-space-size` bounds only the V8
 * heap: Buffers and ArrayBuffers live outside it, and a component could fill the host's memory
 * with them. While a runner loads or runs an invocation, the parent samples its resident set
 * (Linux: /proc/<pid>/status) and reports when it passes the limit. Elsewhere it watches nothing.
 */
import fs from "node:fs/promises";

/** How often a busy runner's memory is sampled. */
export const MEMORY_SAMPLE_MS = 100;

/** The resident-memory bound of a runner with this heap limit: room for the heap, V8's young generation, code, and moderate Buffers. */
export function memoryLimitMb(heapMb: number): number {
  return 2 * heapMb + 128;
}

/** Resident memory in MB, or undefined when it cannot be read (not Linux, or the process is gone). */
export function residentMb(pid: number): Promise<number | undefined> {
  return procMb(pid, "status", "VmRSS");
}

/** Samples `pid` until stopped; calls `exceeded` once with the resident size that passed `limitMb`. */
export function watchMemory(
  pid: number,
  limitMb: number,
  exceeded: (residentMb: number) => void,
): () => void {
  let stopped = false;
  let sampling = false;
  const timer = setInterval(() => {
    if (sampling) return;
    sampling = true;
    void residentMb(pid).then((mb) => {
      sampling = false;
      if (stopped || mb === undefined || mb <= limitMb) return;
      stop();
      exceeded(mb);
    });
  }, MEMORY_SAMPLE_MS);
  timer.unref();
  const stop = () => {
    stopped = true;
    clearInterval(timer);
  };
  return stop;
}

/**
 * Proportional set size in MB: resident memory with each shared page (Node's code, the runner's
 * modules) split between the processes that share it, so the sizes of many runners add up to
 * what they cost the machine. Undefined when it cannot be read (not Linux, or the process is gone).
 */
export function proportionalMb(pid: number): Promise<number | undefined> {
  return procMb(pid, "smaps_rollup", "Pss");
}

/** The `field: N kB` line of `/proc/<pid>/<file>`, in MB; undefined when it cannot be read. */
async function procMb(pid: number, file: string, field: string): Promise<number | undefined> {
  try {
    const text = await fs.readFile(`/proc/${pid}/${file}`, "utf8");
    const kb = new RegExp(`^${field}:\\s+(\\d+) kB`, "m").exec(text)?.[1];
    return kb === undefined ? undefined : Number(kb) / 1024;
  } catch {
    return undefined;
  }
}

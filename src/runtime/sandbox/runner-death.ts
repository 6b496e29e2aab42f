/**
 * What a runner process's death means for the invocation caught in it: the component called
 * process.exit (the runner reported it), V8 ran out of heap (it says so on stderr before
 * aborting), the parent stopped it, it ended itself some other way, or it crashed.
 */
import type { Failure } from "./invocation-collector.js";

export interface RunnerDeath {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly heapMb: number;
  /** The end of the child's stderr. */
  readonly stderrTail: string;
  /** The process could not be spawned at all. */
  readonly spawnError?: string;
  /** The code the component passed to process.exit, as the runner reported it. */
  readonly exitCalled?: number;
  /** Why the parent killed it, when it did. */
  readonly stopReason?: string;
}

export function classifyDeath(death: RunnerDeath): Failure {
  if (death.spawnError !== undefined) {
    return { reason: "crash", message: `the runner could not start: ${death.spawnError}` };
  }
  if (death.exitCalled !== undefined) {
    return { reason: "exit", message: `the component called process.exit(${death.exitCalled})` };
  }
  // V8 prints "… Allocation failed - JavaScript heap out of memory" (or "process out of memory") and aborts.
  if (/out of memory/i.test(death.stderrTail)) {
    return {
      reason: "out_of_memory",
      message: `the component ran out of memory (heap limit ${death.heapMb} MB)`,
    };
  }
  if (death.stopReason !== undefined) return { reason: "crash", message: death.stopReason };
  if (death.signal === null && death.code !== null) {
    // The component ended the process some other way than process.exit (process.disconnect(), …).
    return { reason: "exit", message: `the runner process exited with code ${death.code}` };
  }
  const lastLine = death.stderrTail.trim().split("\n").pop()?.trim().slice(0, 300);
  const cause = death.signal ?? "an unknown cause";
  return {
    reason: "crash",
    message: `the runner process was killed by ${cause}${lastLine ? ` (${lastLine})` : ""}`,
  };
}

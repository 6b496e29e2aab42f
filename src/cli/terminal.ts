/**
 * What the CLI does only for a person at a terminal: spinners while slow work runs, and prompts.
 * Both write to stderr, so stdout holds only the command's result (and stays parseable with --json).
 */
import { spinner } from "@clack/prompts";

/** True when a person can answer prompts: stdin and stdout are both terminals. */
export function isInteractive(): boolean {
  return process.stdin.isTTY === true && process.stdout.isTTY === true;
}

/**
 * Runs `work` under a spinner on a terminal; elsewhere just runs it. `work` may pass progress
 * to show after the label ("12 of 80").
 */
export async function withSpinner<T>(
  label: string,
  work: (progress: (note: string) => void) => Promise<T>,
): Promise<T> {
  if (!isInteractive()) return work(() => {});
  const indicator = spinner({ output: process.stderr });
  indicator.start(label);
  try {
    const result = await work((note) => indicator.message(`${label}: ${note}`));
    indicator.stop(label);
    return result;
  } catch (error) {
    indicator.error(`${label}: failed`);
    throw error;
  }
}

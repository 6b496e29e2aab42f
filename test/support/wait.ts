/**
 * Waiting in tests. A test waits for the condition it needs (`waitUntil`), never for a guessed
 * time. Two waits on the clock remain, each named for what it proves: `letTimePass`, where time
 * passing is the behaviour under test (a timer fires, a lease runs out), and `holdsThroughout`,
 * a "nothing else happens" window for when the system gives no signal that the work which could
 * break it is over.
 */

/** Polls `check` until it returns a value other than undefined or false. */
export async function waitUntil<T>(
  what: string,
  check: () => Promise<T | undefined | false> | T | undefined | false,
  timeoutMs = 10_000,
  intervalMs = 50,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}

/**
 * Lets `ms` of wall-clock time pass. Only where the passing of time is itself the behaviour
 * under test (a timer must fire in it, or must not); the call says which.
 */
export function letTimePass(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/**
 * Lets time pass until the moment `at` (epoch ms, or an ISO 8601 time) is over: for an expiry the
 * server stated, so that the wait is read from it, not guessed.
 */
export function letTimePassUntil(at: number | string): Promise<void> {
  const moment = typeof at === "number" ? at : Date.parse(at);
  if (Number.isNaN(moment)) throw new Error(`not a time: ${at}`);
  return letTimePass(Math.max(0, moment - Date.now()) + 20);
}

/**
 * Checks `check` all through a window of `ms` and fails at the first check that is false. It
 * proves only that nothing broke `what` within the window: use it where no signal says that the
 * work which could break it is over, and say at the call what that work is.
 */
export async function holdsThroughout(
  what: string,
  check: () => Promise<boolean> | boolean,
  ms: number,
  intervalMs = 50,
): Promise<void> {
  const end = Date.now() + ms;
  for (;;) {
    if (!(await check())) throw new Error(`${what} stopped holding within the ${ms} ms window`);
    if (Date.now() >= end) return;
    await new Promise((resolve) => setTimeout(resolve, Math.min(intervalMs, end - Date.now())));
  }
}

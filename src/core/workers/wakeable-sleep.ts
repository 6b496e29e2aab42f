/**
 * The pause of a worker loop: sleep until a time-out, or until woken early (a job finished, or a
 * wake-up was announced). Waking while not asleep does nothing.
 */
export interface WakeableSleep {
  sleep(ms: number): Promise<void>;
  wake(): void;
}

export function createWakeableSleep(): WakeableSleep {
  let wakeSleeper: (() => void) | undefined;
  return {
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        const timer = setTimeout(done, ms);
        function done() {
          clearTimeout(timer);
          wakeSleeper = undefined;
          resolve();
        }
        wakeSleeper = done;
      }),
    wake: () => wakeSleeper?.(),
  };
}

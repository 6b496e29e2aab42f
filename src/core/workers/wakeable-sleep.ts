/**
 * The pause of a worker loop: sleep until a time-out, or until woken early (a job finished, or a
 * wake-up was announced). A wake while the loop is awake is kept, and ends its next sleep at
 * once: what announced it may have come after the loop last looked. `forget` drops a kept wake
 * (the loop is about to look anyway).
 */
export interface WakeableSleep {
  /** Resolves true when woken (or a wake was kept), false when the time ran out. */
  sleep(ms: number): Promise<boolean>;
  wake(): void;
  forget(): void;
  /** A wake is kept: the next sleep ends at once. */
  readonly woken: boolean;
}

export function createWakeableSleep(): WakeableSleep {
  let wakeSleeper: (() => void) | undefined;
  let pending = false;
  return {
    sleep: (ms) =>
      new Promise<boolean>((resolve) => {
        if (pending) {
          pending = false;
          resolve(true);
          return;
        }
        const timer = setTimeout(() => done(false), ms);
        function done(woken: boolean) {
          clearTimeout(timer);
          wakeSleeper = undefined;
          resolve(woken);
        }
        wakeSleeper = () => done(true);
      }),
    wake: () => {
      if (wakeSleeper) wakeSleeper();
      else pending = true;
    },
    forget: () => {
      pending = false;
    },
    get woken() {
      return pending;
    },
  };
}

/**
 * A steady, open-loop load: `ratePerSecond` requests a second whatever the answers take (a slow
 * cluster gets more in flight, not fewer requests), each emitting one event `{tag, n}` through one
 * of the sources' endpoints in turn. Keeps every answer, so a test can check what the client saw.
 */
import type { EmitterSource } from "./webhook-delivery.js";

export interface LoadAnswer {
  /** The event's number, from 0. */
  readonly n: number;
  /** Which of the sources it went to. */
  readonly source: number;
  readonly sentAt: number;
  readonly at: number;
  /** 0 when no HTTP answer came (the connection failed). */
  readonly status: number;
  /** The error's code or message when not 200. */
  readonly detail?: string;
}

export interface SteadyLoad {
  readonly answers: LoadAnswer[];
  /** Requests not sent because `maxInFlight` were already waiting. */
  skipped(): number;
  /** Stops sending and resolves once every request in flight has its answer. */
  stop(): Promise<void>;
}

export function startSteadyLoad(
  sources: readonly EmitterSource[],
  options: { ratePerSecond: number; tag: string; maxInFlight?: number },
): SteadyLoad {
  const answers: LoadAnswer[] = [];
  const inFlight = new Set<Promise<void>>();
  const maxInFlight = options.maxInFlight ?? 500;
  const started = Date.now();
  let sent = 0;
  let skipped = 0;

  const send = (n: number) => {
    const index = n % sources.length;
    const source = sources[index] as EmitterSource;
    const sentAt = Date.now();
    const task = (async () => {
      try {
        const response = await fetch(source.endpointUrl, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ count: 1, tag: options.tag, start: n }),
        });
        const text = await response.text();
        const answer: LoadAnswer = { n, source: index, sentAt, at: Date.now(), status: response.status };
        answers.push(response.status === 200 ? answer : { ...answer, detail: text.slice(0, 200) });
      } catch (error) {
        const cause = (error as { cause?: unknown }).cause;
        const detail = cause === undefined ? String(error) : `${String(error)}: ${String(cause)}`;
        answers.push({ n, source: index, sentAt, at: Date.now(), status: 0, detail });
      }
    })();
    inFlight.add(task);
    void task.finally(() => inFlight.delete(task));
  };

  // Every 5 ms, send what the rate says is due by now.
  const timer = setInterval(() => {
    const due = Math.floor(((Date.now() - started) * options.ratePerSecond) / 1000);
    while (sent < due) {
      const n = sent++;
      if (inFlight.size >= maxInFlight) skipped++;
      else send(n);
    }
  }, 5);

  return {
    answers,
    skipped: () => skipped,
    async stop() {
      clearInterval(timer);
      while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
    },
  };
}

/**
 * Emits events without pause through a source's HTTP endpoint, one event per request with n = the
 * request's number, from a few concurrent callers, and keeps what each request got: the n of every
 * accepted (200) event, and a count of each other answer by status and error code. For tests that
 * break something (the database, the disk) while events keep coming.
 */
import type { EmitterSource } from "./webhook-delivery.js";

export interface EmitAnswer {
  n: number;
  /** When the answer arrived. */
  at: number;
  /** 0 when the request failed without an HTTP answer. */
  status: number;
  /** The `error.code` of an error answer; the failure's message when there was no answer. */
  code?: string;
  retryAfter?: string | null;
}

export interface EmitLoop {
  readonly answers: EmitAnswer[];
  /** The n of every event the server accepted (200). */
  accepted(): number[];
  /** Counts of the answers by "status code", such as "200" or "503 database_unavailable". */
  tally(since?: number): Record<string, number>;
  /** Stops sending and resolves once every request in flight has its answer. */
  stop(): Promise<void>;
}

export function startEmitLoop(
  source: EmitterSource,
  options: { tag: string; callers?: number; pauseMs?: number; body?: Record<string, unknown> },
): EmitLoop {
  const answers: EmitAnswer[] = [];
  let next = 0;
  let stopping = false;
  const caller = async () => {
    while (!stopping) {
      const n = next++;
      answers.push(await emitOne(source, { ...options.body, count: 1, start: n, tag: options.tag }, n));
      if (options.pauseMs) await new Promise((resolve) => setTimeout(resolve, options.pauseMs));
    }
  };
  const callers = Array.from({ length: options.callers ?? 4 }, () => caller());
  return {
    answers,
    accepted: () => answers.filter((answer) => answer.status === 200).map((answer) => answer.n),
    tally(since = 0) {
      const counts: Record<string, number> = {};
      for (const answer of answers) {
        if (answer.at < since) continue;
        const key = answer.code ? `${answer.status} ${answer.code}` : String(answer.status);
        counts[key] = (counts[key] ?? 0) + 1;
      }
      return counts;
    },
    async stop() {
      stopping = true;
      await Promise.all(callers);
    },
  };
}

async function emitOne(source: EmitterSource, body: Record<string, unknown>, n: number): Promise<EmitAnswer> {
  try {
    const response = await fetch(source.endpointUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify(body),
    });
    const text = await response.text();
    const answer: EmitAnswer = { n, at: Date.now(), status: response.status };
    if (response.status !== 200) {
      answer.retryAfter = response.headers.get("retry-after");
      try {
        answer.code = (JSON.parse(text) as { error?: { code?: string } }).error?.code ?? "no_code";
      } catch {
        answer.code = "not_json";
      }
    }
    return answer;
  } catch (error) {
    // No HTTP answer at all: the server is down or dropped the connection. Not a pause: the
    // test fails on it anyway, and a short wait keeps a dead server from spinning the loop.
    await new Promise((resolve) => setTimeout(resolve, 50));
    return { n, at: Date.now(), status: 0, code: (error as Error).message };
  }
}

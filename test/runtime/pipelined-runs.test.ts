/**
 * Pipelined invocations of one module instance (how a busy source's runs reach its runner): the
 * next is handed over before the previous one ends, and may come without its key-value state,
 * which the runner carries from run to run. The runner runs them in the order they came; each one's
 * time limit starts when it starts; those still waiting when the runner goes down (time-out,
 * process.exit) end `notStarted`, having done nothing, and so does one without its state sent to a
 * runner that does not hold it. On real runner processes (`npm run build` first).
 */
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import type { Invocation, InvocationResult, RunnerSpec } from "../../src/runtime/sandbox/sandbox.js";
import { fileSandbox } from "../support/sandbox.js";

const { sandbox } = fileSandbox("sluice-pipelined-");

/**
 * Counts its runs in its key-value state (and, in `runsHere`, those of this import of the module);
 * then sleeps, loops or exits when asked.
 */
const CODE = `
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
let runsHere = 0;
export default {
  name: "pipelined",
  props: { db: "$.service.db" },
  async run(event) {
    const n = (this.db.get("n") ?? 0) + 1;
    this.db.set("n", n);
    if (event.do === "sleep") await sleep(event.ms);
    if (event.do === "loop") for (;;) {}
    if (event.do === "exit") process.exit(3);
    return { n, pid: process.pid, runsHere: ++runsHere };
  },
};
`;

let runners = 0;

function sharedSpec(): RunnerSpec {
  return {
    componentId: `src_pipelined_${++runners}`,
    bundleHash: createHash("sha256").update(CODE).digest("hex"),
    bundle: CODE,
    concurrency: 8,
  };
}

const DB_PROP = { db: { kind: "db" } } as const;

/** A run of `instance`; `db` left out unless given (the runner's own copy then). */
function run(instance: string, event: unknown, overrides: Partial<Invocation> = {}): Invocation {
  return { instance, method: "run", event, props: DB_PROP, timeoutMs: 10_000, ...overrides };
}

/**
 * Invokes each in turn as soon as the previous one is handed to its runner (or has ended without
 * reaching one), as the invoker's lane does, without waiting for any to end.
 */
async function pipeline(spec: RunnerSpec, invocations: Invocation[]): Promise<InvocationResult[]> {
  const results: Promise<InvocationResult>[] = [];
  for (const invocation of invocations) {
    let handedOver = () => {};
    const sent = new Promise<void>((resolve) => {
      handedOver = resolve;
    });
    const result = sandbox.invoke(spec, { ...invocation, onSent: handedOver });
    results.push(result);
    await Promise.race([sent, result]);
  }
  return Promise.all(results);
}

function counted(result: InvocationResult): { n: number; pid: number; runsHere: number } {
  expect(result.failure).toBeUndefined();
  return result.returnValue as { n: number; pid: number; runsHere: number };
}

describe("pipelined runs of one module instance", () => {
  test("run in the order they were handed over, each on the state the previous one left", async () => {
    const spec = sharedSpec();
    const results = await pipeline(spec, [
      run("a", {}, { db: { n: 10 } }),
      ...Array.from({ length: 5 }, () => run("a", {})),
    ]);
    expect(results.map((result) => counted(result).n)).toEqual([11, 12, 13, 14, 15, 16]);
    expect(results.map((result) => result.dbWrites)).toEqual([11, 12, 13, 14, 15, 16].map((n) => ({ n })));
    // A run that brings its state starts from it, whatever the runner carried.
    const [fresh] = await pipeline(spec, [run("a", {}, { db: { n: 100 } })]);
    expect(counted(fresh as InvocationResult).n).toBe(101);
  });

  test("each one's time limit starts when it starts, not when it was handed over", async () => {
    const spec = sharedSpec();
    const results = await pipeline(
      spec,
      Array.from({ length: 3 }, (_, index) =>
        run("b", { do: "sleep", ms: 600 }, { timeoutMs: 1_000, ...(index === 0 ? { db: {} } : {}) }),
      ),
    );
    expect(results.map((result) => counted(result).n)).toEqual([1, 2, 3]);
  });

  test("one without its state, to a runner that does not hold it, does not start", async () => {
    const spec = sharedSpec();
    const [result] = await pipeline(spec, [run("c", {})]);
    expect(result?.ok).toBe(false);
    expect(result?.notStarted).toBe(true);
    expect(result?.dbWrites).toEqual({});
    // Nor after the instance was forgotten: its next import starts without the old state.
    await pipeline(spec, [run("c", {}, { db: { n: 1 } })]);
    sandbox.forgetInstance("c");
    const [afterForget] = await pipeline(spec, [run("c", {})]);
    expect(afterForget?.notStarted).toBe(true);
  });

  test("those waiting behind one that times out do not start; sent again with their state, they run", async () => {
    const spec = sharedSpec();
    const [looping, second, third] = await pipeline(spec, [
      run("d", { do: "loop" }, { db: {}, timeoutMs: 500 }),
      run("d", {}),
      run("d", {}),
    ]);
    expect(looping?.failure?.reason).toBe("timeout");
    // The looping run's db.set came before its loop: the parent has it.
    expect(looping?.dbWrites).toEqual({ n: 1 });
    for (const waiting of [second, third]) {
      expect(waiting?.notStarted).toBe(true);
      expect(waiting?.dbWrites).toEqual({});
      expect(waiting?.emits).toEqual([]);
    }
    const again = await pipeline(spec, [run("d", {}, { db: { n: 1 } }), run("d", {})]);
    expect(again.map((result) => counted(result).n)).toEqual([2, 3]);
  });

  test("those waiting behind one that exits do not start, and a neighbour that was running fails", async () => {
    const spec = sharedSpec();
    const [first, exiting, waiting] = await pipeline(spec, [
      run("e", { do: "sleep", ms: 200 }, { db: {} }),
      run("e", { do: "exit" }),
      run("e", {}),
    ]);
    expect(counted(first as InvocationResult).n).toBe(1);
    expect(exiting?.failure?.reason).toBe("exit");
    expect(exiting?.dbWrites).toEqual({ n: 2 });
    expect(waiting?.notStarted).toBe(true);

    // A run of another instance in flight when the runner exits started: it fails, naming who.
    const runningBeside = sandbox.invoke(spec, run("f", { do: "sleep", ms: 1_000 }, { db: {} }));
    const [, exited, behind] = await pipeline(spec, [
      run("g", { do: "sleep", ms: 100 }, { db: {} }),
      run("g", { do: "exit" }),
      run("g", {}),
    ]);
    expect(exited?.failure?.reason).toBe("exit");
    expect(behind?.notStarted).toBe(true);
    const beside = await runningBeside;
    expect(beside.notStarted).toBeUndefined();
    expect(beside.failure?.message).toMatch(/an invocation of g, which shared it, called process\.exit\(3\)/);
  });

  test("handed over in one turn, they go to the runner together, and a forget after them goes after them", async () => {
    const spec = sharedSpec();
    await pipeline(spec, [run("warm", {}, { db: {} })]);
    let sent = () => {};
    const handedOver = new Promise<void>((resolve) => {
      sent = resolve;
    });
    const first = sandbox.invoke(spec, run("h", {}, { db: {}, onSent: sent }));
    await handedOver;
    // In the same turn: the forget must reach the runner after the run queued before it, so the
    // next run imports the module afresh (had it overtaken, both would share one import).
    sandbox.forgetInstance("h");
    const second = sandbox.invoke(spec, run("h", {}, { db: {} }));
    const [before, after] = await Promise.all([first, second]);
    expect(counted(before).runsHere).toBe(1);
    expect(counted(after).runsHere).toBe(1);
  });

  test("one that cannot be sent fails alone; those of its instance behind it without state do not start", async () => {
    const spec = sharedSpec();
    await pipeline(spec, [run("warm", {}, { db: {} })]);
    const unsendable = pipeline(spec, [run("i", { big: 10n }, { db: {} }), run("i", {})]);
    const beside = sandbox.invoke(spec, run("j", {}, { db: {} }));
    const [broken, behind] = await unsendable;
    expect(broken?.failure?.reason).toBe("crash");
    expect(broken?.failure?.message).toMatch(/the invocation cannot be sent: .*BigInt/);
    expect(behind?.notStarted).toBe(true);
    expect(counted(await beside).n).toBe(1);
    // The runner holds no state for the instance: the next run without it does not start either.
    const [next] = await pipeline(spec, [run("i", {})]);
    expect(next?.notStarted).toBe(true);
  });
});

/**
 * A runner shared by several module instances (how the sources of one account and bundle share
 * one process): each instance keeps its own module state and PD_COMPONENT, invocations of
 * different instances run side by side with their effects and logs kept apart, and one that
 * brings the runner down (time-out, process.exit, an uncaught exception) fails the others in
 * flight with a message naming it, after which a fresh runner serves them. On real runner
 * processes; the runner is the compiled one (`npm run build` first).
 */
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import { createSandbox } from "../../src/runtime/sandbox/runner-pool.js";
import type { Invocation, InvocationResult, RunnerSpec } from "../../src/runtime/sandbox/sandbox.js";
import { fileSandbox } from "../support/sandbox.js";

const { sandbox, dataDir } = fileSandbox("sluice-shared-runner-");

/**
 * A component that counts its runs in module state, and on `event.do` waits for `event.peers`
 * invocations to have arrived (a barrier in the runner's writable directory), loops, exits,
 * throws later, or sleeps.
 */
const CODE = `
import fs from "node:fs";
let runs = 0;
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
export default {
  name: "shared",
  async run(event) {
    runs++;
    const me = process.env.PD_COMPONENT;
    if (event.do === "barrier") {
      fs.appendFileSync("arrived-" + event.tag, me + "\\n");
      while (fs.readFileSync("arrived-" + event.tag, "utf8").trim().split("\\n").length < event.peers) await sleep(10);
      setTimeout(() => console.log("late line of " + me), 5);
      await sleep(50);
      this.$emit({ from: me });
      return { me };
    }
    if (event.do === "sleep") { await sleep(event.ms); return { me }; }
    if (event.do === "loop") { console.log("looping"); for (;;) {} }
    if (event.do === "exit") process.exit(4);
    if (event.do === "late-throw") { setTimeout(() => { throw new Error("thrown later by " + me); }, 20); await sleep(2000); }
    return { runs, me, pid: process.pid };
  },
};
`;

let runners = 0;

/** A runner key of its own, shared by up to 8 instances in flight. */
function sharedSpec(): RunnerSpec {
  return {
    componentId: `src_test_${++runners}`,
    bundleHash: createHash("sha256").update(CODE).digest("hex"),
    bundle: CODE,
    concurrency: 8,
  };
}

function invocation(instance: string, event: unknown, overrides: Partial<Invocation> = {}): Invocation {
  return { instance, method: "run", event, props: {}, db: {}, timeoutMs: 10_000, ...overrides };
}

function value(result: InvocationResult): { runs: number; me: string; pid: number } {
  expect(result.failure).toBeUndefined();
  return result.returnValue as { runs: number; me: string; pid: number };
}

describe("a runner shared by module instances", () => {
  test("each instance keeps its own module state and PD_COMPONENT, in one process", async () => {
    const spec = sharedSpec();
    const a1 = value(await sandbox.invoke(spec, invocation("dc_a", {})));
    const a2 = value(await sandbox.invoke(spec, invocation("dc_a", {})));
    const b1 = value(await sandbox.invoke(spec, invocation("dc_b", {})));
    expect([a1.runs, a2.runs, b1.runs]).toEqual([1, 2, 1]);
    expect([a1.me, a2.me, b1.me]).toEqual(["dc_a", "dc_a", "dc_b"]);
    expect(new Set([a1.pid, a2.pid, b1.pid]).size).toBe(1);
  });

  test("invocations of different instances run side by side, each with its own emits and log lines", async () => {
    const spec = sharedSpec();
    const instances = ["dc_1", "dc_2", "dc_3", "dc_4", "dc_5"];
    // Each waits until all five have arrived: run one after the other, the first would time out.
    const results = await Promise.all(
      instances.map((instance) =>
        sandbox.invoke(
          spec,
          invocation(
            instance,
            { do: "barrier", tag: "side-by-side", peers: instances.length },
            { timeoutMs: 5_000 },
          ),
        ),
      ),
    );
    results.forEach((result, index) => {
      const instance = instances[index];
      expect(result.failure).toBeUndefined();
      expect(result.emits).toEqual([{ event: { from: instance }, meta: {} }]);
      expect(result.logs.map((line) => line.message)).toEqual([`late line of ${instance}`]);
    });
  });

  test("forgetting an instance: its next invocation starts from fresh module state", async () => {
    const spec = sharedSpec();
    value(await sandbox.invoke(spec, invocation("dc_f", {})));
    expect(value(await sandbox.invoke(spec, invocation("dc_f", {}))).runs).toBe(2);
    sandbox.forgetInstance("dc_f");
    expect(value(await sandbox.invoke(spec, invocation("dc_f", {}))).runs).toBe(1);
    // And again: each import is a module of its own, never one imported before (the ESM cache).
    expect(value(await sandbox.invoke(spec, invocation("dc_f", {}))).runs).toBe(2);
    sandbox.forgetInstance("dc_f");
    expect(value(await sandbox.invoke(spec, invocation("dc_f", {}))).runs).toBe(1);
  });

  test("a runner holds at most maxInstancesPerRunner instances: the next ones get another runner, and each instance keeps its own", async () => {
    const bounded = createSandbox({ dataDir: dataDir(), maxRunners: 10, maxInstancesPerRunner: 2 });
    try {
      const spec = sharedSpec();
      const pidOf = async (instance: string) =>
        value(await bounded.invoke(spec, invocation(instance, {}))).pid;
      const [a, b, c] = [await pidOf("dc_a"), await pidOf("dc_b"), await pidOf("dc_c")];
      expect(b).toBe(a);
      expect(c).not.toBe(a);
      expect(await pidOf("dc_a")).toBe(a);
      expect(await pidOf("dc_c")).toBe(c);
      // A forgotten instance frees its place: the next new one fits in the first runner again.
      bounded.forgetInstance("dc_b");
      expect(await pidOf("dc_d")).toBe(a);
    } finally {
      await bounded.close();
    }
  });

  test("an endless loop times out; the neighbour in flight fails naming it, and a fresh runner serves both next", async () => {
    const spec = sharedSpec();
    const before = value(await sandbox.invoke(spec, invocation("dc_waits", {})));
    const waiting = sandbox.invoke(spec, invocation("dc_waits", { do: "sleep", ms: 3_000 }));
    const looping = await sandbox.invoke(spec, invocation("dc_loops", { do: "loop" }, { timeoutMs: 500 }));
    expect(looping.failure).toEqual({ reason: "timeout", message: "timed out after 500 ms" });
    expect(looping.logs.map((line) => line.message)).toEqual(["looping"]);
    expect((await waiting).failure).toEqual({
      reason: "crash",
      message: "the runner was restarted: an invocation of dc_loops, which shared it, timed out after 500 ms",
    });
    const after = value(await sandbox.invoke(spec, invocation("dc_waits", {})));
    expect(after.pid).not.toBe(before.pid);
    expect(after.runs).toBe(1);
    expect(value(await sandbox.invoke(spec, invocation("dc_loops", {}))).runs).toBe(1);
  });

  test("process.exit in one instance fails it with reason exit, and the neighbour in flight with a crash naming it", async () => {
    const spec = sharedSpec();
    const waiting = sandbox.invoke(spec, invocation("dc_stays", { do: "sleep", ms: 3_000 }));
    value(await sandbox.invoke(spec, invocation("dc_exits", {})));
    const exiting = await sandbox.invoke(spec, invocation("dc_exits", { do: "exit" }));
    expect(exiting.failure).toEqual({ reason: "exit", message: "the component called process.exit(4)" });
    expect((await waiting).failure).toEqual({
      reason: "crash",
      message: "the runner was restarted: an invocation of dc_exits, which shared it, called process.exit(4)",
    });
    value(await sandbox.invoke(spec, invocation("dc_stays", {})));
  });

  test("an uncaught exception is charged to the invocation whose callback threw; the neighbour fails naming it", async () => {
    const spec = sharedSpec();
    const waiting = sandbox.invoke(spec, invocation("dc_calm", { do: "sleep", ms: 3_000 }));
    value(await sandbox.invoke(spec, invocation("dc_throws", {})));
    const throwing = await sandbox.invoke(spec, invocation("dc_throws", { do: "late-throw" }));
    expect(throwing.failure?.reason).toBe("error");
    expect(throwing.failure?.message).toBe("thrown later by dc_throws");
    expect((await waiting).failure).toEqual({
      reason: "crash",
      message:
        "the runner was restarted: an invocation of dc_throws, which shared it, threw an uncaught exception",
    });
  });
});

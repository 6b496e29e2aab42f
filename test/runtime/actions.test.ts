/**
 * The sandbox contract for actions, on real runner processes: `run({ steps, $ })`, and what `$`
 * calls come back as in the result — the per-step contract a workflow runner builds on. Bundles
 * are hand-written ES modules; the runner is the compiled one (`npm run build` first).
 */
import { createHash } from "node:crypto";
import { describe, expect, test } from "vitest";
import type { HttpResponse, Invocation, RunnerSpec } from "../../src/runtime/sandbox/sandbox.js";
import { fileSandbox } from "../support/sandbox.js";

const { sandbox } = fileSandbox("sluice-actions-sandbox-");
let components = 0;

function action(run: string, extra = ""): RunnerSpec {
  const code = `export default { name: "action", type: "action", ${extra} async run({ steps, $ }) { ${run} } };`;
  return {
    componentId: `sc_test${++components}`,
    bundleHash: createHash("sha256").update(code).digest("hex"),
    bundle: code,
  };
}

function invocation(overrides: Partial<Invocation> = {}): Invocation {
  return { method: "run", props: {}, db: {}, timeoutMs: 10_000, ...overrides };
}

describe("actions in the sandbox", () => {
  test("run gets { steps, $ }, and this holds props and methods", async () => {
    const result = await sandbox.invoke(
      action(
        "return { seen: steps.trigger.event.id, doubled: this.double(this.n), $type: typeof $.export };",
        "props: { n: 'integer' }, methods: { double(x) { return 2 * x; } },",
      ),
      invocation({ props: { n: { kind: "value", value: 21 } }, steps: { trigger: { event: { id: "e1" } } } }),
    );
    expect(result.failure).toBeUndefined();
    expect(result.returnValue).toEqual({ seen: "e1", doubled: 42, $type: "function" });
  });

  test("without steps, run gets an empty object", async () => {
    const result = await sandbox.invoke(action("return steps;"), invocation());
    expect(result.returnValue).toEqual({});
  });

  test("exports (the last of a name wins), the summary, the flow exit, sends and the response come back in the result", async () => {
    const responses: HttpResponse[] = [];
    const result = await sandbox.invoke(
      action(`
        $.export("a", 1);
        $.export("b", { deep: [1] });
        $.export("a", 2);
        $.export("$summary", "did things");
        await $.respond({ status: 202, body: "accepted", immediate: true });
        $.send.http({ method: "post", url: "https://example.com/x", data: { k: 1 } });
        $.send.emit({ raw_event: { n: 1 } });
        return $.flow.exit("done early");`),
      invocation({ onRespond: (response) => responses.push(response) }),
    );
    expect(result.ok).toBe(true);
    expect(result.returnValue).toBeUndefined();
    expect(result.exports).toEqual({ b: { deep: [1] }, a: 2 });
    expect(result.summary).toBe("did things");
    expect(result.flowExit).toEqual({ reason: "done early" });
    expect(result.sends).toEqual([
      { kind: "http", params: { method: "POST", url: "https://example.com/x", data: { k: 1 } } },
      { kind: "emit", params: { raw_event: { n: 1 } } },
    ]);
    expect(responses).toHaveLength(1);
    expect(result.response).toMatchObject({ status: 202, isJson: false, immediate: true });
    expect(Buffer.from(result.response?.body ?? []).toString()).toBe("accepted");
  });

  test("what an action did before it timed out is still reported", async () => {
    const spec = action(
      `if (steps.warm) return; $.export("before", true); $.send.sse({ channel: "c", payload: 1 }); await new Promise(() => {});`,
    );
    // The runner starts first, so the short timeout is spent in run() even on a loaded machine.
    expect((await sandbox.invoke(spec, invocation({ steps: { warm: true } }))).ok).toBe(true);
    const result = await sandbox.invoke(spec, invocation({ timeoutMs: 500 }));
    expect(result.ok).toBe(false);
    expect(result.failure?.reason).toBe("timeout");
    expect(result.exports).toEqual({ before: true });
    expect(result.sends).toEqual([{ kind: "sse", params: { channel: "c", payload: 1 } }]);
  });

  test("a source's result has none of the action fields", async () => {
    const code = `export default { name: "source", async run(event) { return event; } };`;
    const result = await sandbox.invoke(
      {
        componentId: `dc_test${++components}`,
        bundleHash: createHash("sha256").update(code).digest("hex"),
        bundle: code,
      },
      invocation({ event: { x: 1 }, steps: { ignored: true } }),
    );
    expect(result.returnValue).toEqual({ x: 1 });
    for (const field of ["exports", "summary", "flowExit", "sends", "response"])
      expect(result).not.toHaveProperty(field);
  });
});

/** A workflow's runs: newest first; the selected one (in the URL) opens its steps. */
import { useMutation, useQuery, useQueryClient } from "@tanstack/react-query";
import { useState } from "react";
import type { WorkflowRun } from "../../client/types.js";
import { api } from "../api.js";
import { JsonTree } from "../components/json-tree.js";
import { PickList } from "../components/pick-list.js";
import { ActionError, Empty, ErrorBox, Loading } from "../components/status.js";
import { formatMs } from "../components/time.js";
import { useUrlParam } from "../components/url-state.js";

export function RunsTab({ workflowId }: { workflowId: string }) {
  const queryClient = useQueryClient();
  const [selected, setSelected] = useUrlParam("run");
  const runs = useQuery({
    queryKey: ["runs", workflowId],
    queryFn: () => api.listWorkflowRuns(workflowId, { limit: 50 }),
    refetchInterval: 2_000,
  });
  const replay = useMutation({
    mutationFn: (runId: string) => api.replayWorkflowRun(runId),
    onSuccess: (run) => {
      void queryClient.invalidateQueries({ queryKey: ["runs", workflowId] });
      setSelected(run.id);
    },
  });
  const runWith = useMutation({
    mutationFn: (event: unknown) => api.runWorkflow(workflowId, event),
    onSuccess: (run) => {
      void queryClient.invalidateQueries({ queryKey: ["runs", workflowId] });
      setSelected(run.id);
    },
  });
  if (runs.isPending) return <Loading what="runs" />;
  if (runs.error) return <ErrorBox error={runs.error} />;
  const list = runs.data.data;
  const current = list.find((run) => run.id === selected) ?? list[0];
  return (
    <div>
      <ActionError error={replay.error ?? runWith.error} />
      {list.length === 0 ? (
        <>
          <Empty>No runs yet.</Empty>
          <RunWithEvent initial={{}} onRun={(event) => runWith.mutate(event)} />
        </>
      ) : (
        <div className="split">
          <PickList label="Runs" items={list} current={current?.id} onPick={setSelected}>
            {(run) => (
              <>
                <span className="small mono">{formatMs(run.created_at_ms)}</span>
                <span
                  className={`badge ${run.status === "success" ? "ok" : run.status === "error" ? "bad" : ""}`}
                >
                  {run.status}
                </span>
                {run.replay_of && <span className="muted small">replay</span>}
              </>
            )}
          </PickList>
          {current && (
            <RunInspector
              key={current.id}
              run={current}
              onReplay={() => replay.mutate(current.id)}
              onRunWith={(event) => runWith.mutate(event)}
            />
          )}
        </div>
      )}
    </div>
  );
}

function RunInspector({
  run,
  onReplay,
  onRunWith,
}: {
  run: WorkflowRun;
  onReplay: () => void;
  onRunWith: (event: unknown) => void;
}) {
  return (
    <article className="inspector" aria-label="Run">
      <div className="row">
        <h2 className="mono small">{run.id}</h2>
        <span className={`badge ${run.status === "success" ? "ok" : run.status === "error" ? "bad" : ""}`}>
          {run.status}
        </span>
        {run.duration_ms !== null && <span className="muted">{run.duration_ms} ms</span>}
        <button type="button" className="secondary small" onClick={onReplay}>
          Replay
        </button>
      </div>
      {run.error && (
        <div className="error-box" role="alert" aria-label="Run error">
          Step <strong>{run.error.step}</strong> failed ({run.error.reason}): {run.error.message}
        </div>
      )}
      <h3>Steps</h3>
      {run.steps.length === 0 && <p className="muted">No step has run yet.</p>}
      {run.steps.map((step) => (
        <details key={step.name} open={step.status === "error"} className="step">
          <summary>
            <span
              className={`badge ${step.status === "success" ? "ok" : step.status === "error" ? "bad" : ""}`}
            >
              {step.status}
            </span>{" "}
            {step.name} <span className="muted">{step.duration_ms} ms</span>
          </summary>
          {step.error && (
            <section aria-label={`Error of step ${step.name}`}>
              <p className="field-error">
                {step.error.reason}: {step.error.message}
              </p>
              {step.error.stack && <pre className="code-view small wrap">{step.error.stack}</pre>}
            </section>
          )}
          <h4>Return value</h4>
          <JsonTree value={step.return_value ?? null} label={`Return value of ${step.name}`} />
          {Object.keys(step.exports).length > 0 && (
            <>
              <h4>Exports</h4>
              <JsonTree value={step.exports} label={`Exports of ${step.name}`} />
            </>
          )}
          {step.logs.length > 0 && (
            <>
              <h4>Logs</h4>
              <ol className="logs">
                {step.logs.map((line, index) => (
                  // biome-ignore lint/suspicious/noArrayIndexKey: log lines have no id, and this list never reorders.
                  <li key={`${line.ts}-${index}`}>
                    <span className="mono">{line.level}</span> {line.message}
                  </li>
                ))}
              </ol>
            </>
          )}
        </details>
      ))}
      <h3>Trigger event</h3>
      <JsonTree value={run.trigger.event} label="Trigger event" />
      <RunWithEvent initial={run.trigger.event} onRun={onRunWith} />
    </article>
  );
}

function RunWithEvent({ initial, onRun }: { initial: unknown; onRun: (event: unknown) => void }) {
  const [error, setError] = useState<string | null>(null);
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        const text = String(new FormData(event.currentTarget).get("event") ?? "");
        try {
          onRun(JSON.parse(text));
          setError(null);
        } catch (failure) {
          setError(`Invalid JSON: ${(failure as Error).message}`);
        }
      }}
    >
      <label htmlFor="run-event">Run with this event (JSON)</label>
      <textarea
        id="run-event"
        name="event"
        className="code"
        rows={6}
        defaultValue={JSON.stringify(initial ?? {}, null, 2)}
        aria-invalid={error !== null}
      />
      <ActionError error={error} />
      <button type="submit" className="secondary">
        Run with this event
      </button>
    </form>
  );
}
